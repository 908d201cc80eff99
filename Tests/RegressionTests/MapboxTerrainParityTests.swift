import Foundation
import Testing
import MapSimJSON
import MapSimStyle
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

    /// The fixture with a `fog`, recorded by scripts/record-mapbox-fog-terrain at views steep enough
    /// for the fog to cull (Mapbox keeps a far tile that rises above its horizon line: at 85° every
    /// tile of this fixture does).
    static let fogRecordings: [DifferentialRecording] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/mapboxgl-fog")) ?? []
        return files.filter { $0.hasSuffix(".json") }.sorted().map { DifferentialRecording(fixture: "terrain", file: "\(folder)/mapboxgl-fog/\($0)") }
    }()

    @Test(arguments: fogRecordings)
    func withFogMapsimAsksForWhatMapboxGLJSAskedFor(_ recording: DifferentialRecording) async throws {
        let golden = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: recording.file))))
        let fog = try #require(golden["fog"]?.objectValue)
        // The style's own request is named for the file the recording wrote; the rest are compared.
        let expected = (golden["requests"]?.arrayValue ?? []).compactMap(\.stringValue).map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
            .filter { !$0.hasPrefix("style ") }.sorted()
        let directory = try FixtureDirectory()
        let (loaded, outcome) = await Self.load(camera: golden["camera"] ?? .null, style: try Self.style(fog: fog, in: directory))
        guard case .reached = outcome else {
            Issue.record("the load did not go idle: \(outcome)")
            return
        }
        let compared = loaded.filter { !$0.hasPrefix("style ") }
        #expect(DifferentialRecording.difference(expected, compared).isEmpty && DifferentialRecording.difference(compared, expected).isEmpty,
                "requested only by Mapbox GL JS: \(DifferentialRecording.difference(expected, compared)); only by mapsim: \(DifferentialRecording.difference(compared, expected))")
        // Without the fog, no less is asked for.
        let (unculled, _) = await Self.load(camera: golden["camera"] ?? .null)
        #expect(unculled.filter { !$0.hasPrefix("style ") }.count >= compared.count)
    }

    /// The fixture's style with `fog`, written in `directory`, its URLs made absolute to the fixture's files.
    static func style(fog: JSONObject, in directory: FixtureDirectory) throws -> String {
        let text = try String(contentsOfFile: folder + "/style.json", encoding: .utf8)
        var style = try #require(try JSONParser.parse(Array(text.utf8)).objectValue)
        style["fog"] = .object(fog)
        let absolute = JSONWriter.string(.object(style)).replacing("\"glyphs/", with: "\"file://\(folder)/glyphs/")
            .replacing("\"dem/", with: "\"file://\(folder)/dem/").replacing("\"tiles/", with: "\"file://\(folder)/tiles/")
            .replacing("\"raster/", with: "\"file://\(folder)/raster/")
        return try directory.write("style.json", absolute)
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

    /// A map moved over the terrain (its centre's altitude read again there) covers the DEM for the
    /// new view, two zooms coarser with nothing added, and goes idle again.
    @Test func aMapMovedOverTheTerrainCoversItsNewViewAndGoesIdleAgain() async throws {
        let camera: JSONValue = .object(JSONObject([("center", .array([.number(8.54), .number(47.37)])), ("zoom", .number(12)), ("pitch", .number(60))]))
        let map = await DifferentialRecording.map(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), cache: nil, network: nil),
                                                  camera: camera, options: Map.Options(engine: .mapboxGLJS, maximumPitch: Camera.steepestPitch))
        let recorder = EventRecorder(map)
        await map.setStyleURI("file://\(Self.folder)/style.json")
        guard case .reached = await map.run(until: .mapIdle, timeout: .seconds(60)) else {
            Issue.record("the first view did not go idle")
            return
        }
        let first = recorder.events.count
        await map.setCamera(CameraOptions(center: LngLat(longitude: 8.56, latitude: 47.39), zoom: 13.4, bearing: 160, pitch: 45))
        guard case .reached = await map.run(until: .mapIdle, timeout: .seconds(60)) else {
            Issue.record("the moved view did not go idle")
            return
        }
        let dem = recorder.events.dropFirst(first).compactMap { event -> String? in
            guard case .resourceRequest(let request) = event.payload, request.request.url.contains("/dem/") else { return nil }
            return request.request.url
        }
        // floor(13.4) − 2: the new view's DEM zoom, and no MapLibre-style zoom-5 ancestor.
        #expect(dem.contains { $0.contains("/dem/11/") })
        #expect(!dem.contains { $0.contains("/dem/5/") })
    }

    /// What mapsim's `engine` asks for while loading `style` (the fixture's, by default) at `camera`
    /// ("KIND PATH", the fixture's files by their path in it, sorted), and how the load ended.
    static func load(camera: JSONValue, engine: Engine = .mapboxGLJS, style: String = folder + "/style.json") async -> ([String], Map.RunOutcome) {
        let options = Map.Options(loading: .init(maximumConcurrentRequests: engine.requests.maximumConcurrentRequests), engine: engine,
                                  maximumPitch: Camera.steepestPitch)
        let map = await DifferentialRecording.map(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), cache: nil, network: nil),
                                                  camera: camera, options: options)
        let recorder = EventRecorder(map)
        await map.setStyleURI("file://" + style)
        let outcome = await map.run(until: .mapIdle, timeout: .seconds(60))
        let requests = recorder.events.compactMap { event -> String? in
            guard case .resourceRequest(let request) = event.payload else { return nil }
            return "\(request.request.kind.rawValue) \(request.request.url.dropFirst("file://\(folder)".count))"
        }
        return (requests.sorted(), outcome)
    }
}
