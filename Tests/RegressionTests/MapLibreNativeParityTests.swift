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
    static let root = DifferentialRecording.root
    static let recordings = DifferentialRecording.all(in: "mln")

    @Test func everyFixtureHasRecordings() {
        #expect(Set(Self.recordings.map(\.fixture)) == ["geojson", "labels", "legacy-ref", "raster-404", "world-copies"])
        #expect(Self.recordings.count >= 13)
    }

    @Test(arguments: recordings)
    func requestsWhatMapLibreNativeRequests(_ recording: DifferentialRecording) async throws {
        let golden = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: recording.file))))
        let camera = golden["camera"] ?? .null
        let expected = (golden["requests"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(golden["rendered"] == .bool(true), "MapLibre Native rendered the fixture")

        let server = try await FixtureServer.start(serving: "\(Self.root)/\(recording.fixture)")
        let network = HTTPResourceLoader()
        let map = await DifferentialRecording.stillMap(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), cache: nil, network: network),
                                                       camera: camera)
        await map.setStyleURI(server.baseURL + "/style.json")
        let outcome = await map.run(until: .mapIdle, timeout: .seconds(120))
        let requested = server.received.map(\.path).sorted()
        try await network.shutdown()
        await server.stop()

        if case .reached = outcome {} else { Issue.record("the map does not go idle: \(outcome)") }
        let missing = DifferentialRecording.difference(expected, requested)
        let extra = DifferentialRecording.difference(requested, expected)
        #expect(missing.isEmpty && extra.isEmpty, "requested only by MapLibre Native: \(missing); only by mapsim: \(extra)")
    }
}
