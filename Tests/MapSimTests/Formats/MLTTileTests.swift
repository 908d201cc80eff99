import Foundation
import MapSimJSON
import MapSimStyle
import Testing
@testable import MapSim

/// The MapLibre Tile decoder against the spec's own fixtures (`Fixtures/MLT/README.md`): tiles
/// converted from MVT decode as their originals do, the spec's synthetic tiles as the features
/// their JSON lists.
@Suite("MLTTile")
struct MLTTileTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/MLT").path

    static func tiles(in subfolder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + subfolder)) ?? []
        return names.filter { $0.hasSuffix(".mlt") }.map { subfolder + "/" + $0.dropLast(4) }.sorted()
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path)))
    }

    static func decode(_ name: String) throws -> VectorTile {
        try MLTTile.decode(try bytes(name + ".mlt"))
    }

    @Test("converted tiles decode as their MVT originals", arguments: tiles(in: "simple") + tiles(in: "omt"))
    func decodesAsItsOriginal(_ name: String) throws {
        let decoded = try Self.decode(name)
        let original = try VectorTile.decode(try Self.bytes(name + ".mvt"))
        let differences = MLTFixtureComparison.differences(decoded, original)
        // The converter kept OpenMapTiles' 64-bit ids (negative for relations) to their low 32 bits.
        let unexplained = differences.filter { $0.artifact != .idNarrowedTo32Bits }
        #expect(unexplained.isEmpty, "\(unexplained.count) differences: \(unexplained.prefix(5))")
        #expect(decoded.layers.contains { !$0.features.isEmpty })
    }

    @Test("synthetic tiles decode as their expected JSON", arguments: tiles(in: "synthetic"))
    func decodesAsTheExpectedFeatures(_ name: String) throws {
        let decoded = try Self.decode(name)
        let expected = try MLTFixtureComparison.tile(fromExpectedJSON: try Self.bytes(name + ".json"))
        let differences = MLTFixtureComparison.differences(decoded, expected)
        #expect(differences.isEmpty, "\(differences.prefix(5))")
    }

    @Test func fixturesAreThere() {
        #expect(Self.tiles(in: "simple").count == 6)
        #expect(Self.tiles(in: "omt").count == 3)
        #expect(Self.tiles(in: "synthetic").count > 130)
    }

    @Test func multiGeometriesComeAsMVTGivesThem() throws {
        let point = { (x: Double, y: Double) in TilePoint(x: x, y: y) }
        let multipoint = try #require(try Self.decode("synthetic/multipoint").layers.first?.features.first)
        #expect(multipoint.geometryType == .point)
        #expect(multipoint.geometry(extent: 80) == [[point(11, 52)], [point(71, 72)], [point(61, 22)]])
        let multipolygon = try #require(try Self.decode("synthetic/poly_multi").layers.first?.features.first)
        #expect(multipolygon.geometryType == .polygon)
        #expect(multipolygon.geometry(extent: 80) == [[point(11, 52), point(71, 72), point(61, 22), point(11, 52)],
                                                      [point(23, 34), point(73, 4), point(13, 24), point(23, 34)]])
        let multiline = try #require(try Self.decode("synthetic/multiline").layers.first?.features.first)
        #expect(multiline.geometryType == .lineString)
        #expect(multiline.geometry(extent: 80).count == 2)
    }

    @Test func floatColumnsWidenAsAFloat32ArrayDoes() throws {
        let feature = try #require(try Self.decode("synthetic/prop_f32").layers.first?.features.first)
        #expect(feature.property("val") == .number(Double(Float(3.14))))
        let nan = try #require(try Self.decode("synthetic/prop_f32_nan").layers.first?.features.first)
        #expect(nan.property("val")?.numberValue?.isNaN == true)
    }

    @Test func nullValuesAreLeftOut() throws {
        let features = try #require(try Self.decode("synthetic/prop_str_null_val").layers.first?.features)
        #expect(features.map { $0.property("val") } == [nil, .string("42")])
        #expect(features[0].properties.keys.isEmpty)
    }

    @Test func sharedDictionaryFieldsAreNamedAfterTheStructAndTheField() throws {
        let feature = try #require(try Self.decode("synthetic/props_shared_dict").layers.first?.features.first)
        #expect(feature.properties.keys == ["name:de", "name:en"])
    }

    @Test func propertiesKeepTheColumnOrder() throws {
        let tile = MLTTestTile.table("pois", columns: [MLTTestTile.column(4), MLTTestTile.column(16, "zeta"), MLTTestTile.column(16, "alpha")],
                                     body: MLTTestTile.points([(1, 2)]) + MLTTestTile.int32s([-3]) + MLTTestTile.int32s([7]))
        let feature = try #require(try MLTTile.decode(tile).layer(named: "pois")?.features.first)
        #expect(feature.properties.keys == ["zeta", "alpha"])
        #expect(feature.property("zeta") == .number(-3))
        #expect(feature.id == nil)
        #expect(feature.geometry(extent: 4096) == [[TilePoint(x: 1, y: 2)]])
    }

    @Test func skipsBlocksOfOtherTags() throws {
        // Tag 2 holds tables with nested properties, which MapLibre GL JS 5.24 skips too.
        let table = MLTTestTile.table("pois", columns: [MLTTestTile.column(4)], body: MLTTestTile.points([(1, 2), (3, 4)]))
        let tile = try MLTTile.decode(MLTTestTile.block(tag: 2, [1, 2, 3]) + table)
        #expect(tile.layers.map(\.name) == ["pois"])
        #expect(tile.layers[0].features.count == 2)
    }

    @Test func decodesAnEmptyTile() throws {
        #expect(try MLTTile.decode([]).layers.isEmpty)
    }
}
