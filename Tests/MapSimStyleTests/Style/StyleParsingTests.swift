import Testing
import MapSimTesting
@testable import MapSimStyle

@Suite("Style.Parsing")
struct StyleParsingTests {
    @Test func parsesTheSampleStyle() throws {
        let style = try Style.parse(try SampleStyle.json())
        #expect(style.name == "Mapsim City")
        #expect(style.center == LngLat(longitude: -122.4, latitude: 37.8))
        #expect(style.zoom == 10)
        #expect(style.sprites == [SpriteSource(id: "default", url: "sprite")])
        #expect(style.glyphs == "glyphs/{fontstack}/{range}.pbf")
        #expect(style.sources.map(\.id) == ["city"])
        #expect(style.sources[0].kind == .vector)
        #expect(style.sources[0].url == "tiles.json")
        #expect(style.layers.count == 8)
        let pois = try #require(style.layers.first { $0.id == "pois" })
        #expect(pois.kind == .symbol && pois.sourceLayer == "pois")
        #expect(pois.iconImage == "marker" && pois.hasText && pois.textFont == ["Mapsim Sans Regular"])
        #expect(style.transition == StyleTransition(duration: 300, delay: 0))
    }

    @Test func readsEverySourceTypeAndSpriteArrays() throws {
        let style = try Style.parse("""
        {"version": 8, "sprite": [{"id": "default", "url": "a"}, {"id": "extra", "url": "b"}],
         "transition": {"duration": 0},
         "sources": {
           "v": {"type": "vector", "tiles": ["t/{z}/{x}/{y}"], "minzoom": 2, "maxzoom": 9, "bounds": [-10, -5, 10, 5], "scheme": "tms"},
           "r": {"type": "raster", "url": "r.json", "tileSize": 256},
           "d": {"type": "raster-dem", "tiles": ["d/{z}/{x}/{y}.png"]},
           "g": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}},
           "u": {"type": "geojson", "data": "data.geojson"},
           "i": {"type": "image", "url": "i.png", "coordinates": [[0,1],[1,1],[1,0],[0,0]]},
           "m": {"type": "video", "urls": ["m.mp4"], "coordinates": [[0,1],[1,1],[1,0],[0,0]]}
         },
         "layers": [{"id": "x", "type": "raster", "source": "r", "layout": {"visibility": "none"}, "paint": {"raster-fade-duration": 100}}]}
        """)
        #expect(style.sprites.map(\.id) == ["default", "extra"])
        #expect(style.transition.duration == 0)
        #expect(style.sources.map(\.kind) == [.vector, .raster, .rasterDEM, .geojson, .geojson, .image, .video])
        let vector = style.sources[0]
        #expect(vector.minZoom == 2 && vector.maxZoom == 9 && vector.scheme == .tms)
        #expect(vector.bounds == LngLatBounds(west: -10, south: -5, east: 10, north: 5))
        #expect(style.sources[1].tileSize == 256)
        #expect(style.sources[3].inlineData != nil && style.sources[4].url == "data.geojson")
        #expect(style.sources[6].videoURLs == ["m.mp4"])
        #expect(style.layers[0].isVisible == false && style.layers[0].rasterFadeDuration == 100)
    }

    @Test(arguments: [
        (#"[]"#, "expected an object, found array"),
        (#"{"sources": {}, "layers": []}"#, "missing required property \"version\""),
        (#"{"version": 7, "sources": {}, "layers": []}"#, "version: style version must be 8"),
        (#"{"version": 8, "layers": []}"#, "missing required property \"sources\""),
        (#"{"version": 8, "sources": {"a": {"type": "vectr", "url": "x"}}, "layers": []}"#,
         "sources.a.type: \"vectr\" is not one of \"vector\", \"raster\", \"raster-dem\", \"geojson\", \"image\", \"video\""),
        (#"{"version": 8, "sources": {"a": {"type": "vector"}}, "layers": []}"#, "sources.a: a vector source needs \"url\" or \"tiles\""),
        (#"{"version": 8, "sources": {"a": {"type": "vector", "tiles": [3]}}, "layers": []}"#, "sources.a.tiles[0]: expected a string, found number"),
        (#"{"version": 8, "sources": {"a": {"type": "raster", "url": "x", "bounds": [1, 2, 3]}}, "layers": []}"#,
         "sources.a.bounds: expected [west, south, east, north], found 3 values"),
        (#"{"version": 8, "sources": {}, "layers": [{"id": "a", "type": "fill", "source": "nope"}]}"#, "layers[0]: source \"nope\" not found"),
        (#"{"version": 8, "sources": {}, "layers": [{"id": "a", "type": "background"}, {"id": "a", "type": "background"}]}"#,
         "layers[1].id: duplicate layer id \"a\""),
        (#"{"version": 8, "sources": {"v": {"type": "vector", "url": "x"}}, "layers": [{"id": "a", "type": "fill", "source": "v"}]}"#,
         "layers[0]: layer \"a\" must specify a \"source-layer\" of vector source \"v\""),
        (#"{"version": 8, "sources": {}, "layers": [{"id": "a", "type": "background", "minzoom": 30}]}"#, "layers[0].minzoom: 30 is outside 0...24"),
        (#"{"version": 8, "sources": {}, "layers": [], "sprite": [{"id": "x"}]}"#, "sprite[0]: missing required property \"url\""),
        ("{\"version\": 8,\n \"sources\": {}\n \"layers\": []}", "the style is not valid JSON: line 3, column 2: expected ',' or '}' in an object"),
        ("\u{FEFF}{\"version\": 8, \"sources\": {}, \"layers\": []}",
         "the style is not valid JSON: line 1, column 1: unexpected character byte 0xEF, expected a value (it begins with a UTF-8 byte order mark, as some editors save files: save it without one)"),
        ("\n  <!DOCTYPE html><html><title>Sign in</title></html>",
         "the style is not valid JSON: line 2, column 3: unexpected character '<', expected a value (it begins with '<': an HTML page — a sign-in page, an error page, a web app's index — not JSON)"),
    ])
    func namesWhatIsWrongAndWhere(json: String, message: String) {
        #expect(throws: StyleError.self) { try Style.parse(json) }
        do {
            _ = try Style.parse(json)
        } catch {
            #expect(error.description == message)
        }
    }
}

@Suite("TileJSON")
struct TileJSONTests {
    @Test func parsesAndTheStyleOverridesIt() throws {
        let tileJSON = try TileJSON.parse(Array(#"{"tiles": ["a/{z}/{x}/{y}"], "minzoom": 1, "maxzoom": 12, "bounds": [-1, -1, 1, 1], "vector_layers": [{"id": "roads"}]}"#.utf8))
        #expect(tileJSON.minZoom == 1 && tileJSON.maxZoom == 12 && tileJSON.vectorLayers == ["roads"])
        let overridden = tileJSON.overridden(by: StyleSource(id: "s", kind: .vector, url: "x", maxZoom: 8, scheme: .tms))
        #expect(overridden.maxZoom == 8 && overridden.minZoom == 1 && overridden.scheme == .tms)
    }

    @Test(arguments: [
        (#"{"tiles": []}"#, "tiles: expected at least one tile URL"),
        (#"{"name": "x"}"#, "TileJSON has no \"tiles\""),
        (#"{"tiles": ["a"], "minzoom": 5, "maxzoom": 2}"#, "minzoom: minzoom 5 is greater than maxzoom 2"),
        (#"{"tiles": ["a"], "scheme": "wmts"}"#, "scheme: \"wmts\" is not one of \"xyz\", \"tms\""),
        (#"{"tiles": ["a"]"#, "TileJSON is not valid JSON: line 1, column 16: expected ',' or '}' in an object"),
        ("<html>404</html>", "TileJSON is not valid JSON: line 1, column 1: unexpected character '<', expected a value (it begins with '<': an HTML page — a sign-in page, an error page, a web app's index — not JSON)"),
    ])
    func rejectsBrokenTileJSON(json: String, message: String) {
        do {
            _ = try TileJSON.parse(Array(json.utf8))
            Issue.record("expected an error for \(json)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func aCameraOutOfRangeParsesWithAWarningPerField() throws {
        let style = try Style.parse(Array(#"{"version": 8, "center": [200, 89], "zoom": -5, "pitch": 89, "bearing": -30, "sources": {}, "layers": []}"#.utf8))
        #expect(style.center == LngLat(longitude: 200, latitude: 89) && style.zoom == -5 && style.pitch == 89 && style.bearing == -30)
        #expect(style.warnings == [
            "center: longitude 200.0 is outside -180...180; the map wraps it",
            "center: latitude 89.0 is beyond ±85.0511287798066; the map clamps it",
            "zoom: -5.0 is outside 0...25.5; the map clamps it",
            "pitch: 89.0 is outside 0...60.0; the map clamps it",
        ])
        #expect(try Style.parse(Array(#"{"version": 8, "zoom": 3, "sources": {}, "layers": []}"#.utf8)).warnings.isEmpty)
    }

    @Test func aProjectionIsNamedByTypeInMapLibresSpecAndByNameInMapboxs() throws {
        func projection(_ member: String, _ flavor: StyleSpecFlavor) throws -> Style {
            try Style.parse(Array(#"{"version": 8, "projection": \#(member), "sources": {}, "layers": []}"#.utf8), flavor: flavor)
        }
        #expect(try projection(#"{"type": "globe"}"#, .maplibre).projection == .globe)
        #expect(try projection(#"{"name": "globe"}"#, .maplibre).projection == .mercator, "MapLibre reads no name")
        #expect(try projection(#"{"name": "globe"}"#, .mapbox).projection == .globe)
        let albers = try projection(#"{"name": "albers", "center": [-96, 37.5], "parallels": [29.5, 45.5]}"#, .mapbox)
        #expect(albers.projection == .mercator && albers.warnings == [#"projection: "albers" is covered as mercator (mapsim models Mercator and the globe)"#])
        #expect(try projection(#"{"name": "mercator"}"#, .mapbox).warnings.isEmpty)
    }

    @Test func legacyRefLayersTakeTheirParentsTypeSourceZoomsFilterAndLayout() throws {
        let style = try Style.parse(Array(#"""
        {"version": 8, "sources": {"v": {"type": "vector", "url": "https://h/v.json"}},
         "layers": [
           {"id": "roads", "type": "line", "source": "v", "source-layer": "road", "minzoom": 5, "maxzoom": 16,
            "layout": {"visibility": "none"}, "paint": {"line-color": "red"}},
           {"id": "roads-casing", "ref": "roads", "type": "fill", "paint": {"line-width": 3}},
           {"id": "labels", "ref": "pois"},
           {"id": "pois", "type": "symbol", "source": "v", "source-layer": "poi", "layout": {"text-field": "{name}"}}
         ]}
        """#.utf8))
        let casing = style.layers[1]
        #expect(casing.id == "roads-casing" && casing.kind == .line && casing.source == "v" && casing.sourceLayer == "road")
        #expect(casing.minZoom == 5 && casing.maxZoom == 16 && !casing.isVisible)
        // A ref may name a later layer.
        #expect(style.layers[2].kind == .symbol && style.layers[2].hasText)
        #expect(throws: StyleError(.invalidValue, path: "layers[1].ref", message: "layer \"nowhere\" not found")) {
            try Style.parse(Array(#"{"version": 8, "sources": {}, "layers": [{"id": "a", "type": "background"}, {"id": "b", "ref": "nowhere"}]}"#.utf8))
        }
    }

    @Test func aStyleUsesGlobalStateOnlyWhereItReadsIt() throws {
        func uses(_ layer: String, state: String = "{}") throws -> Bool {
            let json = #"{"version": 8, "state": \#(state), "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": [\#(layer)]}"#
            return try Style.parse(json, flavor: .mapbox).usesGlobalState
        }
        // Mapbox's Standard style hides its labels by config: no global state there.
        #expect(try !uses(#"{"id": "a", "type": "symbol", "source": "s", "layout": {"visibility": ["case", ["config", "show"], "visible", "none"]}}"#))
        #expect(try uses(#"{"id": "a", "type": "symbol", "source": "s", "layout": {"visibility": ["case", ["global-state", "show"], "visible", "none"]}}"#))
        #expect(try uses(#"{"id": "a", "type": "circle", "source": "s", "paint": {"circle-color": ["case", ["global-state", "dark"], "black", "white"]}}"#))
        #expect(try uses(#"{"id": "a", "type": "circle", "source": "s", "filter": ["==", ["get", "k"], ["global-state", "k"]]}"#))
        #expect(try uses(#"{"id": "a", "type": "circle", "source": "s"}"#, state: #"{"k": {"default": 1}}"#))
    }
}
