import Foundation
import Testing
import MapSimJSON
import MapSimStyle
import MapSimTesting
@testable import MapSim

/// Mapbox GL JS 3.0.1's cover (`CoveringTiles.Walk.mapboxGLJS`) against what it requested in headless
/// Chromium of a style whose every tile exists (Fixtures/MapboxCover, made by
/// scripts/make-mapbox-cover-goldens.py): a vector source of 512 px tiles and a raster one of 256 px
/// tiles, at 19 cameras — flat, rotated (the separating axes), pitched past 60° to 85° (Mapbox's
/// split by distance and its far plane), zoom 0.5 to 14.45 — and, with `"projection": {"name":
/// "globe"}`, at 12 more from zoom 0 to 6.5 (its own globe cover below zoom 6, Mercator's above).
@Suite("Mapbox GL JS's cover")
struct MapboxCoverTests {
    static let cases = recordings("flat")
    static let globeCases = recordings("globe")

    static func recordings(_ name: String) -> [GLJSCoverTests.Case] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/MapboxCover/\(name).json").path
        guard let data = FileManager.default.contents(atPath: path), let json = try? JSONParser.parse(Array(data)) else { return [] }
        return (json["cameras"]?.arrayValue ?? []).map { GLJSCoverTests.Case(json: $0) }
    }

    @Test func everyCameraIsThere() {
        #expect(Self.cases.count == 19 && Self.globeCases.count == 12)
    }

    @Test(arguments: globeCases)
    func theCoverOnTheGlobeIsMapboxGLJSs(_ recorded: GLJSCoverTests.Case) {
        for source in recorded.sources {
            let tiles = CoveringTiles.tiles(camera: recorded.camera, viewport: recorded.viewport, projection: .globe, source: source.options, walk: .mapboxGLJS)
            #expect(GLJSCoverTests.paths(tiles) == recorded.recorded(source.id), "source \(source.id)")
        }
    }

    @Test(arguments: cases)
    func theCoverIsMapboxGLJSs(_ recorded: GLJSCoverTests.Case) {
        for source in recorded.sources {
            let tiles = CoveringTiles.tiles(camera: recorded.camera, viewport: recorded.viewport, source: source.options, walk: .mapboxGLJS)
            #expect(GLJSCoverTests.paths(tiles) == recorded.recorded(source.id), "source \(source.id)")
        }
    }

    @Test func mapLibresGlobeIsAnotherCover() {
        // MapLibre GL JS's globe (to zoom 12) takes other tiles at 10 of the 12 globe views.
        let differing = Self.globeCases.filter { recorded in
            recorded.sources.contains { source in
                let tiles = CoveringTiles.tiles(camera: recorded.camera, viewport: recorded.viewport, projection: .globe, source: source.options)
                return GLJSCoverTests.paths(tiles) != recorded.recorded(source.id)
            }
        }
        #expect(differing.count >= 9, "\(differing.map(\.description))")
    }

    @Test func aMapboxGlobeStyleLoadsWithTheGlobesTilesInMapboxGLJSFlatInMapLibreNativeAndNotInMapLibreGLJS() async throws {
        let folder = try FixtureDirectory()
        let style = try folder.write("style.json", #"""
            {"version": 8, "projection": {"name": "globe"}, "sources": {"v": {"type": "vector", "tiles": ["tiles/{z}/{x}/{y}.pbf"], "maxzoom": 14}},
             "layers": [{"id": "water", "type": "fill", "source": "v", "source-layer": "water"}]}
            """#)
        let camera = Camera(center: LngLat(longitude: 139.7, latitude: 35.7), zoom: 3.4, bearing: -60, pitch: 40)
        let source = CoveringTiles.SourceOptions(kind: .vector, maxZoom: 14)
        let viewport = Viewport(width: 512, height: 512)
        let globe = Set(GLJSCoverTests.paths(CoveringTiles.tiles(camera: camera, viewport: viewport, projection: .globe, source: source, walk: .mapboxGLJS)))
        let flat = Set(GLJSCoverTests.paths(CoveringTiles.tiles(camera: camera, viewport: viewport, source: source)))
        #expect(globe != flat)
        // Every tile exists, so no parent is asked for in place of one.
        let tile = try Array(Data(contentsOf: URL(fileURLWithPath: SampleStyle.folder + "/tiles/10/163/395.pbf")))
        for path in globe.union(flat) { _ = try folder.write("tiles/\(path).pbf", tile) }
        let mapbox = await Self.requestedTiles(style, camera: camera, engine: .mapboxGLJS)
        #expect(mapbox == globe, "Mapbox reads the projection's name: \(mapbox.sorted())")
        // MapLibre's spec has no `name`: MapLibre GL JS 5.24.0 refuses the style ("name: unknown
        // property \"name\"", one request, measured in Chromium); MapLibre Native loads it flat.
        #expect(await Self.requestedTiles(style, camera: camera, engine: .maplibreGLJS).isEmpty)
        #expect(!(await Self.requestedTiles(style, camera: camera, engine: .maplibreNative)).isEmpty)
    }

    /// The tiles (`z/x/y` under `tiles/`) a map of `engine` asks for when it loads the style file
    /// `style` at `camera` (its pitch allowed) and goes idle.
    static func requestedTiles(_ style: String, camera: Camera, engine: Engine) async -> Set<String> {
        let map = Map(backends: .only(FileResourceLoader(assetRoot: "/")), options: Map.Options(engine: engine, maximumPitch: camera.maximumPitch))
        let recorder = EventRecorder(map)
        await map.setCamera(CameraOptions(center: camera.center, zoom: camera.zoom, bearing: camera.bearing, pitch: camera.pitch))
        await map.setStyleURI(URL(fileURLWithPath: style).absoluteString)
        _ = await map.run(until: .mapIdle, timeout: .seconds(30))
        return Set(recorder.payloads(of: MapEvents.resourceRequest).compactMap { event in
            event.request.url.range(of: "/tiles/").map { String(event.request.url[$0.upperBound...].dropLast(4)) }
        })
    }

    @Test func mapLibresWalkTakesTilesMapboxsLeavesOut() {
        // The same views under MapLibre GL JS's walk: 11 of the 19 take other tiles (rotated,
        // pitched and steep views), so the two walks are not one rule by two names.
        let differing = Self.cases.filter { recorded in
            recorded.sources.contains { source in
                let tiles = CoveringTiles.tiles(camera: recorded.camera, viewport: recorded.viewport, source: source.options)
                return Set(GLJSCoverTests.paths(tiles)) != Set(recorded.recorded(source.id))
            }
        }
        #expect(differing.count >= 10, "\(differing.map(\.description))")
    }
}
