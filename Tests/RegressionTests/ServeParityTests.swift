import Foundation
import Synchronization
import Testing
import MapSimJSON
import MapSimServe
import MapSimStyle
import MapSimTesting
@testable import MapSim
@testable import MapSimHTTP

/// What `mapsim serve` records of a real MapLibre Native is what it records of mapsim. Each file of
/// styles/differential/FIXTURE/serve/ holds the requests `mapsim serve` recorded while MapLibre Native
/// (pymgl, still mode) rendered the fixture at one camera under one set of network conditions —
/// none, a 3G profile with slow tiles, every glyph range, tile or sprite part answered 503 once (recorded
/// by scripts/record-mln-through-serve). Here the fixture is served in-process under the same
/// conditions and mapsim loads it in still mode at the same camera: the server must record the same
/// requests (kind, path, status), the map must fail exactly when MapLibre Native did not render, and
/// without faults the map's own events — and those of a load of the style file on the simulated
/// network — name the same resources.
@Suite("mapsim serve parity with MapLibre Native", .serialized)
struct ServeParityTests {
    static let root = DifferentialRecording.root
    static let recordings = DifferentialRecording.all(in: "serve")

    @Test func everyCameraIsRecordedUnderEveryCondition() throws {
        try DifferentialRecording.expectEveryCameraUnderEveryCondition(Self.recordings)
    }

    @Test(arguments: recordings)
    func serveRecordsOfMapsimWhatItRecordedOfMapLibreNative(_ recording: DifferentialRecording) async throws {
        let golden = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: recording.file))))
        let camera = golden["camera"] ?? .null
        let expected = (golden["requests"]?.arrayValue ?? []).compactMap(\.stringValue)
        let rendered = golden["rendered"] == .bool(true)
        let arguments = (golden["serve-arguments"]?.arrayValue ?? []).compactMap(\.stringValue)

        let recorded = Mutex<[MapEvent]>([])
        let server = try await StyleServer.start(.init(style: "\(Self.root)/\(recording.fixture)/style.json", port: 0,
                                                       conditions: try Self.conditions(arguments))) { event in
            recorded.withLock { $0.append(event) }
        }
        let network = HTTPResourceLoader()
        let map = await DifferentialRecording.stillMap(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), cache: nil, network: network), camera: camera)
        let mapEvents = Mutex<[MapEvent]>([])
        let subscription = map.subscribeAll { event in mapEvents.withLock { $0.append(event) } }
        await map.setStyleURI(server.baseURL + "style.json")
        let outcome = await map.run(until: .mapIdle, timeout: .seconds(120))
        subscription.cancel()
        try await network.shutdown()
        // Stopping finishes the answers in flight, so every request the map sent is recorded.
        await server.stop()

        let origin = server.baseURL
        let served = recorded.withLock { $0 }.compactMap { event -> String? in
            guard case .resourceRequest(let request) = event.payload else { return nil }
            return "\(request.request.kind.rawValue) /\(request.request.url.dropFirst(origin.count)) \(Self.status(request.response))"
        }.sorted()
        switch outcome {
        case .reached: #expect(rendered, "mapsim drew what MapLibre Native could not: \(golden["error"]?.stringValue ?? "")")
        case .styleFailed(let message): #expect(!rendered, "mapsim failed where MapLibre Native rendered: \(message)")
        case .timedOut: Issue.record("the map does not go idle: \(outcome)")
        }
        if rendered {
            #expect(DifferentialRecording.difference(expected, served).isEmpty && DifferentialRecording.difference(served, expected).isEmpty,
                    "requested only by MapLibre Native: \(DifferentialRecording.difference(expected, served)); only by mapsim: \(DifferentialRecording.difference(served, expected))")
        } else {
            // A still image fails at the first failed answer; which requests were already on their
            // way by then is a race in either engine (seen: MapLibre Native sent 9 raster tiles of
            // a zoom, mapsim 7). So: nothing MapLibre Native would not ask for without the fault, and
            // a failed answer of the kind MapLibre Native failed on.
            let plain = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: recording.file.replacingOccurrences(
                of: ".\(golden["conditions"]?.stringValue ?? "").json", with: ".plain.json")))))
            let possible = (plain["requests"]?.arrayValue ?? []).compactMap(\.stringValue).map(Self.resource)
            #expect(DifferentialRecording.difference(served.map(Self.resource), possible).isEmpty, "requests MapLibre Native never makes: \(DifferentialRecording.difference(served.map(Self.resource), possible))")
            let failedKinds = Set(expected.filter { $0.hasSuffix(" 503") }.map { $0.prefix { $0 != " " } })
            #expect(!failedKinds.isEmpty && served.contains { $0.hasSuffix(" 503") && failedKinds.contains($0.prefix { $0 != " " }) }, "the failed answers: \(served)")
        }

        guard arguments.isEmpty else { return }
        // Without faults, the map's own events name what the server recorded, and so does a load
        // of the style file itself on the simulated network.
        let resources = expected.map(Self.resource).sorted()
        #expect(Self.requested(mapEvents.withLock { $0 }, origin: origin) == resources, "the map's own resource-request events")
        let simulated = await Self.simulatedLoad(fixture: recording.fixture, camera: camera)
        #expect(simulated == resources.map(Self.decoded), "a load of the style file on the simulated network")
    }

    /// The conditions a recording's serve arguments give.
    static func conditions(_ arguments: [String]) throws -> ServeConditions {
        var profile: NetworkPreset?
        var seed: UInt64 = 0
        var faults: [FaultRule] = []
        var index = 0
        while index + 1 < arguments.count {
            let value = arguments[index + 1]
            switch arguments[index] {
            case "--network": profile = NetworkPreset(rawValue: value)
            case "--seed": seed = UInt64(value) ?? 0
            case "--fault": faults.append(try #require(FaultRule(commandLine: value)))
            default: Issue.record("an argument the test does not know: \(arguments[index])")
            }
            index += 2
        }
        return ServeConditions(profile: profile?.profile(seed: seed), faults: faults)
    }

    /// The style file loaded from disk in still mode: its resources as `KIND /PATH` below the fixture, percent-decoded.
    static func simulatedLoad(fixture: String, camera: JSONValue) async -> [String] {
        let folder = URL(fileURLWithPath: "\(root)/\(fixture)").standardizedFileURL.path
        let map = await DifferentialRecording.stillMap(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), cache: nil, network: nil), camera: camera)
        let events = Mutex<[MapEvent]>([])
        let subscription = map.subscribeAll { event in events.withLock { $0.append(event) } }
        await map.setStyleURI("file://\(folder)/style.json")
        _ = await map.run(until: .mapIdle, timeout: .seconds(120))
        subscription.cancel()
        return requested(events.withLock { $0 }, origin: "file://\(folder)/").map(decoded).sorted()
    }

    /// The resources a map's events name, as `KIND /PATH` below `origin`, cancelled ones left out.
    static func requested(_ events: [MapEvent], origin: String) -> [String] {
        events.compactMap { event -> String? in
            guard case .resourceRequest(let request) = event.payload, !request.cancelled else { return nil }
            let url = request.request.url
            return "\(request.request.kind.rawValue) /\(url.hasPrefix(origin) ? String(url.dropFirst(origin.count)) : url)"
        }.sorted()
    }

    /// `KIND /PATH` of a recorded `KIND /PATH STATUS`.
    static func resource(_ line: String) -> String { line.split(separator: " ").dropLast().joined(separator: " ") }

    static func decoded(_ line: String) -> String { line.removingPercentEncoding ?? line }

    /// A response as the recordings write it: its HTTP status, or the reason of a failure without one.
    static func status(_ response: Response?) -> String {
        guard let response else { return "none" }
        if let error = response.error {
            return error.message.hasPrefix("HTTP ") ? String(error.message.dropFirst(5).prefix(3)) : error.reason.rawValue
        }
        return response.notModified ? "304" : "200"
    }
}
