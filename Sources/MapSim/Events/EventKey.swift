/// The names of an event's JSON line and of the Mapbox payload keys, in one place: the writers of
/// events (`MapEventPayload.writeFields`) and their reader (`MapEvent(json:)`) use these and no others.
public enum EventKey {
    // The JSON line.
    public static let type = "type"
    public static let begin = "begin"
    public static let end = "end"
    public static let data = "data"
    // map-loading-error, style-data-loaded, source-data-loaded, source and image events.
    public static let message = "message"
    public static let sourceID = "source-id"
    public static let tileID = "tile-id"
    public static let id = "id"
    public static let loaded = "loaded"
    public static let dataID = "data-id"
    /// The import (of a Mapbox style) a source, image or request belongs to: `a/a2`.
    public static let styleImport = "import"
    // A tile id.
    public static let z = "z"
    public static let x = "x"
    public static let y = "y"
    // render-frame-finished.
    public static let renderMode = "render-mode"
    public static let needsRepaint = "needs-repaint"
    public static let placementChanged = "placement-changed"
    // resource-request.
    public static let dataSource = "data-source"
    public static let request = "request"
    public static let response = "response"
    public static let cancelled = "cancelled"
    public static let url = "url"
    public static let kind = "kind"
    public static let priority = "priority"
    public static let loadingMethod = "loading-method"
    public static let range = "range"
    public static let feature = "feature"
    public static let engine = "engine"
    public static let from = "from"
    public static let to = "to"
    public static let noContent = "no-content"
    public static let notModified = "not-modified"
    public static let mustRevalidate = "must-revalidate"
    public static let source = "source"
    public static let size = "size"
    public static let modified = "modified"
    public static let expires = "expires"
    public static let etag = "etag"
    public static let error = "error"
    public static let reason = "reason"
}
