import Testing
import MapSimJSON
import MapSimStyle
import MapSimTesting
@testable import MapSim

/// A tile's glyphs and images, worked out from its features as the SDKs' tile layout does.
@Suite("TileRequirements")
struct TileRequirementsTests {
    private func tile() -> [UInt8] {
        var encoder = VectorTileEncoder()
        encoder.addLayer("place", features: [
            .init(geometryType: 1, parts: [[(100, 100)]], properties: [("name", .string("Zürich")), ("class", .string("city")), ("rank", .number(1))]),
            .init(geometryType: 1, parts: [[(200, 200)]], properties: [("name", .string("Москва")), ("class", .string("town")), ("rank", .number(2))]),
            .init(geometryType: 1, parts: [[(300, 300)]], properties: [("name", .string("東京")), ("class", .string("village")), ("rank", .number(9))]),
            .init(geometryType: 1, parts: [[(5000, 5000)]], properties: [("name", .string("القاهرة")), ("class", .string("city")), ("rank", .number(3))]),
        ])
        encoder.addLayer("park", features: [
            .init(geometryType: 3, parts: [[(0, 0), (10, 0), (10, 10)]], properties: [("pattern", .string("stripes"))]),
        ])
        return encoder.bytes
    }

    private func style(_ layers: String) throws -> Style {
        try Style.parse("""
        {"version": 8, "sources": {"s": {"type": "vector", "tiles": ["https://h/{z}/{x}/{y}.pbf"]}}, "layers": \(layers)}
        """)
    }

    @Test func filtersFormatAndTransformDecideTheGlyphs() throws {
        let style = try style("""
        [{"id": "cities", "type": "symbol", "source": "s", "source-layer": "place", "filter": ["==", "class", "city"],
          "layout": {"text-field": "{name}", "text-font": ["A"], "text-transform": "uppercase"}},
         {"id": "towns", "type": "symbol", "source": "s", "source-layer": "place", "filter": ["==", ["get", "class"], "town"],
          "layout": {"text-field": ["format", "#", {}, ["get", "name"], {"text-font": ["literal", ["B", "C"]]}], "text-font": ["A"]}},
         {"id": "late", "type": "symbol", "source": "s", "source-layer": "place", "minzoom": 11,
          "layout": {"text-field": "{name}", "text-font": ["Late"]}},
         {"id": "hidden", "type": "symbol", "source": "s", "source-layer": "place",
          "layout": {"visibility": "none", "text-field": "{name}", "text-font": ["Hidden"]}}]
        """)
        let requirements = try TileRequirements(vectorTile: tile(), style: style, source: "s", tile: CanonicalTileID(z: 10, x: 0, y: 0))
        // ZÜRICH is in range 0; Arabic is shaped to presentation forms (0xFE00); Cyrillic in font stack B,C.
        #expect(requirements.glyphRanges == ["A": [0, 0xFE00], "B,C": [0x400]])
        let later = try TileRequirements(vectorTile: tile(), style: style, source: "s", tile: CanonicalTileID(z: 11, x: 0, y: 0))
        #expect(later.glyphRanges["Late"] == [0, 0x400, 0x4E00, 0x6700, 0xFE00])
        #expect(later.glyphRanges["Hidden"] == nil)
    }

    @Test func iconsAndPatternsAreImagesPerFeature() throws {
        let style = try style("""
        [{"id": "icons", "type": "symbol", "source": "s", "source-layer": "place",
          "layout": {"icon-image": ["coalesce", ["image", ["concat", ["get", "class"], "-icon"]], ["image", "dot"]]}},
         {"id": "parks", "type": "fill", "source": "s", "source-layer": "park", "paint": {"fill-pattern": ["get", "pattern"]}}]
        """)
        let none = try TileRequirements(vectorTile: tile(), style: style, source: "s", tile: CanonicalTileID(z: 10, x: 0, y: 0))
        // No image is available: coalesce falls through and reports the first name it tried.
        #expect(none.images == ["city-icon", "town-icon", "village-icon", "stripes"])
        let some = try TileRequirements(vectorTile: tile(), style: style, source: "s", tile: CanonicalTileID(z: 10, x: 0, y: 0),
                                        availableImages: ["town-icon", "dot"])
        #expect(some.images == ["dot", "town-icon", "stripes"])
        #expect(some.glyphRanges.isEmpty)
    }

    @Test func aTruncatedTileIsAnError() throws {
        let style = try style("[]")
        #expect(throws: LoadingError.self) {
            try TileRequirements(vectorTile: Array(tile().dropLast(3)), style: style, source: "s", tile: CanonicalTileID(z: 1, x: 0, y: 0))
        }
    }
}
