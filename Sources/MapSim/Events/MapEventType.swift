/// The fourteen event types of the Mapbox map event model, by their exact names.
public enum MapEventType: String, Sendable, CaseIterable, Codable {
    case mapLoaded = "map-loaded"
    case mapLoadingError = "map-loading-error"
    case mapIdle = "map-idle"
    case styleDataLoaded = "style-data-loaded"
    case styleLoaded = "style-loaded"
    case styleImageMissing = "style-image-missing"
    case styleImageRemoveUnused = "style-image-remove-unused"
    case sourceDataLoaded = "source-data-loaded"
    case sourceAdded = "source-added"
    case sourceRemoved = "source-removed"
    case renderFrameStarted = "render-frame-started"
    case renderFrameFinished = "render-frame-finished"
    case cameraChanged = "camera-changed"
    case resourceRequest = "resource-request"
}
