import Foundation
import Testing
import MapSimJSON
import MapSimTesting
@testable import MapSim

/// The feature fixtures (styles/features: a globe, 3D terrain, global state, a video source, MLT
/// tiles) as a recent MapLibre Native loads them. Each file of FIXTURE/mapli/ holds what MapLibre
/// Native's 2026 core (PyPI mapli, in still mode) asked for at one camera, over several runs
/// (scripts/record-mapli-requests --root styles/features): every path a server would have been asked
/// for. Native draws no globe, no 3D terrain and no video: it covers the view flat and asks nothing
/// for them, and mapsim's `maplibre-native` engine must ask exactly the same — and say what it
/// ignored. Nothing here needs Python.
@Suite("MapLibre Native parity: globe, terrain, global state, video, MLT")
struct MapLibreNativeFeatureParityTests {
    static let root = SampleStyle.stylesFolder + "/features"

    /// Every recording of every feature fixture, in order.
    static let recordings: [DifferentialRecording] = {
        let fixtures = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return fixtures.sorted().flatMap { fixture in
            let folder = "\(root)/\(fixture)/mapli"
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return files.filter { $0.hasSuffix(".json") }.sorted().map { DifferentialRecording(fixture: fixture, file: "\(folder)/\($0)") }
        }
    }()

    /// Recordings the oracle did not draw, with why: nothing to compare with.
    static let unusable: [String: String] = [
        "global-state": "mapli 0.4.1's core asks for nothing but the style: it does not read `state` and `global-state` and drops the layers that do",
        "global-state-set": "as global-state",
    ]

    @Test func everyFeatureHasRecordings() {
        #expect(Set(Self.recordings.map(\.fixture)) == ["globe", "terrain", "global-state", "global-state-set", "video", "mlt", "mlt-as-mvt", "failed-sources"])
        #expect(Self.recordings.count { Self.isComparable($0) } >= 9)
    }

    /// Whether the oracle drew the view (a pitch above 60 it refuses; a glyph range the fixture lacks
    /// fails its render) and reads the style.
    static func isComparable(_ recording: DifferentialRecording) -> Bool {
        guard unusable[recording.fixture] == nil, let data = FileManager.default.contents(atPath: recording.file),
              let golden = try? JSONParser.parse(Array(data)) else { return false }
        return golden["rendered"] == .bool(true)
    }

    /// Every path the view needs is asked, and nothing the oracle never asked: a path whose count
    /// differed between the oracle's runs (`unsteady`: MapLibre Native merges a request made while
    /// the same one is served, so which parents and late ranges are asked depends on timing) may be
    /// asked or not.
    @Test(arguments: recordings.filter(isComparable))
    func mapsimAsksWhatMapLibreNativeAsked(_ recording: DifferentialRecording) async throws {
        let golden = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: recording.file))))
        let requests = Set((golden["requests"]?.arrayValue ?? []).compactMap(\.stringValue))
        let unsteady = Set(golden["unsteady"]?.objectValue?.keys ?? [])
        let lookups = Set((golden["lookups"]?.arrayValue ?? []).compactMap(\.stringValue))
        let needed = requests.subtracting(unsteady)
        let allowed = requests.union(unsteady).union(lookups)
        let folder = URL(fileURLWithPath: "\(Self.root)/\(recording.fixture)").absoluteString
        let map = await DifferentialRecording.stillMap(backends: .only(FileResourceLoader(assetRoot: "/")), camera: golden["camera"] ?? .null)
        let recorder = EventRecorder(map)
        await map.setStyleURI(folder + "/style.json")
        _ = await map.run(until: .mapIdle, timeout: .seconds(60))
        let asked = Set(recorder.payloads(of: MapEvents.resourceRequest).map { String($0.request.url.dropFirst(folder.count)) })
        #expect(needed.isSubset(of: asked) && asked.isSubset(of: allowed),
                "needed but not asked: \(needed.subtracting(asked).sorted()); never asked by MapLibre Native: \(asked.subtracting(allowed).sorted())")
        let ignored = Set(recorder.payloads(of: MapEvents.styleFeatureIgnored).map(\.feature))
        switch recording.fixture {
        case "globe": #expect(ignored == [.globe])
        case "terrain": #expect(ignored == [.terrain])
        case "video": #expect(ignored == [.video])
        default: #expect(ignored.isEmpty)
        }
    }

    /// A source whose TileJSON or GeoJSON is not there fails MapLibre Native's still image at once:
    /// it asked for the style and the sources' metadata, no tile, and did not render. mapsim's still
    /// load stops on that error too, naming the source, and asks for nothing else.
    @Test(arguments: recordings.filter { $0.fixture == "failed-sources" })
    func aSourceThatFailsStopsTheStillImageAsMapLibreNativeDid(_ recording: DifferentialRecording) async throws {
        let golden = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: recording.file))))
        #expect(golden["rendered"] == .bool(false))
        let requests = Set((golden["requests"]?.arrayValue ?? []).compactMap(\.stringValue))
        let missing = Set((golden["missing"]?.arrayValue ?? []).compactMap(\.stringValue))
        let folder = URL(fileURLWithPath: "\(Self.root)/\(recording.fixture)").absoluteString
        let map = await DifferentialRecording.stillMap(backends: .only(FileResourceLoader(assetRoot: "/")), camera: golden["camera"] ?? .null)
        let recorder = EventRecorder(map)
        await map.setStyleURI(folder + "/style.json")
        guard case .styleFailed(let message) = await map.run(until: .mapIdle, timeout: .seconds(60)) else {
            Issue.record("MapLibre Native's still image failed; mapsim's did not")
            return
        }
        #expect(missing.contains { message.contains(folder + $0) }, "\(message)")
        let asked = Set(recorder.payloads(of: MapEvents.resourceRequest).map { String($0.request.url.dropFirst(folder.count)) })
        #expect(asked.isSubset(of: requests) && asked.contains("/style.json"), "never asked by MapLibre Native: \(asked.subtracting(requests).sorted())")
    }
}
