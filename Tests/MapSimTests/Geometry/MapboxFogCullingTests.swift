import Foundation
import Testing
import MapSimJSON
import MapSimStyle
import MapSimTesting
@testable import MapSim

/// Mapbox GL JS 3.0.1's fog culling: the distance from the style's `fog` and the view, and the tiles
/// it drops, against worked cases read from 3.0.1 itself (its `Painter._updateFog` and
/// `coveringTiles`, run in Node) and, end to end, against what it requested in headless Chromium.
@Suite("Mapbox GL JS's fog culling")
struct MapboxFogCullingTests {
    private static let camera = Camera(center: LngLat(longitude: -122.4194, latitude: 37.7749), zoom: 12, pitch: 70, maximumPitch: 85)
    private static let viewport = Viewport(width: 800, height: 600)

    private static func fog(_ text: String) -> JSONObject {
        (try? JSONParser.parse(Array(text.utf8)))?.objectValue ?? JSONObject()
    }

    /// The tiles of a 512 px vector source at `camera` that `fog` drops.
    private static func dropped(by fog: JSONObject, camera: Camera = camera) -> [String]? {
        guard let culling = MapboxFogCulling(fog: fog, zoom: camera.zoom, pitch: camera.pitch) else { return nil }
        let tiles = CoveringTiles.tiles(camera: camera, viewport: viewport, source: CoveringTiles.SourceOptions(kind: .vector), walk: .mapboxGLJS)
        let view = CoverCamera(camera: camera, viewport: viewport)
        return GLJSCoverTests.paths(tiles.filter { !culling.keeps($0, camera: view) })
    }

    @Test func theDistanceIs78PercentThroughTheRangeOutFromTheCamera() throws {
        // The default fog: range [0.5, 10], each end 1.5 viewport heights farther.
        let standard = try #require(MapboxFogCulling(fog: JSONObject(), zoom: 12, pitch: 70))
        #expect(abs(standard.distance - 9.41) < 1e-9)
        #expect(abs((try #require(MapboxFogCulling(fog: Self.fog(#"{"range": [4, 4]}"#), zoom: 12, pitch: 70))).distance - 5.5) < 1e-9)
        // What keeps the fog from culling: a pitch short of 65°, a fog not quite opaque, a horizon
        // blend under 0.03, a range that ends before it starts.
        #expect(MapboxFogCulling(fog: JSONObject(), zoom: 12, pitch: 64.9) == nil)
        #expect(MapboxFogCulling(fog: JSONObject(), zoom: 12, pitch: 65) != nil)
        #expect(MapboxFogCulling(fog: Self.fog(#"{"color": "rgba(255, 255, 255, 0.999)"}"#), zoom: 12, pitch: 80) == nil)
        #expect(MapboxFogCulling(fog: Self.fog(#"{"horizon-blend": 0.029}"#), zoom: 12, pitch: 80) == nil)
        #expect(MapboxFogCulling(fog: Self.fog(#"{"horizon-blend": 0.03}"#), zoom: 12, pitch: 80) != nil)
        #expect(MapboxFogCulling(fog: Self.fog(#"{"range": [5, 4]}"#), zoom: 12, pitch: 80) == nil)
        // Read at the view's zoom: a horizon blend rising from 0.01 at zoom 10 to 0.05 at 14 culls from 12.
        let rising = Self.fog(#"{"horizon-blend": ["interpolate", ["linear"], ["zoom"], 10, 0.01, 14, 0.05]}"#)
        #expect(MapboxFogCulling(fog: rising, zoom: 12, pitch: 70) != nil && MapboxFogCulling(fog: rising, zoom: 11, pitch: 70) == nil)
        #expect(MapboxFogCulling(fog: Self.fog(#"{"range": "far"}"#), zoom: 12, pitch: 80) == nil, "a value that cannot be read culls nothing")
    }

    @Test func withTerrainAFarTileStaysWhenItRisesAboveTheHorizonLine() throws {
        // The line cuts the view only past about 69.68°: 0.0086 of its height at 70°, 0.3819 at 85°.
        #expect(MapboxFogCulling.horizonFromTop(CoverCamera(camera: Camera(center: Self.camera.center, zoom: 12, pitch: 69.6, maximumPitch: 85),
                                                            viewport: Self.viewport)) == 0)
        let steep = Camera(center: Self.camera.center, zoom: 12, pitch: 85, maximumPitch: 85)
        #expect(abs(MapboxFogCulling.horizonFromTop(CoverCamera(camera: steep, viewport: Self.viewport)) / 600 - 0.3819) < 0.0001)
        let culling = try #require(MapboxFogCulling(fog: Self.fog(#"{"range": [0.5, 3]}"#), zoom: 12, pitch: 85))
        let view = CoverCamera(camera: steep, viewport: Self.viewport)
        let transform = MercatorCoverTransform(camera: view, walk: .mapboxGLJS)
        func rising(_ top: Double) -> MapboxFogCulling.RisingTiles {
            MapboxFogCulling.RisingTiles(viewProjection: transform.viewProjection, camera: view, averageElevation: 0) { _ in top }
        }
        let tiles = CoveringTiles.tiles(camera: steep, viewport: Self.viewport, source: CoveringTiles.SourceOptions(kind: .vector), walk: .mapboxGLJS)
        let flat = tiles.filter { culling.keeps($0, camera: view) }
        #expect(flat.count < tiles.count)
        // At sea level only the far zoom-7 tile's corner rises above the line (10% below the true
        // horizon); 10 km up, every tile of the cover does.
        #expect(tiles.filter { culling.keeps($0, camera: view, rising: rising(0)) } == flat + [OverscaledTileID(overscaledZ: 7, wrap: 0, canonical: CanonicalTileID(z: 7, x: 20, y: 48))])
        #expect(tiles.filter { culling.keeps($0, camera: view, rising: rising(10_000)) } == tiles)
    }

    @Test func aCameraRaisedOnTerrainMeasuresTheFogInASmallerWorldTheMoreSoWithoutTheAverageElevation() throws {
        let culling = try #require(MapboxFogCulling(fog: Self.fog(#"{"range": [0.5, 3]}"#), zoom: 12, pitch: 70))
        let tiles = CoveringTiles.tiles(camera: Self.camera, viewport: Self.viewport, source: CoveringTiles.SourceOptions(kind: .vector), walk: .mapboxGLJS)
        let raised = CoverCamera(camera: Self.camera, viewport: Self.viewport, elevation: 2_000)
        let transform = MercatorCoverTransform(camera: raised, walk: .mapboxGLJS)
        func kept(average: Double) -> Int {
            let rising = MapboxFogCulling.RisingTiles(viewProjection: transform.viewProjection, camera: raised, averageElevation: average) { _ in 0 }
            return tiles.count { culling.keeps($0, camera: raised, rising: rising) }
        }
        let flat = tiles.count { culling.keeps($0, camera: CoverCamera(camera: Self.camera, viewport: Self.viewport)) }
        // The average elevation known, the world grows back towards the flat one's (not all the way:
        // 3.0.1 divides it by the circumference at the camera's Mercator y read as degrees).
        #expect(kept(average: 0) > kept(average: 2_000))
        #expect(kept(average: 2_000) >= flat)
    }

    @Test func theTilesDroppedAreThoseOf3_0_1() throws {
        // 3.0.1's own cases: 800×600 at pitch 70 over San Francisco, 17 tiles covered.
        #expect(CoveringTiles.tiles(camera: Self.camera, viewport: Self.viewport, source: CoveringTiles.SourceOptions(kind: .vector), walk: .mapboxGLJS).count == 17)
        #expect(Self.dropped(by: JSONObject()) == ["7/20/48"])
        #expect(Set(try #require(Self.dropped(by: Self.fog(#"{"range": [0.5, 3]}"#))))
                == ["10/163/394", "10/164/394", "10/162/394", "9/81/196", "9/82/196", "7/20/48"])
        let steep = Camera(center: Self.camera.center, zoom: 12, pitch: 85, maximumPitch: 85)
        #expect(Set(try #require(Self.dropped(by: JSONObject(), camera: steep))) == ["9/80/196", "7/20/48"])
    }

    @Test func aSteepMapboxGLJSLoadOfAStyleWithFogAsksForFewerTilesAndMapLibreForAll() async throws {
        let folder = try FixtureDirectory()
        let style = try folder.write("style.json", #"""
            {"version": 8, "fog": {"range": [0.5, 3]}, "sources": {"v": {"type": "vector", "tiles": ["tiles/{z}/{x}/{y}.pbf"], "maxzoom": 14}},
             "layers": [{"id": "water", "type": "fill", "source": "v", "source-layer": "water"}]}
            """#)
        let camera = Camera(center: LngLat(longitude: -122.42, latitude: 37.78), zoom: 12, bearing: 30, pitch: 75, maximumPitch: 85)
        let source = CoveringTiles.SourceOptions(kind: .vector, maxZoom: 14)
        let viewport = Viewport(width: 512, height: 512)
        let tile = try Array(Data(contentsOf: URL(fileURLWithPath: SampleStyle.folder + "/tiles/10/163/395.pbf")))
        for engineWalk in [CoveringTiles.Walk.mapboxGLJS, .maplibreGLJS] {
            for path in GLJSCoverTests.paths(CoveringTiles.tiles(camera: camera, viewport: viewport, source: source, walk: engineWalk)) {
                _ = try folder.write("tiles/\(path).pbf", tile)
            }
        }
        let covered = Set(GLJSCoverTests.paths(CoveringTiles.tiles(camera: camera, viewport: viewport, source: source, walk: .mapboxGLJS)))
        let culling = try #require(MapboxFogCulling(fog: Self.fog(#"{"range": [0.5, 3]}"#), zoom: 12, pitch: 75))
        let view = CoverCamera(camera: camera, viewport: viewport)
        let kept = Set(GLJSCoverTests.paths(CoveringTiles.tiles(camera: camera, viewport: viewport, source: source, walk: .mapboxGLJS).filter { culling.keeps($0, camera: view) }))
        #expect(kept.count < covered.count)
        let mapbox = await MapboxCoverTests.requestedTiles(style, camera: camera, engine: .mapboxGLJS)
        #expect(mapbox == kept, "\(mapbox.sorted())")
        let maplibre = await MapboxCoverTests.requestedTiles(style, camera: camera, engine: .maplibreGLJS)
        #expect(maplibre == Set(GLJSCoverTests.paths(CoveringTiles.tiles(camera: camera, viewport: viewport, source: source))), "MapLibre has no fog")
    }
}
