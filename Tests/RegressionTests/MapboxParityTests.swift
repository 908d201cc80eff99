import Foundation
import Synchronization
import Testing
import MapSimJSON
import MapSimServe
import MapSimTesting
@testable import MapSim
@testable import MapSimHTTP

/// A Mapbox-Standard-shaped style (styles/mapbox-standard: an import with config overrides, a schema,
/// slots, an import nested in the import, a model; scripts/generate-mapbox-example.py) as Mapbox GL
/// JS v3.0.1 loads it, and a second style on the same files (imports.json: a relative import with its
/// own sprite, an inline one, an import nested twice, an unknown slot, a filter on another import's
/// config). Each file of mapboxgl/ holds what `mapsim serve` recorded while Mapbox GL JS, in
/// headless Chromium, showed the style at one camera with its config settings, every mapbox:// URL
/// pointed at serve (scripts/record-gljs-through-serve --oracle mapboxgl). Here the style is served in
/// process and mapsim's `mapbox-gl-js` engine loads it with the same camera and config: serve must
/// record the same requests (kind, path, status), and the map go idle when Mapbox GL JS did.
///
/// Glyph requests are compared whole, owner included: Mapbox GL JS keeps one glyph cache per map,
/// keyed by font stack, and fetches a range from the glyphs URL of whichever style's tile asks first;
/// the root's tiles are laid out well after the imports' (`ImportRules.rootLayoutDelay`), so a range
/// the root shares with the basemap comes from the basemap's `mapbox://fonts/mapsim/`.
@Suite("mapsim serve parity with Mapbox GL JS v3.0.1: imports, config, slots", .serialized)
struct MapboxParityTests {
    static let folder = SampleStyle.stylesFolder + "/mapbox-standard"

    /// The differential fixtures (styles/differential: labels in many scripts, GeoJSON, a legacy
    /// style, missing rasters, world copies), recorded with Mapbox GL JS too.
    static let differential = SampleStyle.stylesFolder + "/differential"

    /// Every recording of a fixture folder, in order.
    static func recordings(of fixture: String, in folder: String) -> [DifferentialRecording] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/mapboxgl")) ?? []
        return files.filter { $0.hasSuffix(".json") }.sorted().map { DifferentialRecording(fixture: fixture, file: "\(folder)/mapboxgl/\($0)") }
    }

    /// Every recording: the Standard-shaped example's, then the differential fixtures'.
    static let recordings: [DifferentialRecording] = recordings(of: "mapbox-standard", in: folder)
        + ((try? FileManager.default.contentsOfDirectory(atPath: differential)) ?? []).sorted().flatMap { recordings(of: $0, in: "\(differential)/\($0)") }

    /// The folder of a recording's fixture.
    static func folder(of recording: DifferentialRecording) -> String {
        recording.fixture == "mapbox-standard" ? folder : "\(differential)/\(recording.fixture)"
    }

    @Test func everyCameraIsRecorded() throws {
        for fixture in Set(Self.recordings.map(\.fixture)) {
            let folder = Self.folder(of: DifferentialRecording(fixture: fixture, file: ""))
            let cameras = try JSONParser.parse(Array(Data(contentsOf: URL(fileURLWithPath: folder + "/cameras.json"))))
            #expect(Self.recordings.count { $0.fixture == fixture } == cameras.arrayValue?.count, "\(fixture)")
        }
        #expect(Set(Self.recordings.map(\.fixture)).count == 6)
    }

    @Test(arguments: recordings)
    func serveRecordsOfMapsimWhatItRecordedOfMapboxGLJS(_ recording: DifferentialRecording) async throws {
        let golden = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: recording.file))))
        let expected = (golden["requests"]?.arrayValue ?? []).compactMap(\.stringValue)
        let (loaded, outcome) = try await Self.load(camera: golden["camera"] ?? .null, folder: Self.folder(of: recording))
        let served = loaded
        if golden["idle"] == .bool(true) {
            guard case .reached = outcome else {
                Issue.record("Mapbox GL JS went idle, mapsim did not: \(outcome)")
                return
            }
        } else if case .reached = outcome {
            Issue.record("Mapbox GL JS never went idle, mapsim did")
        }
        #expect(DifferentialRecording.difference(expected, served).isEmpty && DifferentialRecording.difference(served, expected).isEmpty,
                "requested only by Mapbox GL JS: \(DifferentialRecording.difference(expected, served)); only by mapsim: \(DifferentialRecording.difference(served, expected))")
    }

    @Test func aConfigThatHidesLabelsAsksForNoGlyphsAndOneThatShowsThemDoes() async throws {
        let center: JSONValue = .array([.number(-122.42), .number(37.78)])
        let hidden: JSONValue = .object(JSONObject([("center", center), ("zoom", .number(11)),
                                                    ("config", .array([.string("basemap.showPlaceLabels=false"), .string("basemap.showRoadLabels=false")]))]))
        let (withoutPlaces, _) = try await Self.load(camera: hidden)
        let (withPlaces, _) = try await Self.load(camera: .object(JSONObject([("center", center), ("zoom", .number(11))])))
        // The stores' names (the root's) still need their glyphs; the places' need more of them.
        #expect(withPlaces.count { $0.contains("/fonts/") } >= withoutPlaces.count { $0.contains("/fonts/") })
        #expect(withPlaces.contains { $0.hasPrefix("style /style.json") } && withPlaces.contains { $0.contains("/styles/v1/mapsim/landmarks") },
                "the nested import is loaded: \(withPlaces)")
    }

    /// What serve records while mapsim's Mapbox GL JS engine loads the example at `camera` (its
    /// `config` list set first, as `--config` sets it; the style file its `style` names, else
    /// style.json), sorted as the recordings are, and how the load ended.
    static func load(camera: JSONValue, folder: String = folder) async throws -> ([String], Map.RunOutcome) {
        let recorded = Mutex<[MapEvent]>([])
        let style = camera["style"]?.stringValue ?? "style.json"
        let server = try await StyleServer.start(.init(style: "\(folder)/\(style)", port: 0)) { event in
            recorded.withLock { $0.append(event) }
        }
        let network = HTTPResourceLoader()
        let origin = String(server.baseURL.dropLast())
        var options = Map.Options(mapbox: MapboxURL(baseURL: origin, accessToken: "pk.test"),
                                  loading: .init(maximumConcurrentRequests: Engine.mapboxGLJS.requests.maximumConcurrentRequests), engine: .mapboxGLJS)
        options.loading.wallClock = .today()
        let map = await DifferentialRecording.map(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), cache: nil, network: network),
                                                  camera: camera, options: options)
        for setting in camera["config"]?.arrayValue?.compactMap(\.stringValue) ?? [] {
            let (key, value) = setting.split(separator: "=", maxSplits: 1).map(String.init).pair
            let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
            await map.setConfigProperty(parts[0], parts[1], try JSONParser.parse(value))
        }
        await map.setStyleURI(server.baseURL + "style.json")
        let outcome = await map.run(until: .mapIdle, timeout: .seconds(60))
        if case .timedOut = outcome { await map.giveUp("the test's time is over") }
        try await network.shutdown()
        await server.stop()
        let served = recorded.withLock { $0 }.compactMap { event -> String? in
            guard case .resourceRequest(let request) = event.payload else { return nil }
            let path = request.request.url.dropFirst(origin.count).replacing(/access_token=[^&]*/, with: "access_token=REDACTED")
            return "\(request.request.kind.rawValue) \(path) \(ServeParityTests.status(request.response))"
        }.sorted()
        return (served, outcome)
    }
}

private extension Array where Element == String {
    /// The two halves of `NAME=VALUE`.
    var pair: (String, String) { (self[0], count > 1 ? self[1] : "") }
}
