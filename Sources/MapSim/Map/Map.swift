import MapSimJSON
import MapSimStyle

/// A headless map: it loads a style the way a Mapbox/MapLibre map does and reports every step as an event.
///
/// The map runs on a virtual clock. Nothing happens between calls: `run(until:timeout:)` and
/// `advance(by:)` move time forward, executing responses and frames in (time, order) sequence.
/// Real loads run as tasks, but their delivery time is decided by `DeliveryTiming`, so the same
/// inputs give the same event stream on every run.
///
/// The actor decides nothing: `MapMachine` decides everything, a `DriveLoop` feeds it each input
/// and carries out its loads, timers and frames, and the actor performs the rest — events and
/// cache writes.
///
/// ```swift
/// let map = Map(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "styles")), viewport: Viewport(width: 512, height: 512))
/// let subscription = map.subscribe(MapEvents.mapLoadingError) { print($0.payload.message) }
/// await map.setStyleURI("file:///path/to/style.json")
/// let outcome = await map.run(until: .mapIdle, timeout: .seconds(30))
/// ```
public actor Map {
    /// The states `run(until:timeout:)` can wait for.
    public enum State: String, Sendable, CaseIterable {
        case styleLoaded = "style-loaded"
        case mapLoaded = "map-loaded"
        case mapIdle = "map-idle"
    }

    /// How a run ended.
    public enum RunOutcome: Sendable, Equatable {
        /// The state was reached at this time.
        case reached(SimTime)
        /// The style could not be loaded or parsed — or, in still mode, a glyph range, a tile or
        /// the sprite failed, which stops a still image; the message says why.
        case styleFailed(String)
        /// The timeout passed first; `nothingPending` tells whether the map had nothing left to do.
        case timedOut(at: SimTime, nothingPending: Bool)
    }

    /// The wall clock the map reckons dates with: the date at each virtual time.
    public nonisolated let clock: WallClock
    private let loop: DriveLoop<MapLoopMachine, BackendLoads>
    private let cache: (any ResourceCache)?
    private let dispatcher = EventDispatcher()
    /// Answers to the fetches of `fetch`, until it hands them over.
    private var fetchAnswers: [FetchToken: Response] = [:]
    private var nextFetch = 0
    /// Why the API call being made was refused.
    private var refusal: LoadingError?

    /// A map that loads through `backends`, looking at `camera` through `viewport`; network answers
    /// arrive at the times `timing` gives.
    public init(backends: ResourceBackends, camera: Camera = Camera(center: LngLat(longitude: 0, latitude: 0), zoom: 0),
                viewport: Viewport = Viewport(width: 512, height: 512), options: Options = Options(),
                timing: any DeliveryTiming = ImmediateDelivery()) {
        var options = options
        options.loading.usesCache = backends.cache != nil
        clock = options.loading.wallClock
        cache = backends.cache
        loop = DriveLoop(machine: MapLoopMachine(map: MapMachine(camera: camera, viewport: viewport, options: options)), loads: BackendLoads(backends),
                         timing: timing)
        // Starting only sets the connectivity and schedules the offline windows: nothing to perform.
        loop.feed(.map(.start)) { _ in }
    }

    deinit {
        dispatcher.finish()
    }

    /// A map that loads nothing: a clock and an event stream for machines attached to it, such as
    /// live data replayed without a map to show it on.
    public static func withoutStyle() -> Map {
        Map(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/")))
    }

    // MARK: - Observing

    /// Calls `handler` with every event of `kind`, in subscription order among observers, until the
    /// returned `Cancelable` is cancelled or released.
    public nonisolated func subscribe<Payload>(_ kind: MapEventKind<Payload>, handler: @escaping @Sendable (TypedMapEvent<Payload>) -> Void) -> Cancelable {
        dispatcher.subscribe(kind, handler: handler)
    }

    /// Calls `handler` with every event until the returned `Cancelable` is cancelled or released.
    public nonisolated func subscribeAll(_ handler: @escaping @Sendable (MapEvent) -> Void) -> Cancelable {
        dispatcher.subscribe(handler)
    }

    /// Every event from now on; the sequence ends when the map is released.
    public nonisolated var events: AsyncStream<MapEvent> {
        dispatcher.stream()
    }

    // MARK: - State

    /// The current virtual time.
    public var now: SimTime { loop.now }

    /// The wall-clock time the map's loading pipeline reckons expiry with, at the current virtual time.
    public var wallClock: HTTPDate { clock.date(at: loop.now) }

    /// The camera as set (the map applies it constrained to the view).
    public var camera: Camera { loop.machine.map.sequence.camera }

    /// The view size and pixel ratio.
    public var viewport: Viewport { readout.viewport }

    /// The parsed style, once loaded.
    public var style: Style? { readout.style }

    /// The styles the style imports that loaded (a Mapbox engine), as `MapReadout.importedStyles`.
    public var importedStyles: [(scope: StyleScope, url: String?, style: Style)] { readout.importedStyles }

    /// The names of the images in the style's sprite sheets, once they are loaded (`id:` prefixed for
    /// sheets other than `default`).
    public var spriteImageNames: Set<String> { loop.machine.map.sequence.spriteImageNames }

    /// What the tiles loaded so far hold: source layers, their fields, the images each layer uses.
    public var tileData: TileDataReport { loop.machine.map.sequence.tileDataReport }

    /// The feature `id` of the GeoJSON source `source` as it is now, as GeoJSON (`id`, `properties`, the
    /// geometry's type and a point's coordinates); nil when there is no such source or feature.
    public func geoJSONFeature(source: String, id: JSONValue) -> JSONValue? {
        loop.machine.map.sequence.load.sources.first { $0.spec.id == source }?.geoJSON?.feature(id: id)
    }

    /// What an attachment would read of the map now (`MapReadout`).
    public var readout: MapReadout { MapReadout(machine: loop.machine.map) }

    /// Whether `state` holds now.
    public func isInState(_ state: State) -> Bool { loop.machine.isInState(state) }

    /// Whether the map is offline.
    public var isOffline: Bool { loop.machine.map.pipeline.isOffline }

    // MARK: - API

    /// Loads the style at `uri` (`file://`, `asset://`, `http(s)://` or `mapbox://styles/...`).
    public func setStyleURI(_ uri: String) { feed(.setStyleURL(uri)) }

    /// Loads a style from its JSON text; relative URLs in it resolve against `baseURL`.
    public func setStyleJSON(_ json: String, baseURL: String? = nil) { feed(.setStyleJSON(Array(json.utf8), baseURL: baseURL)) }

    /// Loads a style from its JSON bytes as read (a file, standard input), so bytes that are not
    /// UTF-8 are the parser's error, as they are in a style loaded by URL; relative URLs in it
    /// resolve against `baseURL`.
    public func setStyleJSON(bytes: [UInt8], baseURL: String? = nil) { feed(.setStyleJSON(bytes, baseURL: baseURL)) }

    /// Moves the camera at once (camera-changed). Fields the options leave nil keep their value; fields
    /// never set through the API take the style's default camera when a style loads.
    public func setCamera(_ options: CameraOptions) { feed(.setCamera(options)) }

    /// Resizes the view (camera-changed).
    public func setViewport(_ viewport: Viewport) { feed(.setViewport(viewport)) }

    /// Adds a source at run time (source-added, then its metadata loads).
    public func addSource(_ source: StyleSource) throws(LoadingError) {
        try call(.addSource(source))
    }

    /// Removes a source no layer uses (source-removed; its requests are cancelled).
    public func removeSource(id: String) throws(LoadingError) {
        try call(.removeSource(id))
    }

    /// Adds a layer at run time, as `Style.addLayer` does in the SDKs: `json` is the layer as a style
    /// holds it, placed below the layer `before` names (on top when nil). The tiles of its source are
    /// laid out again, so the images and glyphs it needs are requested or reported missing.
    public func addLayer(_ json: JSONValue, before: String? = nil) throws(LoadingError) {
        try call(.addLayer(try readout.layer(json), before: before))
    }

    /// Removes a layer added at run time or by the style; its source's tiles are laid out again.
    public func removeLayer(id: String) throws(LoadingError) {
        try call(.removeLayer(id))
    }

    /// The features of the GeoJSON source `source` as they are now, in the source's order (a
    /// GeometryCollection once per geometry); nil when there is no such GeoJSON source or its data has
    /// not loaded.
    public func geoJSONFeatures(source: String) -> [SourceFeature]? {
        readout.geoJSONFeatures(source: source)
    }

    /// The camera as the map applies it to the view (the world at least as tall as the view).
    public var effectiveCamera: Camera { readout.effectiveCamera }

    /// Adds an image at run time, as `Style.addStyleImage` does in the SDKs; when no rendered symbol
    /// uses it any more, style-image-remove-unused fires.
    public func addStyleImage(id: String) { feed(.addImage(id)) }

    /// Changes features of the GeoJSON source `id` by their ids, as MapLibre's `GeoJSONSource.updateData`:
    /// move them, set or remove properties, remove or add features. The map applies the change as a
    /// worker would, 1 ms plus 1 µs per feature later, then reports source-data-loaded
    /// `{type: metadata, data-id}` and lays the touched tiles out again, so data-driven layers
    /// re-evaluate. Changes made while one is being applied are merged into the next.
    public func updateGeoJSONSource(id: String, diff: GeoJSONSourceDiff, dataID: String? = nil) throws(LoadingError) {
        try call(.updateGeoJSONSource(id: id, diff: diff, dataID: dataID))
    }

    // MARK: - Attachments

    /// Attaches `attachment` to the map: from now on it runs in the map's drive loop, on its clock,
    /// its events in the map's stream (`MapAttachment`).
    public func attach<Attachment: MapAttachment>(_ attachment: Attachment) -> MapAttachmentID<Attachment> {
        let id = MapAttachmentID<Attachment>(place: loop.machine.attachmentCount)
        loop.feed(.attach(attachment), perform: perform)
        return id
    }

    /// Hands `input` to the attachment `id` now, and carries out what it asks.
    public func send<Attachment>(_ input: Attachment.Input, to id: MapAttachmentID<Attachment>) {
        loop.feed(.attachment(id.place, input, lane: 0), perform: perform)
    }

    /// The attachment `id` as it is now.
    public func attachment<Attachment>(_ id: MapAttachmentID<Attachment>) -> Attachment {
        guard let attachment = loop.machine.attachment(at: id.place) as? Attachment else {
            preconditionFailure("attachment \(id.place) is not a \(Attachment.self)")
        }
        return attachment
    }

    /// Runs the map and what is attached to it until `done` holds of the attachment `id`; false when
    /// nothing is left to do by `limit` first, or the task is cancelled.
    public func run<Attachment>(_ id: MapAttachmentID<Attachment>, until done: @Sendable (Attachment) -> Bool, notAfter limit: SimTime) async -> Bool {
        while !done(attachment(id)) {
            guard !Task.isCancelled, await loop.step(notAfter: limit, perform: perform) else { return false }
        }
        return true
    }

    /// From now on the map's virtual time moves with the wall clock: what is scheduled for a time
    /// happens when that time comes, and answers — and what real transports of attached machines
    /// post (a broker's messages) — are taken as they arrive. A map does so once it is loaded and
    /// live data comes from a real broker; `run` and `advance` then take as long as they say.
    public func followWallClock() {
        loop.followWallClock()
    }

    /// Sends events of components beside the map — a site's data manager, live data from a real
    /// broker — into its event stream, in order, as instants at the current time, so every
    /// observer sees one ordered stream.
    public func report(_ payloads: MapEventPayload...) {
        report(payloads)
    }

    /// Sends events of the components attached to the map into its event stream, in order.
    public func report(_ payloads: [MapEventPayload]) {
        for payload in payloads { dispatcher.dispatch(MapEvent(begin: loop.now, end: loop.now, payload: payload)) }
    }

    /// Goes offline (network requests fail at once with `in-offline-mode` and wait) or back online
    /// (requests whose last failure was a connection or offline failure restart).
    public func setOffline(_ offline: Bool) { feed(.setOffline(offline)) }

    /// Sets global state `name` (`["global-state", NAME]`) to `value`, or back to the style's
    /// default with nil, as GL JS's `setGlobalStateProperty`: the layers that read it are laid out
    /// again (new glyph ranges and images requested), raster sources reloaded, visibilities applied.
    /// A value set before the style loads is read when it does, and outlives style loads.
    public func setGlobalStateProperty(_ name: String, _ value: JSONValue?) { feed(.setGlobalState(name, value)) }

    /// The global state expressions read now: the style's defaults with the values set over them.
    public var globalState: JSONObject { readout.globalState }

    /// Sets config `name` of the import `importID` — "" for the root style — to `value`, or back
    /// to the import's own value with nil, as Mapbox's `setConfigProperty` (GL JS) and
    /// `setStyleImportConfigProperty` (the SDK): `["config", NAME]` in that style's layers reads it,
    /// visibilities are applied and its sources' tiles laid out again (new glyph ranges and images
    /// requested). Only a top-level import can be reached; once the imports are loaded an unknown
    /// id is a map-loading-error (`Style import not found: ID`). A value set before the style loads
    /// is read when it does, and outlives style loads.
    public func setConfigProperty(_ importID: String, _ name: String, _ value: JSONValue?) {
        feed(.setConfig(importID: importID, name: name, value: value))
    }

    /// Ends a run whose time is over: every request not yet answered is given up — its load
    /// stopped, its `resource-request` event cancelled with a connection failure that says `reason`
    /// and names the URL — so that a summary and a trace say what the map still waited for. The map
    /// waits for those answers no more.
    public func giveUp(_ reason: String) { feed(.giveUp(reason)) }

    // MARK: - Running

    /// Runs until `state` holds, the style fails, or `timeout` of virtual time passes.
    public func run(until state: State, timeout: SimTime) async -> RunOutcome {
        let deadline = loop.now + timeout
        while true {
            if case .failed(let message) = loop.machine.map.sequence.phase { return .styleFailed(message) }
            if isInState(state) { return .reached(loop.now) }
            if await !loop.step(notAfter: deadline, perform: perform) {
                let nothingPending = !loop.hasPendingWork(by: deadline)
                loop.advanceClock(to: deadline)
                return .timedOut(at: deadline, nothingPending: nothingPending)
            }
        }
    }

    /// Loads `resources` through the map's loading pipeline — its network, faults, retry rules and
    /// offline mode, and its cache as each resource's loading method and storage policy say — for a
    /// caller beside the map, such as the deep validator (a machine attached to the map fetches with
    /// `AttachmentAction.fetch` instead); their resource-request events are in the map's stream.
    /// Runs the map's clock until each has its first answer (a failure ends the request: nothing is
    /// retried), or `timeout` passes, which answers the rest with a failure.
    public func fetch(_ resources: [Resource], timeout: SimTime) async -> [Response] {
        var tokens: [FetchToken] = []
        for resource in resources {
            let token = FetchToken(value: nextFetch)
            nextFetch += 1
            tokens.append(token)
            feed(.fetch(token, resource, timeout: timeout))
        }
        // Each fetch is answered by its deadline at the latest.
        while tokens.contains(where: { fetchAnswers[$0] == nil }), await loop.step(notAfter: .max, perform: perform) {}
        return tokens.map { fetchAnswers.removeValue(forKey: $0) ?? .failure(.connection, "no answer within \(timeout)", source: .network) }
    }

    /// Runs everything due in the next `duration` of virtual time, then sets the clock to its end
    /// (on the wall clock: where it got to, when the task is cancelled).
    public func advance(by duration: SimTime) async {
        await loop.run(until: loop.now + duration, perform: perform)
    }

    // MARK: - Performing

    private func feed(_ input: MapInput) {
        loop.feed(.map(input), perform: perform)
    }

    /// Feeds an API call that the map may refuse, and throws the refusal.
    private func call(_ input: MapInput) throws(LoadingError) {
        refusal = nil
        feed(input)
        if let refusal { throw refusal }
    }

    /// Performs what the machine asked of the actor, in order.
    private func perform(_ output: MapOutput) {
        switch output {
        case .emit(let payload, let begin):
            dispatcher.dispatch(MapEvent(begin: begin ?? loop.now, end: loop.now, payload: payload))
        case .store(let resource, let response):
            cache?.store(resource, response)
        case .refreshCache(let resource, let response):
            cache?.refresh(resource, response)
        case .fetched(let token, let response):
            fetchAnswers[token] = response
        case .refused(let error):
            refusal = error
        }
    }
}
