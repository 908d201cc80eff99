import Foundation
import Synchronization
import Testing
import MapSimJSON
import MapSimServe
import MapSimTesting
@testable import MapSim
@testable import MapSimHTTP

/// The maps of 2026 as MapLibre GL JS 5.24.0 loads them: a globe, 3D terrain, global state, a video
/// source, MLT tiles (styles/features/, made by scripts/generate-feature-fixtures.py). Each file of
/// FIXTURE/gljs/ holds what `mapsim serve` recorded while GL JS, in headless Chromium, showed the
/// fixture at one camera (scripts/record-gljs-through-serve --root styles/features --conditions
/// plain). Here the fixture is served in-process and mapsim's GL JS engine loads it at the same
/// camera: the server must record the same requests (kind, path, status), and the map must go idle
/// when GL JS did — and not when it did not (a video plays). Where Mapbox GL JS v3.0.1 was recorded
/// too (FIXTURE/mapboxgl/), mapsim's `mapbox-gl-js` engine is held to it the same way. Nothing here
/// needs a browser.
@Suite("mapsim serve parity with MapLibre GL JS: globe, terrain, global state, video, MLT", .serialized)
struct GLJSFeatureParityTests {
    static let root = SampleStyle.stylesFolder + "/features"

    /// Every recording of every feature fixture, in order.
    static let recordings = recordings(in: "gljs")

    /// The fixtures as Mapbox GL JS v3.0.1 loaded them, where they were recorded (FIXTURE/mapboxgl/,
    /// scripts/record-gljs-through-serve --oracle mapboxgl --root styles/features --conditions plain
    /// FIXTURE), but terrain's: MapboxTerrainParityTests read those, on the virtual clock.
    static let mapboxRecordings = recordings(in: "mapboxgl").filter { $0.fixture != "terrain" }

    /// The recordings in each fixture's `folder`, in order.
    static func recordings(in folder: String) -> [DifferentialRecording] {
        let fixtures = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return fixtures.sorted().flatMap { fixture in
            let folder = "\(root)/\(fixture)/\(folder)"
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return files.filter { $0.hasSuffix(".json") }.sorted().map { DifferentialRecording(fixture: fixture, file: "\(folder)/\($0)") }
        }
    }

    @Test func everyCameraOfEveryFeatureIsRecorded() throws {
        let fixtures = try FileManager.default.contentsOfDirectory(atPath: Self.root).filter { !$0.hasPrefix(".") }
        #expect(Set(fixtures) == ["globe", "terrain", "global-state", "global-state-set", "video", "mlt", "mlt-as-mvt", "failed-sources", "missing-raster"])
        for fixture in fixtures {
            let cameras = try JSONParser.parse(Array(Data(contentsOf: URL(fileURLWithPath: "\(Self.root)/\(fixture)/cameras.json"))))
            #expect(Self.recordings.filter { $0.fixture == fixture }.count == cameras.arrayValue?.count, "\(fixture)")
        }
        #expect(Self.mapboxRecordings.map(\.fixture).contains("missing-raster"))
    }

    /// Recordings in which GL JS stopped short, and why. Pitched far over 3D terrain whose far tiles
    /// the fixture does not have (404, DEM tiles among them), GL JS 5.24.0 never went idle: a raster
    /// tile's 404 fires no event and draws no frame (`Engine.notFoundImageTileRedraws`; the
    /// missing-raster fixture shows it alone), and which of the 404s came after the last frame the
    /// vector tiles drew is a race of the browser's. mapsim asks for every tile GL JS asked for, and
    /// may walk further up from tiles that failed (404 parents of 404 tiles, no other request).
    static let framesStopped: Set<String> = ["terrain/z11-p75-b-40", "terrain/z11.5-p80"]

    @Test(arguments: recordings)
    func serveRecordsOfMapsimWhatItRecordedOfGLJS(_ recording: DifferentialRecording) async throws {
        let golden = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: recording.file))))
        let expected = (golden["requests"]?.arrayValue ?? []).compactMap(\.stringValue)
        let (served, outcome) = try await Self.load(fixture: recording.fixture, camera: golden["camera"] ?? .null)
        let onlyGLJS = DifferentialRecording.difference(expected, served)
        let onlyMapsim = DifferentialRecording.difference(served, expected)
        if Self.framesStopped.contains(recording.description.replacingOccurrences(of: ".plain", with: "")) {
            #expect(golden["idle"] == .bool(false))
            #expect(onlyGLJS.isEmpty, "requested only by GL JS: \(onlyGLJS)")
            #expect(onlyMapsim.allSatisfy { Self.isParent(ofFailed: $0, in: served) }, "only by mapsim, not parents of failed tiles: \(onlyMapsim)")
            return
        }
        Self.expectTheSameEnd(golden, outcome)
        #expect(onlyGLJS.isEmpty && onlyMapsim.isEmpty, "requested only by GL JS: \(onlyGLJS); only by mapsim: \(onlyMapsim)")
    }

    @Test(arguments: mapboxRecordings)
    func serveRecordsOfMapsimWhatItRecordedOfMapboxGLJS(_ recording: DifferentialRecording) async throws {
        let golden = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: recording.file))))
        let expected = (golden["requests"]?.arrayValue ?? []).compactMap(\.stringValue)
        let (served, outcome) = try await Self.load(fixture: recording.fixture, camera: golden["camera"] ?? .null, engine: .mapboxGLJS)
        Self.expectTheSameEnd(golden, outcome)
        #expect(DifferentialRecording.difference(expected, served).isEmpty && DifferentialRecording.difference(served, expected).isEmpty,
                "requested only by Mapbox GL JS: \(DifferentialRecording.difference(expected, served)); only by mapsim: \(DifferentialRecording.difference(served, expected))")
    }

    /// Records an issue when mapsim's load did not end as the recorded engine's did: idle, or never idle.
    static func expectTheSameEnd(_ golden: JSONValue, _ outcome: Map.RunOutcome) {
        if golden["idle"] == .bool(true) {
            guard case .reached = outcome else {
                Issue.record("the engine went idle, mapsim did not: \(outcome)")
                return
            }
        } else if case .reached = outcome {
            Issue.record("the engine never went idle, mapsim did")
        }
    }

    /// Whether `request` (`tile /PATH/Z/X/Y.EXT 404`) is a tile that failed, and the parent of
    /// another of `served` that failed.
    static func isParent(ofFailed request: String, in served: [String]) -> Bool {
        func parse(_ line: String) -> (folder: String, z: Int, x: Int, y: Int, file: String)? {
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[0] == "tile", fields[2] == "404" else { return nil }
            let parts = fields[1].split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count >= 4, let z = Int(parts[parts.count - 3]), let x = Int(parts[parts.count - 2]),
                  let dot = parts[parts.count - 1].firstIndex(of: "."), let y = Int(parts[parts.count - 1][..<dot]) else { return nil }
            return (parts.dropLast(3).joined(separator: "/"), z, x, y, String(parts[parts.count - 1][dot...]))
        }
        guard let parent = parse(request) else { return false }
        return served.contains { line in
            guard let child = parse(line) else { return false }
            return child.folder == parent.folder && child.file == parent.file && child.z == parent.z + 1
                && child.x >> 1 == parent.x && child.y >> 1 == parent.y
        }
    }

    @Test(arguments: ["z13.5", "z11.5"])
    func mltTilesAreRequestedAndLaidOutAsTheSameTilesInMVT(_ camera: String) async throws {
        let golden = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: "\(Self.root)/mlt/gljs/\(camera).plain.json"))))
        let (mlt, _) = try await Self.load(fixture: "mlt", camera: golden["camera"] ?? .null)
        let (mvt, _) = try await Self.load(fixture: "mlt-as-mvt", camera: golden["camera"] ?? .null)
        #expect(mlt.map { $0.replacingOccurrences(of: ".mlt ", with: ".pbf ") } == mvt)
        #expect(mlt.count { $0.hasPrefix("glyphs ") } >= 2, "the tiles' names were read: \(mlt)")
    }

    /// What serve records while mapsim's `engine` loads `fixture` at `camera`, sorted as the
    /// recordings are, and how the load ended (a minute of its time at most).
    static func load(fixture: String, camera: JSONValue, engine: Engine = .maplibreGLJS) async throws -> ([String], Map.RunOutcome) {
        let recorded = Mutex<[MapEvent]>([])
        let server = try await StyleServer.start(.init(style: "\(root)/\(fixture)/style.json", port: 0)) { event in
            recorded.withLock { $0.append(event) }
        }
        let network = HTTPResourceLoader()
        // The recordings' GL JS took pitches up to 85 (its maxPitch raised).
        var options = Map.Options(loading: .init(maximumConcurrentRequests: engine.requests.maximumConcurrentRequests), engine: engine,
                                  maximumPitch: Camera.steepestPitch)
        options.loading.wallClock = .today()
        let map = await DifferentialRecording.map(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), cache: nil, network: network),
                                                  camera: camera, options: options)
        await map.setStyleURI(server.baseURL + "style.json")
        let outcome = await map.run(until: .mapIdle, timeout: .seconds(fixture == "video" ? 5 : 60))
        if case .timedOut = outcome { await map.giveUp("the test's time is over") }
        try await network.shutdown()
        await server.stop()
        let origin = server.baseURL
        let served = recorded.withLock { $0 }.compactMap { event -> String? in
            guard case .resourceRequest(let request) = event.payload else { return nil }
            // A range answered is a 206, as the recording script names it.
            var status = ServeParityTests.status(request.response)
            if status == "200" && request.request.dataRange != nil { status = "206" }
            return "\(request.request.kind.rawValue) /\(request.request.url.dropFirst(origin.count)) \(status)"
        }.sorted()
        return (served, outcome)
    }
}
