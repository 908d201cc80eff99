/// The payload of map-loading-error: what could not be loaded, and why.
public struct MapLoadingError: Sendable, Equatable {
    /// What kind of resource failed.
    public enum Kind: String, Sendable {
        case style, sprite, source, tile, glyphs
    }

    /// What kind of resource failed (`type`).
    public var type: Kind
    /// A readable message naming the resource (`message`).
    public var message: String
    /// The source, for source and tile errors (`source-id`).
    public var sourceID: String?
    /// The tile, for tile errors (`tile-id`).
    public var tileID: CanonicalTileID?

    /// An error payload.
    public init(type: Kind, message: String, sourceID: String? = nil, tileID: CanonicalTileID? = nil) {
        self.type = type
        self.message = message
        self.sourceID = sourceID
        self.tileID = tileID
    }
}

/// The payload of style-data-loaded: which part of the style is loaded.
public struct StyleDataLoaded: Sendable, Equatable {
    /// The parts of a style, in the order they load.
    public enum Kind: String, Sendable {
        case style, sprite, sources
    }

    /// Which part loaded (`type`).
    public var type: Kind

    /// A payload for `type`.
    public init(type: Kind) {
        self.type = type
    }
}

/// The payload of source-data-loaded: a source's metadata or one of its tiles loaded.
public struct SourceDataLoaded: Sendable, Equatable {
    /// What was loaded.
    public enum Kind: String, Sendable {
        case metadata, tile
    }

    /// The source (`id`).
    public var id: String
    /// Metadata or tile (`type`).
    public var type: Kind
    /// For tiles: whether every tile the source needs for the view is now loaded (`loaded`).
    public var loaded: Bool?
    /// For tiles: which tile (`tile-id`).
    public var tileID: CanonicalTileID?

    /// A payload.
    public init(id: String, type: Kind, loaded: Bool? = nil, tileID: CanonicalTileID? = nil) {
        self.id = id
        self.type = type
        self.loaded = loaded
        self.tileID = tileID
    }
}

/// The payload of render-frame-finished.
public struct RenderFrameFinished: Sendable, Equatable {
    /// Whether everything visible was drawn.
    public enum Mode: String, Sendable {
        case partial, full
    }

    /// Full when the style is loaded and every visible tile is complete (`render-mode`).
    public var renderMode: Mode
    /// Whether another frame is needed because something is animating (`needs-repaint`).
    public var needsRepaint: Bool
    /// Whether symbol placement changed in this frame (`placement-changed`).
    public var placementChanged: Bool

    /// A payload.
    public init(renderMode: Mode, needsRepaint: Bool, placementChanged: Bool) {
        self.renderMode = renderMode
        self.needsRepaint = needsRepaint
        self.placementChanged = placementChanged
    }
}

/// The payload of resource-request: one request, its response (unless cancelled), and the backend.
public struct ResourceRequest: Sendable, Equatable {
    /// The backend that answered (`data-source`).
    public var dataSource: DataSource
    /// The request (`request`).
    public var request: Resource
    /// The response; nil when the request was cancelled (`response`).
    public var response: Response?
    /// Whether the request was cancelled before it completed (`cancelled`).
    public var cancelled: Bool

    /// A payload.
    public init(dataSource: DataSource, request: Resource, response: Response?, cancelled: Bool) {
        self.dataSource = dataSource
        self.request = request
        self.response = response
        self.cancelled = cancelled
    }
}

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
    case sourceDataLoaded(SourceDataLoaded)
    /// A source was added at run time (`id`).
    case sourceAdded(id: String)
    /// A source was removed at run time (`id`).
    case sourceRemoved(id: String)
    case renderFrameStarted
    case renderFrameFinished(RenderFrameFinished)
    case cameraChanged
    case resourceRequest(ResourceRequest)

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
        case .sourceDataLoaded: .sourceDataLoaded
        case .sourceAdded: .sourceAdded
        case .sourceRemoved: .sourceRemoved
        case .renderFrameStarted: .renderFrameStarted
        case .renderFrameFinished: .renderFrameFinished
        case .cameraChanged: .cameraChanged
        case .resourceRequest: .resourceRequest
        }
    }
}

/// One event: its payload and time interval. Instant events have `begin == end`.
public struct MapEvent: Sendable, Equatable {
    /// When it began (for requests: when the request started).
    public var begin: SimTime
    /// When it ended (for requests: when the response or cancellation arrived).
    public var end: SimTime
    /// What happened.
    public var payload: MapEventPayload

    /// An event over `begin...end`.
    public init(begin: SimTime, end: SimTime, payload: MapEventPayload) {
        self.begin = begin
        self.end = end
        self.payload = payload
    }

    /// The event type.
    public var type: MapEventType { payload.type }
}
