import Foundation
import MapSimTesting
@testable import MapSim
@testable import MapSimStyle

/// Drives `MapMachine` — the pure load sequence, pipeline and render model — through the same
/// `DriveLoop` the `Map` actor uses, with canned answers instead of tasks and files: answers come
/// from the sample style's folder served at `https://h/`, 10 ms after their request, unless a test
/// overrides them.
final class MachineDriver {
    static let base = "https://h/"
    private let loop: DriveLoop<MapMachine, CannedLoads>
    private let canned: CannedLoads
    private(set) var events: [MapEvent] = []
    private(set) var outputs: [MapOutput] = []
    /// First answers to fetches, by fetch.
    private(set) var fetched: [FetchToken: Response] = [:]
    private var nextFetch = 0

    init(camera: Camera = Camera(center: LngLat(longitude: -122.5, latitude: 37.8), zoom: 10), options: Map.Options = Map.Options()) {
        canned = CannedLoads { resource in Self.answer(resource.url) }
        loop = DriveLoop(machine: MapMachine(camera: camera, viewport: Viewport(width: 512, height: 512), options: options),
                         loads: canned, timing: FixedLatency(.milliseconds(10)))
        feed(.start)
    }

    /// Every load the loop started, in order.
    var loads: [Resource] { canned.started }

    /// The machine, to read its state.
    var machine: MapMachine { loop.machine }

    /// Answers by path below `https://h/`, replacing the sample's files.
    var overrides: [String: Response] {
        get { Dictionary(uniqueKeysWithValues: canned.overrides.map { (String($0.key.dropFirst(Self.base.count)), $0.value) }) }
        set { canned.overrides = Dictionary(uniqueKeysWithValues: newValue.map { (Self.base + $0.key, $0.value) }) }
    }

    /// Loads a style given as JSON text, at `https://h/style.json`.
    func load(_ style: String) {
        feed(.setStyleJSON(Array(style.utf8), baseURL: Self.base + "style.json"))
    }

    /// Feeds `input` now; records what the loop hands out.
    func feed(_ input: MapInput) {
        loop.feed(input, perform: record)
    }

    /// Fetches a resource for a component attached to the map.
    func fetch(_ resource: Resource, timeout: SimTime = .seconds(120)) -> FetchToken {
        let token = FetchToken(value: nextFetch)
        nextFetch += 1
        feed(.fetch(token, resource, timeout: timeout))
        return token
    }

    /// Adds a source at run time.
    func addSource(_ source: StyleSource) throws(LoadingError) {
        try call(.addSource(source))
    }

    /// Removes a source at run time.
    func removeSource(id: String) throws(LoadingError) {
        try call(.removeSource(id))
    }

    /// Feeds an API call and throws its refusal, as the `Map` actor does.
    private func call(_ input: MapInput) throws(LoadingError) {
        let before = outputs.count
        feed(input)
        for case .refused(let error) in outputs[before...] { throw error }
    }

    /// Runs every input due within `duration`.
    func run(for duration: SimTime = .seconds(10)) async {
        await loop.run(until: loop.now + duration, perform: record)
    }

    private func record(_ output: MapOutput) {
        outputs.append(output)
        switch output {
        case .emit(let payload, let begin):
            events.append(MapEvent(begin: begin ?? loop.now, end: loop.now, payload: payload))
        case .fetched(let token, let response):
            fetched[token] = response
        case .store, .refreshCache, .refused:
            break
        }
    }

    private static func answer(_ url: String) -> Response {
        let path = String(url.dropFirst(base.count)).removingPercentEncoding ?? ""
        guard url.hasPrefix(base), let data = FileManager.default.contents(atPath: SampleStyle.folder + "/" + path) else {
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
