import MapSimJSON
import MapSimStyle

/// A headless map: it loads a style the way a Mapbox/MapLibre map does and reports every step as an event.
///
/// The map runs on a virtual clock. Nothing happens between calls: `run(until:timeout:)` and
/// `advance(by:)` move time forward, executing responses and frames in (time, order) sequence.
/// Real loads run as tasks, but their delivery time is decided by `DeliveryTiming`, so the same
/// inputs give the same event stream on every run.
///
/// The actor only executes: `MapMachine` decides everything, and the actor feeds it each input and
/// runs the actions it returns — loads, cache writes, timers, frames and events.
///
/// ```swift
/// let map = Map(loader: FileResourceLoader(assetRoot: "styles"), viewport: Viewport(width: 512, height: 512))
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
        /// The style could not be loaded or parsed; the message says why.
        case styleFailed(String)
        /// The timeout passed first; `nothingPending` tells whether the map had nothing left to do.
        case timedOut(at: SimTime, nothingPending: Bool)
    }

    /// A load under way: its task, and what the delivery model needs to time its answer.
    private struct LoadTask {
        var request: RequestID
        var backend: RequestPipeline.Backend
        var resource: Resource
        var start: SimTime
        var task: Task<(Response, Duration), Never>
    }

    private var machine: MapMachine
    private var scheduler = Scheduler<MapInput>()
    private var loads: [AttemptID: LoadTask] = [:]
    /// Loads started since their answers were last scheduled, in attempt order.
    private var unscheduled: [AttemptID] = []
    private let backends: ResourceBackends
    private var timing: any DeliveryTiming
    private let dispatcher = EventDispatcher()
    /// First answers to fetches of attached components, until `fetch` hands them over.
    private var fetchAnswers: [RequestID: Response] = [:]

    /// A map that loads through `backends`, looking at `camera` through `viewport`.
    public init(backends: ResourceBackends, camera: Camera = Camera(center: LngLat(longitude: 0, latitude: 0), zoom: 0),
                viewport: Viewport = Viewport(width: 512, height: 512), options: Options = Options(),
                timing: any DeliveryTiming = ImmediateDelivery()) {
        self.backends = backends
        self.timing = timing
        machine = MapMachine(camera: camera, viewport: viewport,
                             options: LoadSequence.Options(mapbox: options.mapbox, symbolFadeDuration: options.symbolFadeDuration,
                                                           maximumTilesPerSource: options.maximumTilesPerSource, mode: options.mode),
                             pipeline: .init(maximumConcurrentRequests: options.maximumConcurrentRequests, usesCache: backends.cache != nil,
                                             wallClockStart: options.wallClockStart, maximumRetries: options.maximumRetries))
        for window in timing.offlineWindows where !window.isEmpty {
            if window.lowerBound <= .zero {
                _ = machine.handle(.setOffline(true), at: .zero)
            } else {
                scheduler.schedule(.setOffline(true), at: window.lowerBound)
            }
            scheduler.schedule(.setOffline(false), at: window.upperBound)
        }
    }

    /// A map that loads every URL through one `loader` (files and network alike), without a cache.
    public init(loader: any ResourceLoader, camera: Camera = Camera(center: LngLat(longitude: 0, latitude: 0), zoom: 0),
                viewport: Viewport = Viewport(width: 512, height: 512), options: Options = Options(),
                timing: any DeliveryTiming = ImmediateDelivery()) {
        self.init(backends: ResourceBackends(file: loader, network: loader), camera: camera, viewport: viewport, options: options, timing: timing)
    }

    deinit {
        for load in loads.values { load.task.cancel() }
        dispatcher.finish()
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
    public var now: SimTime { scheduler.now }

    /// The wall-clock time the map's loading pipeline reckons expiry with, at the current virtual time.
    public var wallClock: HTTPDate { machine.pipeline.wallClock(at: scheduler.now) }

    /// The camera as set (the map applies it constrained to the view).
    public var camera: Camera { machine.sequence.camera }

    /// The view size and pixel ratio.
    public var viewport: Viewport { machine.sequence.viewport }

    /// The parsed style, once loaded.
    public var style: Style? { machine.sequence.style }

    /// The names of the images in the style's sprite sheets, once they are loaded (`id:` prefixed for
    /// sheets other than `default`).
    public var spriteImageNames: Set<String> { machine.sequence.spriteImageNames }

    /// What the tiles loaded so far hold: source layers, their fields, the images each layer uses.
    public var tileData: TileDataReport { machine.sequence.tileDataReport }

    /// The feature `id` of the GeoJSON source `source` as it is now, as GeoJSON (`id`, `properties`, the
    /// geometry's type and a point's coordinates); nil when there is no such source or feature.
    public func geoJSONFeature(source: String, id: JSONValue) -> JSONValue? {
        machine.sequence.load.sources.first { $0.spec.id == source }?.geoJSON?.feature(id: id)
    }

    /// Whether `state` holds now.
    public func isInState(_ state: State) -> Bool { machine.isInState(state) }

    /// Whether the map is offline.
    public var isOffline: Bool { machine.pipeline.isOffline }

    // MARK: - API

    /// Loads the style at `uri` (`file://`, `asset://`, `http(s)://` or `mapbox://styles/...`).
    public func setStyleURI(_ uri: String) { feed(.setStyleURL(uri)) }

    /// Loads a style from its JSON text; relative URLs in it resolve against `baseURL`.
    public func setStyleJSON(_ json: String, baseURL: String? = nil) { feed(.setStyleJSON(Array(json.utf8), baseURL: baseURL)) }

    /// Moves the camera at once (camera-changed). Fields the options leave nil keep their value; fields
    /// never set through the API take the style's default camera when a style loads.
    public func setCamera(_ options: CameraOptions) { feed(.setCamera(options)) }

    /// Resizes the view (camera-changed).
    public func setViewport(_ viewport: Viewport) { feed(.setViewport(viewport)) }

    /// Adds a source at run time (source-added, then its metadata loads).
    public func addSource(_ source: StyleSource) throws(LoadingError) {
        execute(try machine.addSource(source, at: scheduler.now))
    }

    /// Removes a source no layer uses (source-removed; its requests are cancelled).
    public func removeSource(id: String) throws(LoadingError) {
        execute(try machine.removeSource(id: id, at: scheduler.now))
    }

    /// Adds an image at run time, as `Style.addStyleImage` does in the SDKs; when no rendered symbol
    /// uses it any more, style-image-remove-unused fires.
    public func addStyleImage(id: String) { feed(.addImage(id)) }

    /// Changes features of the GeoJSON source `id` by their ids, as MapLibre's `GeoJSONSource.updateData`:
    /// move them, set or remove properties, remove or add features. The map applies the change as a
    /// worker would, 1 ms plus 1 µs per feature later, then reports source-data-loaded
    /// `{type: metadata, data-id}` and lays the touched tiles out again, so data-driven layers
    /// re-evaluate. Changes made while one is being applied are merged into the next.
    public func updateGeoJSONSource(id: String, diff: GeoJSONSourceDiff, dataID: String? = nil) throws(LoadingError) {
        execute(try machine.updateGeoJSONSource(id: id, diff: diff, dataID: dataID, at: scheduler.now))
    }

    /// Sends a live-data event into the map's event stream at the current time, for the live-data
    /// components attached to the map, so every observer sees one ordered stream.
    public func report(_ event: LiveEvent) {
        dispatchNow(.live(event))
    }

    /// Sends live-data events into the map's event stream at the current time, in order.
    public func report(_ events: [LiveEvent]) {
        for event in events { report(event) }
    }

    /// Sends a content event of the site's data manager into the map's event stream at the current time.
    public func report(_ event: ContentEvent) {
        dispatchNow(.content(event))
    }

    /// Sends dynamic-entity events into the map's event stream at the current time, in order.
    public func report(_ events: [DynamicEntityEvent]) {
        for event in events { dispatchNow(.dynamicEntity(event)) }
    }

    /// Sends an event of a component attached to the map, as an instant now.
    private func dispatchNow(_ payload: MapEventPayload) {
        dispatcher.dispatch(MapEvent(begin: scheduler.now, end: scheduler.now, payload: payload))
    }

    /// Goes offline (network requests fail at once with `in-offline-mode` and wait) or back online
    /// (requests whose last failure was a connection or offline failure restart).
    public func setOffline(_ offline: Bool) { feed(.setOffline(offline)) }

    // MARK: - Running

    /// Runs until `state` holds, the style fails, or `timeout` of virtual time passes.
    public func run(until state: State, timeout: SimTime) async -> RunOutcome {
        let deadline = scheduler.now + timeout
        while true {
            if case .failed(let message) = machine.sequence.phase { return .styleFailed(message) }
            if isInState(state) { return .reached(scheduler.now) }
            if await !step(notAfter: deadline) {
                let nothingPending = scheduler.isEmpty && loads.isEmpty
                scheduler.advance(to: deadline)
                return .timedOut(at: deadline, nothingPending: nothingPending)
            }
        }
    }

    /// Loads `resources` through the map's loading pipeline — its network, faults, retry rules and
    /// offline mode, and its cache as each resource's loading method and storage policy say — for a
    /// component attached to the map, such as a data manager; their resource-request events are in
    /// the map's stream. Runs the map's clock until each has its first answer (a failure ends the
    /// request: nothing is retried), or `timeout` passes, which answers the rest with a failure.
    public func fetch(_ resources: [Resource], timeout: SimTime) async -> [Response] {
        var ids: [RequestID] = []
        for resource in resources {
            let (id, actions) = machine.fetch(resource, at: scheduler.now)
            ids.append(id)
            execute(actions)
        }
        let deadline = scheduler.now + timeout
        while ids.contains(where: { fetchAnswers[$0] == nil }) {
            if await !step(notAfter: deadline) {
                scheduler.advance(to: deadline)
                break
            }
        }
        return ids.map { id in
            if let answer = fetchAnswers.removeValue(forKey: id) { return answer }
            execute(machine.cancelFetch(id, at: scheduler.now))
            return .failure(.connection, "no answer within \(timeout)", source: .network)
        }
    }

    /// Runs everything due in the next `duration` of virtual time, then sets the clock to its end.
    public func advance(by duration: SimTime) async {
        let deadline = scheduler.now + duration
        while await step(notAfter: deadline) {}
        scheduler.advance(to: deadline)
    }

    /// Schedules the delivery of every finished load, then feeds the earliest due input.
    private func step(notAfter limit: SimTime) async -> Bool {
        await scheduleAnswers()
        guard let (_, input) = scheduler.popNext(notAfter: limit) else { return false }
        if case .answer(_, let attempt, _, _) = input, loads.removeValue(forKey: attempt) == nil { return true }
        feed(input)
        return true
    }

    /// Waits for every started load, in attempt order, and schedules its answer at the time the
    /// delivery model gives — never at the time the real load took.
    private func scheduleAnswers() async {
        let started = unscheduled
        unscheduled = []
        for attempt in started {
            guard let task = loads[attempt]?.task else { continue }
            let (response, elapsed) = await task.value
            guard let load = loads[attempt] else { continue }
            let measured = SimTime(elapsed)
            let delay = load.backend == .cache ? .zero : timing.delay(for: load.resource, response: response, measured: measured)
            scheduler.schedule(.answer(load.request, attempt, response, from: load.backend), at: max(load.start + delay, scheduler.now))
        }
    }

    // MARK: - Executing

    private func feed(_ input: MapInput) {
        execute(machine.handle(input, at: scheduler.now))
    }

    /// Runs what the machine asked for; nothing here feeds the machine again.
    private func execute(_ actions: [MapAction]) {
        let now = scheduler.now
        for action in actions {
            switch action {
            case .load(let request, let attempt, let backend, var resource):
                if backend == .network { resource.issued = machine.pipeline.wallClock(at: now) }
                let load = backends.loader(for: backend, resource: resource)
                let task = Task {
                    let clock = ContinuousClock()
                    let started = clock.now
                    let response = await load()
                    return (response, clock.now - started)
                }
                loads[attempt] = LoadTask(request: request, backend: backend, resource: resource, start: now, task: task)
                unscheduled.append(attempt)
            case .cancelLoad(let attempt):
                loads.removeValue(forKey: attempt)?.task.cancel()
                scheduler.removeAll { if case .answer(_, attempt, _, _) = $0 { true } else { false } }
            case .store(let resource, let response):
                backends.cache?.store(resource, response)
            case .refreshCache(let resource, let response):
                backends.cache?.refresh(resource, response)
            case .scheduleTimer(let id, let time):
                scheduler.schedule(.timer(id), at: time)
            case .scheduleGeoJSONUpdate(let source, let token, let time):
                scheduler.schedule(.geoJSONUpdateParsed(source: source, token: token), at: time)
            case .scheduleFrame(let time):
                scheduler.schedule(.frame, at: time)
            case .emit(let payload, let begin):
                dispatcher.dispatch(MapEvent(begin: begin ?? now, end: now, payload: payload))
            case .fetched(let id, let response):
                fetchAnswers[id] = response
            case .request, .cancelRequest, .deliver, .invalidate:
                preconditionFailure("MapMachine routes \(action) to its machines; it never reaches the actor")
            }
        }
    }
}
