/// The typed handles of the event types, named as in the Mapbox SDKs; the live-data events share one handle.
public enum MapEvents {
    public static let mapLoaded = MapEventKind<Void>(type: .mapLoaded) { if case .mapLoaded = $0 { () } else { nil } }
    public static let mapLoadingError = MapEventKind<MapLoadingError>(type: .mapLoadingError) { if case .mapLoadingError(let p) = $0 { p } else { nil } }
    public static let mapIdle = MapEventKind<Void>(type: .mapIdle) { if case .mapIdle = $0 { () } else { nil } }
    public static let styleDataLoaded = MapEventKind<StyleDataLoaded>(type: .styleDataLoaded) { if case .styleDataLoaded(let p) = $0 { p } else { nil } }
    public static let styleLoaded = MapEventKind<Void>(type: .styleLoaded) { if case .styleLoaded = $0 { () } else { nil } }
    public static let styleImageMissing = MapEventKind<String>(type: .styleImageMissing) { if case .styleImageMissing(let id) = $0 { id } else { nil } }
    public static let styleFeatureIgnored = MapEventKind<StyleFeatureIgnored>(type: .styleFeatureIgnored) {
        if case .styleFeatureIgnored(let p) = $0 { p } else { nil }
    }
    public static let styleWarning = MapEventKind<StyleWarning>(type: .styleWarning) { if case .styleWarning(let p) = $0 { p } else { nil } }
    public static let styleImageRemoveUnused = MapEventKind<String>(type: .styleImageRemoveUnused) { if case .styleImageRemoveUnused(let id) = $0 { id } else { nil } }
    public static let sourceDataLoaded = MapEventKind<SourceDataLoaded>(type: .sourceDataLoaded) { if case .sourceDataLoaded(let p) = $0 { p } else { nil } }
    public static let sourceAdded = MapEventKind<String>(type: .sourceAdded) { if case .sourceAdded(let id) = $0 { id } else { nil } }
    public static let sourceRemoved = MapEventKind<String>(type: .sourceRemoved) { if case .sourceRemoved(let id) = $0 { id } else { nil } }
    public static let renderFrameStarted = MapEventKind<Void>(type: .renderFrameStarted) { if case .renderFrameStarted = $0 { () } else { nil } }
    public static let renderFrameFinished = MapEventKind<RenderFrameFinished>(type: .renderFrameFinished) { if case .renderFrameFinished(let p) = $0 { p } else { nil } }
    public static let cameraChanged = MapEventKind<Void>(type: .cameraChanged) { if case .cameraChanged = $0 { () } else { nil } }
    public static let resourceRequest = MapEventKind<ResourceRequest>(type: .resourceRequest) { if case .resourceRequest(let p) = $0 { p } else { nil } }
    /// Every live-data event (live-state-changed, live-subscribed, live-update…).
    public static let live = MapEventKind<LiveEvent>(type: .liveUpdate) { if case .live(let event) = $0 { event } else { nil } }
    /// Every dynamic-entity event (observations, entities, purges, the connection).
    public static let dynamicEntity = MapEventKind<DynamicEntityEvent>(type: .dynamicEntityObservationReceived) {
        if case .dynamicEntity(let event) = $0 { event } else { nil }
    }
    /// Every content event of a site's data manager.
    public static let content = MapEventKind<ContentEvent>(type: .contentReady) { if case .content(let event) = $0 { event } else { nil } }
}
