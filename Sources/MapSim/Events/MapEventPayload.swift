

/// An event's payload: one case per event type.
public enum MapEventPayload: Sendable, Equatable {
    case mapLoaded
    case mapLoadingError(MapLoadingError)
    case mapIdle
    case styleDataLoaded(StyleDataLoaded)
    case styleLoaded
    /// A rendered symbol needs an image the sprite lacks (`id`).
    case styleImageMissing(id: String)
    /// An image added at run time is no longer used (`id`).
    case styleImageRemoveUnused(id: String)
    /// The style uses what the engine does not draw (a globe, terrain, a video): loaded as the
    /// engine loads it, said once per style load (`feature`, `engine`, `message`).
    case styleFeatureIgnored(StyleFeatureIgnored)
    /// The style loads with something its author should know (an import cycle, imports nested too
    /// deep, a duplicate import id): a mapsim event (`message`, `import`).
    case styleWarning(StyleWarning)
    case sourceDataLoaded(SourceDataLoaded)
    /// A source was added at run time (`id`).
    case sourceAdded(id: String)
    /// A source was removed at run time (`id`).
    case sourceRemoved(id: String)
    case renderFrameStarted
    case renderFrameFinished(RenderFrameFinished)
    case cameraChanged
    case resourceRequest(ResourceRequest)
    /// Live data: its connection, subscriptions and updates.
    case live(LiveEvent)
    /// Dynamic entities: observations, entities, purges and the connection.
    case dynamicEntity(DynamicEntityEvent)
    /// A site's content: a check begins, data is ready, the check is over.
    case content(ContentEvent)
    /// An offline region download: its status, a resource it could not download, the tile limit.
    case offlineRegion(OfflineRegionEvent)

    /// The event type of this payload.
    public var type: MapEventType {
        switch self {
        case .mapLoaded: .mapLoaded
        case .mapLoadingError: .mapLoadingError
        case .mapIdle: .mapIdle
        case .styleDataLoaded: .styleDataLoaded
        case .styleLoaded: .styleLoaded
        case .styleImageMissing: .styleImageMissing
        case .styleImageRemoveUnused: .styleImageRemoveUnused
        case .styleFeatureIgnored: .styleFeatureIgnored
        case .styleWarning: .styleWarning
        case .sourceDataLoaded: .sourceDataLoaded
        case .sourceAdded: .sourceAdded
        case .sourceRemoved: .sourceRemoved
        case .renderFrameStarted: .renderFrameStarted
        case .renderFrameFinished: .renderFrameFinished
        case .cameraChanged: .cameraChanged
        case .resourceRequest: .resourceRequest
        case .live(let event): event.type
        case .dynamicEntity(let event): event.type
        case .content(let event): event.type
        case .offlineRegion(let event): event.type
        }
    }
}
