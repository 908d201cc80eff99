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
        /// The timeout passed first; `idle` tells whether the map had nothing left to do.
        case timedOut(at: SimTime, nothingPending: Bool)
    }

    /// Map options.
    public struct Options: Sendable {
        /// How `mapbox://` URLs are normalized.
        public var mapbox: MapboxURL
        /// The fade-in of newly placed symbols (300 ms in the SDKs).
        public var symbolFadeDuration: SimTime

        /// Options with the SDK defaults.
        public init(mapbox: MapboxURL = MapboxURL(), symbolFadeDuration: SimTime = .milliseconds(300)) {
            self.mapbox = mapbox
            self.symbolFadeDuration = symbolFadeDuration
        }
    }

    private enum TimedAction: Sendable {
        case deliver(RequestID, Response)
        case frame
    }

    private struct InFlight {
        var resource: Resource
        var start: SimTime
        var task: Task<Response, Never>
        var deliveryScheduled = false
    }

    private var sequence: LoadSequence
    private var render = RenderModel()
    private var scheduler = Scheduler<TimedAction>()
    private var inFlight: [RequestID: InFlight] = [:]
    private var inFrame = false
    private let loader: any ResourceLoader
    private var timing: any DeliveryTiming
    private let dispatcher = EventDispatcher()

    /// A map that loads through `loader`, looking at `camera` through `viewport`.
    public init(loader: any ResourceLoader, camera: Camera = Camera(center: LngLat(longitude: 0, latitude: 0), zoom: 0),
                viewport: Viewport = Viewport(width: 512, height: 512), options: Options = Options(),
                timing: any DeliveryTiming = ImmediateDelivery()) {
        self.loader = loader
        self.timing = timing
        sequence = LoadSequence(camera: camera, viewport: viewport,
                                options: LoadSequence.Options(mapbox: options.mapbox, symbolFadeDuration: options.symbolFadeDuration))
    }

    deinit {
        for request in inFlight.values { request.task.cancel() }
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
        await scheduleDeliveries()
        guard let (_, action) = scheduler.popNext(notAfter: limit) else { return false }
        switch action {
        case .deliver(let id, let response): deliver(response, for: id)
        case .frame: renderFrame()
        }
        return true
    }

    /// Waits for every started load, in request order, and schedules its delivery time.
    private func scheduleDeliveries() async {
        for id in inFlight.keys.sorted() where inFlight[id]?.deliveryScheduled == false {
            guard let task = inFlight[id]?.task else { continue }
            let response = await task.value
            guard let request = inFlight[id], !request.deliveryScheduled else { continue }
            inFlight[id]?.deliveryScheduled = true
            let delay = timing.delay(for: request.resource, response: response)
            scheduler.schedule(.deliver(id, response), at: max(request.start + delay, scheduler.now))
        }
    }

    private func deliver(_ response: Response, for id: RequestID) {
        guard let request = inFlight.removeValue(forKey: id) else { return }
        emit(.resourceRequest(ResourceRequest(dataSource: dataSource(for: request.resource.url), request: request.resource,
                                              response: response, cancelled: false)), begin: request.start)
        sequence.receive(response, for: id)
        perform(sequence.takeActions())
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

    private func perform(_ actions: [LoadAction]) {
        for action in actions {
            switch action {
            case .startRequest(let id, let resource):
                start(resource, id: id)
            case .cancelRequest(let id):
                guard let request = inFlight.removeValue(forKey: id) else { continue }
                request.task.cancel()
                scheduler.removeAll { if case .deliver(id, _) = $0 { true } else { false } }
                emit(.resourceRequest(ResourceRequest(dataSource: dataSource(for: request.resource.url), request: request.resource,
                                                      response: nil, cancelled: true)), begin: request.start)
            case .emit(let payload):
                emit(payload)
            case .invalidate:
                if !inFrame, let time = render.invalidate(at: scheduler.now) {
                    scheduler.schedule(.frame, at: time)
                }
            }
        }
    }

    private func start(_ resource: Resource, id: RequestID) {
        let loader = self.loader
        let task: Task<Response, Never>
        if loader.handles(resource.url) {
            task = Task { await loader.load(resource) }
        } else {
            let scheme = URLResolver.scheme(of: resource.url).map { "\($0):// URLs" } ?? "relative URLs without a base URL"
            let response = Response.failure(.other, "mapsim cannot load \(resource.url): no backend for \(scheme)", source: .network)
            task = Task { response }
        }
        inFlight[id] = InFlight(resource: resource, start: scheduler.now, task: task)
    }

    private func dataSource(for url: String) -> DataSource {
        loader.handles(url) ? loader.dataSource(for: url) : .resourceLoader
    }

    private func emit(_ payload: MapEventPayload, begin: SimTime? = nil) {
        dispatcher.dispatch(MapEvent(begin: begin ?? scheduler.now, end: scheduler.now, payload: payload))
    }
}
