import Foundation
import MapSim
import MapSimArchives
import MapSimJSON
import MapSimStyle
import MapSimTesting
import Testing

/// mapsim reads from archives made by independent writers what MapLibre Native reads. styles/archives
/// holds the sample's tiles as city.pmtiles (the official PMTiles writer) and city.mbtiles (an MBTiles
/// 1.3 writer), made by scripts/make-archive-fixtures.py; mapli/ holds, per camera, the tile data
/// ranges a recent MapLibre Native read from city.pmtiles (scripts/record-mapli-requests).
@Suite("MapLibre Native parity on tile archives", .serialized)
struct MapLibreArchiveParityTests {
    static let root = SampleStyle.stylesFolder + "/archives"

    static let cameras: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: root + "/mapli")) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }()

    @Test func everyCameraIsRecorded() {
        #expect(Self.cameras == ["pitched", "reference", "zoom-11-pan", "zoom-9-wide"])
    }

    /// Loads the sample style reading `url` in still mode at `camera`; returns the recorder.
    static func load(sourceURL: String, camera: JSONValue, fixture: ArchiveFixture) async throws -> (EventRecorder, Map.RunOutcome) {
        var options = Map.Options()
        options.mode = .still
        let backends = ResourceBackends(file: FileResourceLoader(assetRoot: "/"), archive: MBTilesResourceLoader())
        let map = Map(backends: backends, options: options)
        let recorder = EventRecorder(map)
        let size = (camera["size"]?.stringValue ?? "512x512").split(separator: "x").compactMap { Int($0) }
        await map.setViewport(Viewport(width: size[0], height: size[1]))
        let center = camera["center"]?.arrayValue?.compactMap(\.numberValue) ?? [0, 0]
        await map.setCamera(CameraOptions(center: LngLat(longitude: center[0], latitude: center[1]), zoom: camera["zoom"]?.numberValue,
                                          bearing: camera["bearing"]?.numberValue, pitch: camera["pitch"]?.numberValue))
        await map.setStyleURI(try fixture.style(sourceURL: sourceURL))
        let outcome = await map.run(until: .mapIdle, timeout: .seconds(60))
        return (recorder, outcome)
    }

    @Test(arguments: cameras)
    func readsTheTilesMapLibreNativeReads(_ name: String) async throws {
        let golden = try JSONParser.parse(try InputFile.read("\(Self.root)/mapli/\(name).json", limit: 1 << 20))
        #expect(golden["rendered"] == .bool(true), "MapLibre Native rendered the camera")
        let expected = Set((golden["tileRanges"]?.arrayValue ?? []).compactMap { pair -> ClosedRange<UInt64>? in
            guard let bounds = pair.arrayValue?.compactMap(\.numberValue), bounds.count == 2 else { return nil }
            return UInt64(bounds[0])...UInt64(bounds[1])
        })
        let fixture = try ArchiveFixture()
        try FileManager.default.copyItem(atPath: Self.root + "/city.pmtiles", toPath: fixture.path("city.pmtiles"))
        try FileManager.default.copyItem(atPath: Self.root + "/city.mbtiles", toPath: fixture.path("city.mbtiles"))
        let header = try PMTilesHeader(try InputFile.read(fixture.path("city.pmtiles"), range: 0...126, limit: 127))

        let (pmtiles, outcome) = try await Self.load(sourceURL: "pmtiles://file://\(fixture.path("city.pmtiles"))", camera: golden["camera"] ?? .null, fixture: fixture)
        guard case .reached = outcome else { Issue.record("not idle: \(outcome)"); return }
        #expect(pmtiles.loadingErrors.isEmpty)
        let read = Set(pmtiles.requests.compactMap(\.request.dataRange).filter { $0.lowerBound >= header.tileDataOffset })
        #expect(read == expected, "mapsim read \(read.sorted { $0.lowerBound < $1.lowerBound }), MapLibre Native \(expected.sorted { $0.lowerBound < $1.lowerBound })")

        // The MBTiles file of the same tiles gives the same tiles with data (its TileJSON has no bounds
        // for pbf, as MapLibre Native makes it, so tiles outside them are asked for and have none).
        let (mbtiles, again) = try await Self.load(sourceURL: "mbtiles://\(fixture.path("city.mbtiles"))", camera: golden["camera"] ?? .null, fixture: fixture)
        guard case .reached = again else { Issue.record("not idle: \(again)"); return }
        #expect(mbtiles.loadingErrors.isEmpty)
        let withData = Set(mbtiles.requests.filter { $0.request.kind == .tile && $0.response?.size ?? 0 > 0 }.compactMap { request -> String? in
            guard let file = request.request.url.split(separator: "=").last else { return nil }
            let parts = file.split(separator: ".")[0].split(separator: "/")
            return parts.count == 3 ? "\(parts[2])/\(parts[0])/\(parts[1])" : nil
        })
        #expect(withData.count == expected.count)
        #expect(withData.isSubset(of: pmtiles.loadedTiles))
    }
}
