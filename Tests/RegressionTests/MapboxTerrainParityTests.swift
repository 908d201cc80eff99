import Foundation
import Testing
import MapSimJSON
import MapSimTesting
@testable import MapSim

/// 3D terrain as Mapbox GL JS v3.0.1 loads it (styles/features/terrain: a 512 px DEM with terrain
/// exaggerated 1.5 times, a vector and a raster source over it). Each file of mapboxgl/ holds what
/// `mapsim serve` recorded while Mapbox GL JS, in headless Chromium, showed the fixture at one camera
/// (scripts/record-gljs-through-serve --oracle mapboxgl --root styles/features --conditions plain
/// terrain). Here mapsim's `mapbox-gl-js` engine loads the fixture's files at the same camera, on
/// the virtual clock so that the tiles arrive in one order run after run (Mapbox's requests with
/// terrain depend on it at the margin), and must ask for the same resources. Nothing here needs a browser.
@Suite("Mapbox GL JS v3.0.1 parity on 3D terrain")
struct MapboxTerrainParityTests {
    static let folder = SampleStyle.stylesFolder + "/features/terrain"

    static let recordings: [DifferentialRecording] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/mapboxgl")) ?? []
        return files.filter { $0.hasSuffix(".json") }.sorted().map { DifferentialRecording(fixture: "terrain", file: "\(folder)/mapboxgl/\($0)") }
    }()

    @Test func everyCameraIsRecorded() throws {
        let cameras = try JSONParser.parse(Array(Data(contentsOf: URL(fileURLWithPath: Self.folder + "/cameras.json"))))
        #expect(Self.recordings.count == cameras.arrayValue?.count)
        #expect(Self.recordings.count >= 5)
    }

    /// Requests Mapbox GL JS made in a recording only because of the order its tiles arrived in. At
    /// zoom 9 over `mapsim serve` the vector tiles 9/267/178 and 9/267/179 came once the camera had
    /// risen on the centre's DEM tile; the oracle's own server, twice, and mapsim (the DEM tile
    /// first, the vector tiles in the same frame) cover the vector source before it rises.
    static let arrivalOrderDependent: [String: Set<String>] = ["terrain/z9-p0.plain": ["tile /tiles/9/267/178.pbf", "tile /tiles/9/267/179.pbf"]]

    @Test(arguments: recordings)
    func mapsimAsksForWhatMapboxGLJSAskedFor(_ recording: DifferentialRecording) async throws {
        let golden = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: recording.file))))
        // "KIND PATH STATUS": the status is the file's, the same for both.
        let expected = (golden["requests"]?.arrayValue ?? []).compactMap(\.stringValue).map { $0.split(separator: " ").prefix(2).joined(separator: " ") }.sorted()
        let (loaded, outcome) = await Self.load(camera: golden["camera"] ?? .null)
        guard case .reached = outcome else {
            Issue.record("the load did not go idle: \(outcome)")
            return
        }
        let onlyMapbox = DifferentialRecording.difference(expected, loaded).filter { !(Self.arrivalOrderDependent[recording.description] ?? []).contains($0) }
        #expect(onlyMapbox.isEmpty && DifferentialRecording.difference(loaded, expected).isEmpty,
                "requested only by Mapbox GL JS: \(onlyMapbox); only by mapsim: \(DifferentialRecording.difference(loaded, expected))")
    }

    /// The rules that make Mapbox's requests, each seen in a load: the DEM is covered two zooms
    /// coarser than MapLibre's (four times its tile size, not twice) with no parents or zoom-5
    /// ancestor added, where MapLibre GL JS asks for the view's zoom, a level finer and zoom 5 too.
    @Test func theDEMIsCoveredTwoZoomsCoarserThanTheViewAndMapLibreAsksForMore() async throws {
        let camera: JSONValue = .object(JSONObject([("center", .array([.number(8.54), .number(47.37)])), ("zoom", .number(12)), ("pitch", .number(60))]))
        let (mapbox, _) = await Self.load(camera: camera)
        let (maplibre, _) = await Self.load(camera: camera, engine: .maplibreGLJS)
        let dem = { (requests: [String]) in Set(requests.filter { $0.contains("/dem/") }.compactMap { Int($0.split(separator: "/")[2]) }) }
        #expect(dem(mapbox) == [9, 10])
        #expect(dem(maplibre).isSuperset(of: [5, 11, 12]))
    }

    /// What mapsim's `engine` asks for while loading the fixture's files at `camera` ("KIND PATH",
    /// sorted), and how the load ended.
    static func load(camera: JSONValue, engine: Engine = .mapboxGLJS) async -> ([String], Map.RunOutcome) {
        let options = Map.Options(loading: .init(maximumConcurrentRequests: engine.requests.maximumConcurrentRequests), engine: engine,
                                  maximumPitch: Camera.steepestPitch)
        let map = await DifferentialRecording.map(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), cache: nil, network: nil),
                                                  camera: camera, options: options)
        let recorder = EventRecorder(map)
        await map.setStyleURI("file://\(folder)/style.json")
        let outcome = await map.run(until: .mapIdle, timeout: .seconds(60))
        let requests = recorder.events.compactMap { event -> String? in
            guard case .resourceRequest(let request) = event.payload else { return nil }
            return "\(request.request.kind.rawValue) \(request.request.url.dropFirst("file://\(folder)".count))"
        }
        return (requests.sorted(), outcome)
    }
}
