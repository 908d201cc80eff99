import Foundation
import MapSimTesting
@testable import MapSim
@testable import MapSimStyle

/// Drives `MapMachine` — the pure load sequence, pipeline and render model — with a scheduler of its
/// own and canned answers, as the `Map` actor would but with no task and no file: answers come
/// from the sample style's folder served at `https://h/`, after 10 ms, unless a test overrides them.
struct MachineDriver {
    static let base = "https://h/"
    private(set) var machine: MapMachine
    private var scheduler = Scheduler<MapInput>()
    /// Answers by path below `https://h/`, replacing the sample's files.
    var overrides: [String: Response] = [:]
    private(set) var events: [MapEvent] = []
    private(set) var loads: [Resource] = []
    /// First answers to fetches, by request.
    private(set) var fetched: [RequestID: Response] = [:]

    init(camera: Camera = Camera(center: LngLat(longitude: -122.5, latitude: 37.8), zoom: 10)) {
        machine = MapMachine(camera: camera, viewport: Viewport(width: 512, height: 512), options: LoadSequence.Options(),
                             pipeline: RequestPipeline.Configuration())
    }

    /// Loads a style given as JSON text, at `https://h/style.json`.
    mutating func load(_ style: String) {
        feed(.setStyleJSON(Array(style.utf8), baseURL: Self.base + "style.json"))
    }

    /// Feeds `input` now and executes what comes back.
    mutating func feed(_ input: MapInput) {
        execute(machine.handle(input, at: scheduler.now))
    }

    /// Adds a source at run time.
    mutating func addSource(_ source: StyleSource) throws(LoadingError) {
        execute(try machine.addSource(source, at: scheduler.now))
    }

    /// Fetches a resource for a component attached to the map.
    mutating func fetch(_ resource: Resource) -> RequestID {
        let (id, actions) = machine.fetch(resource, at: scheduler.now)
        execute(actions)
        return id
    }

    /// Removes a source at run time.
    mutating func removeSource(id: String) throws(LoadingError) {
        execute(try machine.removeSource(id: id, at: scheduler.now))
    }

    private mutating func execute(_ actions: [MapAction]) {
        for action in actions {
            switch action {
            case .load(let request, let attempt, let backend, let resource):
                loads.append(resource)
                scheduler.schedule(.answer(request, attempt, answer(resource.url), from: backend), at: scheduler.now + .milliseconds(10))
            case .cancelLoad(let attempt):
                scheduler.removeAll { if case .answer(_, attempt, _, _) = $0 { true } else { false } }
            case .scheduleTimer(let id, let time):
                scheduler.schedule(.timer(id), at: time)
            case .scheduleFrame(let time):
                scheduler.schedule(.frame, at: time)
            case .scheduleGeoJSONUpdate(let source, let token, let time):
                scheduler.schedule(.geoJSONUpdateParsed(source: source, token: token), at: time)
            case .emit(let payload, let begin):
                events.append(MapEvent(begin: begin ?? scheduler.now, end: scheduler.now, payload: payload))
            case .fetched(let id, let response):
                fetched[id] = response
            case .store, .refreshCache, .request, .cancelRequest, .deliver, .invalidate:
                continue
            }
        }
    }

    /// Runs every input due within `duration`.
    mutating func run(for duration: SimTime = .seconds(10)) {
        let end = scheduler.now + duration
        while let (_, input) = scheduler.popNext(notAfter: end) { feed(input) }
    }

    private func answer(_ url: String) -> Response {
        let path = String(url.dropFirst(Self.base.count)).removingPercentEncoding ?? ""
        if let override = overrides[path] { return override }
        guard url.hasPrefix(Self.base), let data = FileManager.default.contents(atPath: SampleStyle.folder + "/" + path) else {
            return .failure(.notFound, "no file for \(url)", source: .network)
        }
        return .success([UInt8](data), source: .network)
    }

    /// The milestones and errors, in order, one line each (requests and frames left out).
    var milestones: [String] {
        events.compactMap { event in
            switch event.payload {
            case .resourceRequest, .renderFrameStarted, .renderFrameFinished: nil
            case .styleDataLoaded(let data): "style-data-loaded \(data.type.rawValue)"
            case .sourceDataLoaded(let data): "source-data-loaded \(data.id) \(data.type.rawValue)" + (data.tileID.map { " \($0)" } ?? "")
            case .mapLoadingError(let error): "map-loading-error \(error.type.rawValue)" + (error.sourceID.map { " \($0)" } ?? "")
                + (error.tileID.map { " \($0)" } ?? "")
            case .styleImageMissing(let id): "style-image-missing \(id)"
            default: event.type.rawValue
            }
        }
    }

    /// The render-frame-finished payloads, in order.
    var frames: [RenderFrameFinished] {
        events.compactMap { MapEvents.renderFrameFinished.payload(in: $0.payload) }
    }
}
