import MapSimStyle

/// A headless map: it loads a style the way a Mapbox/MapLibre map does and reports every step as an event.
///
/// The map runs on a virtual clock. Nothing happens between calls: `run(until:timeout:)` and
/// `advance(by:)` move time forward, executing responses and frames in (time, order) sequence.
/// Real loads run as tasks, but their delivery time is decided by `DeliveryTiming`, so the same
/// inputs give the same event stream on every run.
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

    /// Map options.
    public struct Options: Sendable {
        /// How `mapbox://` URLs are normalized.
        public var mapbox: MapboxURL
        /// The fade-in of newly placed symbols (300 ms in the SDKs).
        public var symbolFadeDuration: SimTime
        /// The most network requests in flight at once (20 in the SDKs).
        public var maximumConcurrentRequests: Int
        /// The wall-clock time at virtual time zero, for expiry, Retry-After and cache dates.
        public var wallClockStart: HTTPDate

        /// Options with the SDK defaults.
        public init(mapbox: MapboxURL = MapboxURL(), symbolFadeDuration: SimTime = .milliseconds(300),
                    maximumConcurrentRequests: Int = 20, wallClockStart: HTTPDate = HTTPDate(secondsSince1970: 1_767_225_600)) {
            self.mapbox = mapbox
            self.symbolFadeDuration = symbolFadeDuration
            self.maximumConcurrentRequests = maximumConcurrentRequests
            self.wallClockStart = wallClockStart
        }
    }

    private enum TimedAction: Sendable {
        case answer(AttemptID, Response)
        case timer(RequestID)
        case frame
        case connectivity(offline: Bool)
    }

    private struct InFlight {
        var request: RequestID
        var backend: RequestPipeline.Backend
        var resource: Resource
        var start: SimTime
        var task: Task<(Response, Duration), Never>
        var answerScheduled = false
    }

    private var sequence: LoadSequence
    private var pipeline: RequestPipeline
    private var render = RenderModel()
    private var scheduler = Scheduler<TimedAction>()
    private var inFlight: [AttemptID: InFlight] = [:]
    private var requested: [RequestID: (resource: Resource, start: SimTime)] = [:]
    private var inFrame = false
    /// The attempt whose answer is being processed: when it started (a resource-request begins then)
    /// and the request as it was sent (revalidations go at low priority with prior data).
    private var answering: (attempt: AttemptID, start: SimTime, resource: Resource)?
    private let backends: ResourceBackends
    private var timing: any DeliveryTiming
    private let dispatcher = EventDispatcher()

    /// A map that loads through `backends`, looking at `camera` through `viewport`.
    public init(backends: ResourceBackends, camera: Camera = Camera(center: LngLat(longitude: 0, latitude: 0), zoom: 0),
                viewport: Viewport = Viewport(width: 512, height: 512), options: Options = Options(),
                timing: any DeliveryTiming = ImmediateDelivery()) {
        self.backends = backends
        self.timing = timing
        pipeline = RequestPipeline(configuration: .init(maximumConcurrentRequests: options.maximumConcurrentRequests,
                                                        usesCache: backends.cache != nil, wallClockStart: options.wallClockStart))
        sequence = LoadSequence(camera: camera, viewport: viewport,
                                options: LoadSequence.Options(mapbox: options.mapbox, symbolFadeDuration: options.symbolFadeDuration))
        for window in timing.offlineWindows where !window.isEmpty {
            if window.lowerBound <= .zero {
                pipeline.setOffline(true, at: .zero)
            } else {
                scheduler.schedule(.connectivity(offline: true), at: window.lowerBound)
            }
            scheduler.schedule(.connectivity(offline: false), at: window.upperBound)
        }
    }

    /// A map that loads every URL through one `loader` (files and network alike), without a cache.
    public init(loader: any ResourceLoader, camera: Camera = Camera(center: LngLat(longitude: 0, latitude: 0), zoom: 0),
                viewport: Viewport = Viewport(width: 512, height: 512), options: Options = Options(),
                timing: any DeliveryTiming = ImmediateDelivery()) {
        self.init(backends: ResourceBackends(file: loader, network: loader), camera: camera, viewport: viewport, options: options, timing: timing)
    }

    deinit {
        for attempt in inFlight.values { attempt.task.cancel() }
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

    /// The camera as set (the map applies it constrained to the view).
    public var camera: Camera { sequence.camera }

    /// The view size and pixel ratio.
    public var viewport: Viewport { sequence.viewport }

    /// The parsed style, once loaded.
    public var style: Style? { sequence.style }

    /// The names of the images in the style's sprite sheets, once they are loaded (`id:` prefixed for
    /// sheets other than `default`).
    public var spriteImageNames: Set<String> { sequence.spriteImageNames }

    /// Whether `state` holds now.
    public func isInState(_ state: State) -> Bool {
        switch state {
        case .styleLoaded: sequence.isStyleLoaded
        case .mapLoaded: render.hasFiredMapLoaded
        case .mapIdle: render.isIdle
        }
    }

    // MARK: - API

    /// Loads the style at `uri` (`file://`, `asset://`, `http(s)://` or `mapbox://styles/...`).
    public func setStyleURI(_ uri: String) {
        render.styleChanged()
        sequence.setStyleURL(uri)
        perform(sequence.takeActions())
    }

    /// Loads a style from its JSON text; relative URLs in it resolve against `baseURL`.
    public func setStyleJSON(_ json: String, baseURL: String? = nil) {
        render.styleChanged()
        sequence.setStyleJSON(Array(json.utf8), baseURL: baseURL)
        perform(sequence.takeActions())
    }

    /// Moves the camera at once (camera-changed). Fields the options leave nil keep their value; fields
    /// never set through the API take the style's default camera when a style loads.
    public func setCamera(_ options: CameraOptions) {
        sequence.setCamera(options)
        perform(sequence.takeActions())
    }

    /// Resizes the view (camera-changed).
    public func setViewport(_ viewport: Viewport) {
        sequence.setViewport(viewport)
        perform(sequence.takeActions())
    }

    /// Adds a source at run time (source-added, then its metadata loads).
    public func addSource(_ source: StyleSource) throws(MapError) {
        try sequence.addSource(source)
        perform(sequence.takeActions())
    }

    /// Removes a source no layer uses (source-removed; its requests are cancelled).
    public func removeSource(id: String) throws(MapError) {
        try sequence.removeSource(id: id)
        perform(sequence.takeActions())
    }

    /// Adds an image at run time, as `Style.addStyleImage` does in the SDKs; when no rendered symbol
    /// uses it any more, style-image-remove-unused fires.
    public func addStyleImage(id: String) {
        sequence.addImage(id: id)
        perform(sequence.takeActions())
    }

    /// Goes offline (network requests fail at once with `in-offline-mode` and wait) or back online
    /// (requests whose last failure was a connection or offline failure restart).
    public func setOffline(_ offline: Bool) {
        guard offline != pipeline.isOffline else { return }
        pipeline.setOffline(offline, at: scheduler.now)
        performPipeline()
        // Reconnecting restarts requests: the map is busy again until they settle.
        if !offline, let time = render.invalidate(at: scheduler.now) {
            scheduler.schedule(.frame, at: time)
        }
    }

    /// Whether the map is offline.
    public var isOffline: Bool { pipeline.isOffline }

    // MARK: - Running

    /// Runs until `state` holds, the style fails, or `timeout` of virtual time passes.
    public func run(until state: State, timeout: SimTime) async -> RunOutcome {
        let deadline = scheduler.now + timeout
        while true {
            if case .failed(let message) = sequence.phase { return .styleFailed(message) }
            if isInState(state) { return .reached(scheduler.now) }
            if await !step(notAfter: deadline) {
                let nothingPending = scheduler.isEmpty && inFlight.isEmpty
                scheduler.advance(to: deadline)
                return .timedOut(at: deadline, nothingPending: nothingPending)
            }
        }
    }

    /// Runs everything due in the next `duration` of virtual time, then sets the clock to its end.
    public func advance(by duration: SimTime) async {
        let deadline = scheduler.now + duration
        while await step(notAfter: deadline) {}
        scheduler.advance(to: deadline)
    }

    /// Schedules the delivery of every finished load, then runs the earliest due action.
    private func step(notAfter limit: SimTime) async -> Bool {
        await scheduleAnswers()
        guard let (_, action) = scheduler.popNext(notAfter: limit) else { return false }
        switch action {
        case .answer(let attempt, let response):
            guard let load = inFlight.removeValue(forKey: attempt) else { break }
            answering = (attempt, load.start, load.resource)
            pipeline.answer(response, for: load.request, attempt: attempt, from: load.backend, at: scheduler.now)
            performPipeline()
            answering = nil
        case .timer(let id):
            pipeline.timerFired(for: id, at: scheduler.now)
            performPipeline()
        case .frame:
            renderFrame()
        case .connectivity(let offline):
            setOffline(offline)
        }
        return true
    }

    /// Waits for every started load, in attempt order, and schedules its answer at the time the
    /// delivery model gives — never at the time the real load took.
    private func scheduleAnswers() async {
        for attempt in inFlight.keys.sorted() where inFlight[attempt]?.answerScheduled == false {
            guard let task = inFlight[attempt]?.task else { continue }
            let (response, elapsed) = await task.value
            guard let load = inFlight[attempt], !load.answerScheduled else { continue }
            inFlight[attempt]?.answerScheduled = true
            let measured = SimTime(microseconds: elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000)
            let delay = load.backend == .cache ? .zero : timing.delay(for: load.resource, response: response, measured: measured)
            scheduler.schedule(.answer(attempt, response), at: max(load.start + delay, scheduler.now))
        }
    }

    private func renderFrame() {
        let now = scheduler.now
        render.beginFrame(at: now)
        inFrame = true
        sequence.updateTiles()
        perform(sequence.takeActions())
        emit(.renderFrameStarted)
        let state = sequence.renderFrame(at: now)
        perform(sequence.takeActions())
        inFrame = false
        let outcome = render.finishFrame(at: now, state: state)
        emit(.renderFrameFinished(outcome.finished))
        for payload in outcome.followUps { emit(payload) }
        if let next = outcome.nextFrame { scheduler.schedule(.frame, at: next) }
    }

    /// Executes what the load sequence asked for.
    private func perform(_ actions: [LoadAction]) {
        for action in actions {
            switch action {
            case .startRequest(let id, let resource):
                requested[id] = (resource, scheduler.now)
                pipeline.request(id, resource, at: scheduler.now)
                performPipeline()
            case .cancelRequest(let id):
                guard let request = requested.removeValue(forKey: id) else { continue }
                pipeline.cancel(id)
                performPipeline()
                emit(.resourceRequest(ResourceRequest(dataSource: .resourceLoader, request: request.resource, response: nil, cancelled: true)),
                     begin: request.start)
            case .emit(let payload):
                emit(payload)
            case .invalidate:
                if !inFrame, let time = render.invalidate(at: scheduler.now) {
                    scheduler.schedule(.frame, at: time)
                }
            }
        }
    }

    /// Executes what the loading pipeline asked for.
    private func performPipeline() {
        for action in pipeline.takeActions() {
            switch action {
            case .load(let id, let attempt, let backend, let resource):
                start(resource, backend: backend, request: id, attempt: attempt)
            case .cancelLoad(let attempt):
                guard let load = inFlight.removeValue(forKey: attempt) else { continue }
                load.task.cancel()
                scheduler.removeAll { if case .answer(attempt, _) = $0 { true } else { false } }
            case .store(let resource, let response):
                backends.cache?.store(resource, response)
            case .refreshCache(let resource, let response):
                backends.cache?.refresh(resource, response)
            case .scheduleTimer(let id, let time):
                scheduler.schedule(.timer(id), at: time)
            case .deliver(let id, let response, let backend, let attempt, let final):
                guard let request = requested[id] else { continue }
                if final { requested[id] = nil }
                let current = answering.flatMap { $0.attempt == attempt ? $0 : nil }
                var sent = current?.resource ?? request.resource
                sent.issued = nil
                emit(.resourceRequest(ResourceRequest(dataSource: dataSource(backend, url: request.resource.url),
                                                      request: sent, response: response, cancelled: false)), begin: current?.start ?? scheduler.now)
                sequence.receive(response, for: id, final: final)
                perform(sequence.takeActions())
            }
        }
    }

    private func start(_ resource: Resource, backend: RequestPipeline.Backend, request: RequestID, attempt: AttemptID) {
        let load: @Sendable () async -> Response
        switch backend {
        case .file:
            let loader = backends.file
            load = { await loader.load(resource) }
        case .cache:
            guard let cache = backends.cache else { return }
            load = { await cache.load(resource) }
        case .network:
            if let network = backends.network, network.handles(resource.url) {
                var sent = resource
                sent.issued = pipeline.wallClock(at: scheduler.now)
                load = { [sent] in await network.load(sent) }
            } else {
                let scheme = URLResolver.scheme(of: resource.url).map { "\($0):// URLs" } ?? "relative URLs without a base URL"
                let response = Response.failure(.other, "mapsim cannot load \(resource.url): no backend for \(scheme)", source: .network)
                load = { response }
            }
        }
        let task = Task {
            let clock = ContinuousClock()
            let started = clock.now
            let response = await load()
            return (response, clock.now - started)
        }
        inFlight[attempt] = InFlight(request: request, backend: backend, resource: resource, start: scheduler.now, task: task)
    }

    private func dataSource(_ backend: RequestPipeline.Backend, url: String) -> DataSource {
        switch backend {
        case .file: backends.file.dataSource(for: url)
        case .cache: .database
        case .network: .network
        }
    }

    private func emit(_ payload: MapEventPayload, begin: SimTime? = nil) {
        dispatcher.dispatch(MapEvent(begin: begin ?? scheduler.now, end: scheduler.now, payload: payload))
    }
}
