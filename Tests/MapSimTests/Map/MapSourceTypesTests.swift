import Foundation
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimStyle

@Suite("Map.SourceTypes")
struct MapSourceTypesTests {
    /// A whole 1×1 RGBA PNG: raster tiles are decoded, so a header alone is a broken tile.
    private static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0B, 0x49, 0x44, 0x41,
        0x54, 0x78, 0x9C, 0x63, 0x60, 0x00, 0x02, 0x00, 0x00, 0x05, 0x00, 0x01, 0x7A, 0x5E, 0xAB, 0x3F, 0x00, 0x00, 0x00, 0x00,
        0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    @Test func rasterTilesFadeInForTheirFadeDuration() async throws {
        let loader = StubLoader()
        for tile in TilePyramid(rounding: .round, tileSize: 256).visibleTiles(camera: Camera(center: LngLat(longitude: 0, latitude: 0), zoom: 1), viewport: Viewport(width: 512, height: 512)) {
            loader.serve("https://r/\(tile.canonical).png", data: Self.png)
        }
        // MapLibre Native prefetches the view four zooms below, at least the minzoom: 0/0/0.
        loader.serve("https://r/0/0/0.png", data: Self.png)
        let map = Map(backends: .only(loader), camera: Camera(center: LngLat(longitude: 0, latitude: 0), zoom: 1))
        let recorder = EventRecorder(map)
        await map.setStyleJSON("""
        {"version": 8, "transition": {"duration": 0},
         "sources": {"r": {"type": "raster", "tiles": ["https://r/{z}/{x}/{y}.png"], "tileSize": 256}},
         "layers": [{"id": "r", "type": "raster", "source": "r", "paint": {"raster-fade-duration": 200}}]}
        """)
        let outcome = await map.run(until: .mapIdle, timeout: .seconds(5))
        let firstFull = try #require(recorder.events.first { $0.payload.frame?.renderMode == .full })
        #expect(firstFull.payload.frame?.needsRepaint == true)
        guard case .reached(let idle) = outcome else { Issue.record("not idle: \(outcome)"); return }
        #expect(idle >= firstFull.end + .milliseconds(200) && idle < firstFull.end + .milliseconds(217))
        // Zoom 1 with 256-pixel tiles covers zoom 2; the centre sits on a tile corner: 2×2 tiles, and the prefetched one.
        #expect(recorder.payloads.compactMap(\.sourceData).filter { $0.type == .tile }.compactMap(\.tileID).map(\.description).sorted()
            == ["0/0/0", "2/1/1", "2/1/2", "2/2/1", "2/2/2"])
    }

    @Test func rasterTilesThatAreNotImagesAreTileErrors() async {
        let loader = StubLoader()
        loader.serve("https://r/0/0/0.png", data: Array("<html>".utf8))
        let map = Map(backends: .only(loader))
        let recorder = EventRecorder(map)
        await map.setStyleJSON(#"{"version": 8, "sources": {"r": {"type": "raster", "tiles": ["https://r/{z}/{x}/{y}.png"], "maxzoom": 0}}, "layers": [{"id": "r", "type": "raster", "source": "r"}]}"#)
        _ = await map.run(until: .mapIdle, timeout: .seconds(5))
        let errors = recorder.payloads.compactMap(\.loadingError)
        #expect(errors.map(\.type) == [.tile])
        #expect(errors.first?.message.contains("not a PNG, JPEG or WebP image") == true)
    }

    @Test func inlineGeoJSONTilesLoadWithoutRequests() async {
        let map = Map(backends: .only(StubLoader()))
        let recorder = EventRecorder(map)
        await map.setStyleJSON("""
        {"version": 8, "transition": {"duration": 0},
         "sources": {"g": {"type": "geojson", "data": {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}}}},
         "layers": [{"id": "c", "type": "circle", "source": "g"}]}
        """)
        #expect(await map.run(until: .mapIdle, timeout: .seconds(1)) == .reached(.zero))
        #expect(recorder.payloads.compactMap(\.request).isEmpty)
        #expect(recorder.payloads.compactMap(\.sourceData).map(\.type) == [.metadata, .tile])
    }

    @Test func imageAndGeoJSONSourcesLoadTheirData() async {
        let loader = StubLoader()
        loader.serve("https://h/i.png", data: Self.png)
        loader.serve("https://h/d.geojson", data: Array(#"{"type": "FeatureCollection", "features": []}"#.utf8))
        let map = Map(backends: .only(loader))
        let recorder = EventRecorder(map)
        await map.setStyleJSON("""
        {"version": 8, "sources": {"i": {"type": "image", "url": "i.png", "coordinates": [[0,1],[1,1],[1,0],[0,0]]}, "d": {"type": "geojson", "data": "d.geojson"}},
         "layers": [{"id": "i", "type": "raster", "source": "i"}, {"id": "d", "type": "fill", "source": "d"}]}
        """, baseURL: "https://h/style.json")
        _ = await map.run(until: .mapIdle, timeout: .seconds(1))
        #expect(recorder.payloads.compactMap(\.request).map(\.request.kind) == [.image, .source])
        #expect(recorder.payloads.compactMap(\.sourceData).filter { $0.type == .metadata }.map(\.id) == ["i", "d"])
        #expect(recorder.payloads.contains(.mapIdle))
    }

    @Test func unknownSchemesFailWithAClearMessage() async {
        let map = Map(backends: .only(FileResourceLoader(assetRoot: "/")))
        await map.setStyleURI("gopher://x/style.json")
        guard case .styleFailed(let message) = await map.run(until: .mapIdle, timeout: .seconds(1)) else { Issue.record("expected a failure"); return }
        #expect(message.contains("no backend for gopher:// URLs"))
    }
}
