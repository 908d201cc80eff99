import Foundation
import Testing
import MapSimJSON
import MapSimStyle
import MapSimTesting
@testable import MapSim
@testable import MapSimHTTP

/// mapsim requests what MapLibre Native requests. Each fixture of styles/differential (its own
/// tiles, sprite and glyphs) is loaded from a loopback server at each recorded camera, in still mode
/// as pymgl renders, and the paths the server saw must be exactly those MapLibre Native asked for
/// (recorded in the fixture's mln/ folder by scripts/record-mln-requests): the same tiles (once per
/// world copy), the same glyph ranges per font stack, the same sprite and TileJSON requests.
@Suite("MapLibre Native parity", .serialized)
struct MapLibreNativeParityTests {
    struct Recording: CustomStringConvertible, Sendable {
        var fixture: String
        var file: String
        var description: String { "\(fixture)/\(URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent)" }
    }

    static let root = SampleStyle.stylesFolder + "/differential"

    static let recordings: [Recording] = {
        let fixtures = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return fixtures.sorted().flatMap { fixture in
            let folder = "\(root)/\(fixture)/mln"
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return files.filter { $0.hasSuffix(".json") }.sorted().map { Recording(fixture: fixture, file: "\(folder)/\($0)") }
        }
    }()

    @Test func everyFixtureHasRecordings() {
        #expect(Set(Self.recordings.map(\.fixture)) == ["geojson", "labels", "legacy-ref", "raster-404", "world-copies"])
        #expect(Self.recordings.count >= 13)
    }

    @Test(arguments: recordings)
    func requestsWhatMapLibreNativeRequests(_ recording: Recording) async throws {
        let golden = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: recording.file))))
        let camera = golden["camera"] ?? .null
        let expected = (golden["requests"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(golden["rendered"] == .bool(true), "MapLibre Native rendered the fixture")

        let server = try await FixtureServer.start(serving: "\(Self.root)/\(recording.fixture)")
        let network = HTTPResourceLoader()
        var options = Map.Options()
        options.mode = .still
        let map = Map(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), cache: nil, network: network), options: options)
        let size = (camera["size"]?.stringValue ?? "512x512").split(separator: "x").compactMap { Int($0) }
        await map.setViewport(Viewport(width: size[0], height: size[1]))
        let center = camera["center"]?.arrayValue?.compactMap(\.numberValue) ?? [0, 0]
        await map.setCamera(CameraOptions(center: LngLat(longitude: center[0], latitude: center[1]), zoom: camera["zoom"]?.numberValue,
                                          bearing: camera["bearing"]?.numberValue, pitch: camera["pitch"]?.numberValue))
        await map.setStyleURI(server.baseURL + "/style.json")
        let outcome = await map.run(until: .mapIdle, timeout: .seconds(120))
        let requested = server.received.map(\.path).sorted()
        try await network.shutdown()
        await server.stop()

        if case .reached = outcome {} else { Issue.record("the map does not go idle: \(outcome)") }
        let missing = Self.difference(expected, requested)
        let extra = Self.difference(requested, expected)
        #expect(missing.isEmpty && extra.isEmpty, "requested only by MapLibre Native: \(missing); only by mapsim: \(extra)")
    }

    /// The entries of `a` not matched one for one in `b` (a multiset difference).
    static func difference(_ a: [String], _ b: [String]) -> [String] {
        var remaining = b
        return a.filter { item in
            guard let index = remaining.firstIndex(of: item) else { return true }
            remaining.remove(at: index)
            return false
        }
    }
}
