import Foundation
import Testing
@testable import MapSim

/// What the MLT decoder makes of broken input: a `LoadingError` naming the layer, column and stream,
/// never a crash, and no allocation a few bytes can make huge.
@Suite("MLTTile.Malformed")
struct MLTTileMalformedTests {
    /// `simple/point-boolean.mlt`: layer "layer", an id column, the geometry (stream 0 the geometry
    /// types at byte 24, stream 1 the vertices at byte 29) and a nullable boolean column "key".
    private func pointTile() throws -> [UInt8] { try MLTTileTests.bytes("simple/point-boolean.mlt") }

    private func message(_ bytes: [UInt8]) -> String? {
        do {
            _ = try MLTTile.decode(bytes)
            return nil
        } catch {
            #expect(error.code == .malformedResource)
            return error.message
        }
    }

    @Test func theFixtureDecodes() throws {
        let feature = try #require(try MLTTile.decode(try pointTile()).layer(named: "layer")?.features.first)
        #expect(feature.id == .number(1))
        #expect(feature.property("key") == .bool(true))
    }

    @Test func truncatedTilesGiveALoadingError() throws {
        for name in ["simple/polygon-boolean", "simple/multipolygon-boolean", "omt/11_1062_1368"] {
            let bytes = try MLTTileTests.bytes(name + ".mlt")
            for length in stride(from: 1, to: bytes.count, by: max(1, bytes.count / 300)) {
                #expect(message(Array(bytes[0..<length])) != nil, "\(name) cut at \(length) bytes")
            }
        }
    }

    @Test func aStreamLongerThanTheTileIsNamed() throws {
        var bytes = try pointTile()
        bytes[32] = 0x7F  // the vertex stream's byte length
        let text = try #require(message(bytes))
        #expect(text.contains("MLT layer \"layer\", column \"geometry\": stream 1 at byte 33 claims 127 bytes"), "\(text)")
    }

    @Test func aBlockLongerThanTheTileIsNamed() throws {
        var bytes = try pointTile()
        bytes[0] = 0x7F
        #expect(message(bytes) == "MLT tile: the block at byte 1 claims 127 bytes but only 46 remain (truncated?)")
    }

    @Test func unknownEncodingsAreNamed() throws {
        var physical = try pointTile()
        physical[30] = 0x43  // physical encoding 3 for the vertices
        #expect(message(physical) == "MLT layer \"layer\", column \"geometry\": stream 1 has unknown physical encoding 3")
        var logical = try pointTile()
        logical[30] = 0xC2  // logical technique 6
        #expect(message(logical) == "MLT layer \"layer\", column \"geometry\": stream 1 has unsupported logical encodings unknown (6) + none")
        var kind = try pointTile()
        kind[29] = 0x1F  // data stream of dictionary type 15
        #expect(message(kind) == "MLT layer \"layer\", column \"geometry\": stream 1 has unknown stream type 0x1f")
        var bitmap = try pointTile()
        bitmap[42] = 0x22  // the boolean values as delta-coded varints
        #expect(message(bitmap) == "MLT layer \"layer\", column \"key\": stream 1 (plain data) is a bitmap encoded neither plain nor byte-RLE")
    }

    @Test func aBadGeometryIsNamed() throws {
        var bytes = try pointTile()
        bytes[28] = 9  // geometry type 9
        #expect(message(bytes) == "MLT layer \"layer\", column \"geometry\": feature 0 has unknown geometry type 9")
    }

    @Test func metadataFaultsAreNamed() {
        let points = MLTTestTile.points([(1, 2)])
        #expect(message(MLTTestTile.table("", columns: [MLTTestTile.column(4)], body: points)) == "MLT layer 0: the name is empty")
        #expect(message(MLTTestTile.table("a", extent: 0, columns: [MLTTestTile.column(4)], body: points)) == "MLT layer \"a\": the extent is 0")
        #expect(message(MLTTestTile.table("a", columns: [MLTTestTile.column(4), MLTTestTile.column(7)], body: points))
            == "MLT layer \"a\": unknown column type 7 at byte 8")
        #expect(message(MLTTestTile.table("a", columns: [MLTTestTile.column(16, "n")], body: MLTTestTile.int32s([1])))
            == "MLT layer \"a\": no geometry column")
        #expect(message(MLTTestTile.table("a", columns: [MLTTestTile.column(4), MLTTestTile.column(4)], body: points + points))
            == "MLT layer \"a\", column \"geometry\": is a second geometry column")
        #expect(message(MLTTestTile.table("a", columns: [MLTTestTile.column(4), MLTTestTile.column(16, "n")], body: points + MLTTestTile.int32s([1, 2])))
            == "MLT layer \"a\", column \"n\": has 2 values for the 1 features of the geometry column")
    }

    @Test func countsBeyondTheBytesAreRefusedBeforeAllocating() {
        // Two runs' worth of bytes that claim 2^31 points.
        let runs = MLTTestTile.stream(0x30, MLTTestTile.runLengthVarints, count: 2, extra: [1, 1 << 31], MLTTestTile.varint(1 << 31) + [0])
        let manyPoints = MLTTestTile.table("a", columns: [MLTTestTile.column(4)], body: MLTTestTile.varint(1) + runs)
        #expect(message(manyPoints) == "MLT layer \"a\", column \"geometry\": stream 0 (lengths) would decode 2147483648 values, more than a tile of this size may hold")
        // A varint stream that claims more values than it has bytes.
        let varints = MLTTestTile.stream(0x10, MLTTestTile.varints, count: 1_000_000, [1, 2, 3])
        let claims = MLTTestTile.table("a", columns: [MLTTestTile.column(4), MLTTestTile.column(18, "n")], body: MLTTestTile.points([(1, 2)]) + varints)
        #expect(message(claims) == "MLT layer \"a\", column \"n\": stream 0 (plain data) claims 1000000 varints in 3 bytes")
        // A present stream of a billion bits in two bytes of byte-RLE.
        let present = MLTTestTile.stream(0x00, 0x60, count: 1_000_000_000, [0x7F, 0xFF])
        let bits = MLTTestTile.table("a", columns: [MLTTestTile.column(4), MLTTestTile.column(17, "n")], body: MLTTestTile.points([(1, 2)]) + present)
        #expect(message(bits) == "MLT layer \"a\", column \"n\": stream 0 (present) would decode 1000000000 values, more than a tile of this size may hold")
        // FastPFOR that claims a million values.
        let fastPFOR = MLTTestTile.stream(0x10, 0x01, count: 1_000_000, [0, 0, 1, 0])
        let packed = MLTTestTile.table("a", columns: [MLTTestTile.column(4), MLTTestTile.column(18, "n")], body: MLTTestTile.points([(1, 2)]) + fastPFOR)
        #expect(message(packed) == "MLT layer \"a\", column \"n\": stream 0 (plain data) would decode 1000000 values, more than a tile of this size may hold")
    }

    @Test func mutatedTilesNeverCrash() throws {
        for name in ["simple/point-boolean", "simple/multipolygon-boolean", "synthetic/props_shared_dict_fsst", "synthetic/poly_multi_fpf_tes",
                     "synthetic/multipoint_morton_dictionary-rust"] {
            let original = try MLTTileTests.bytes(name + ".mlt")
            for index in original.indices {
                for value: UInt8 in [0, 1, 2, 0x7F, 0x80, 0xFF] where value != original[index] {
                    var bytes = original
                    bytes[index] = value
                    _ = try? MLTTile.decode(bytes)
                }
            }
        }
    }

    @Test func refusesGzipWithAClearMessage() {
        #expect(message([0x1F, 0x8B, 8, 0])?.contains("gzip-compressed") == true)
    }
}
