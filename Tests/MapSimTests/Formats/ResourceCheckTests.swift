import Foundation
import Testing
import MapSimJSON
import MapSimTesting
@testable import MapSim
@testable import MapSimStyle

/// What each engine accepts of a resource's bytes: glyph PBFs, PNG images; and what the loader
/// refuses of a style.
@Suite("Resource checks")
struct ResourceCheckTests {
    private func varint(_ value: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        return bytes + [UInt8(rest)]
    }

    /// A varint field.
    private func field(_ number: Int, _ value: UInt64) -> [UInt8] {
        [UInt8(number << 3)] + varint(value)
    }

    /// A length-delimited field.
    private func field(_ number: Int, bytes: [UInt8]) -> [UInt8] {
        [UInt8(number << 3 | 2)] + varint(UInt64(bytes.count)) + bytes
    }

    private func glyph(_ id: UInt64, bitmap: Int?, width: UInt64?, height: UInt64?, left: Bool = true) -> [UInt8] {
        var bytes = field(1, id)
        if let bitmap { bytes += field(2, bytes: Array(repeating: 0, count: bitmap)) }
        if let width { bytes += field(3, width) }
        if let height { bytes += field(4, height) }
        if left { bytes += field(5, 2) }
        return bytes + field(6, 4) + field(7, 12)
    }

    @Test func glyphsWithoutTheirSizeOrWithTheWrongBitmapAreNamedForEachEngine() throws {
        let glyphs = [glyph(32, bitmap: nil, width: nil, height: nil), glyph(33, bitmap: 3 * 4, width: 1, height: 2),
                      glyph(34, bitmap: 7 * 8, width: 1, height: 2), glyph(35, bitmap: nil, width: 0, height: 0, left: false), glyph(36, bitmap: nil, width: 0, height: 0)]
        let stack = field(1, bytes: Array("A".utf8)) + glyphs.flatMap { field(3, bytes: $0) }
        let set = try GlyphSet.decode(field(1, bytes: stack), range: 0...255)
        #expect(set.codePoints == [32, 33, 34, 35, 36])
        #expect(set.unsized == [GlyphSet.Flaw(codePoint: 32, reason: "no width and height", glJSMessage: "mismatched image size. expected: 0 but got: NaN")])
        #expect(set.mismatchedBitmaps == [GlyphSet.Flaw(codePoint: 33, reason: "a bitmap of 12 bytes for a 1×2 glyph", glJSMessage: "mismatched image size. expected: 12 but got: 56")])
        #expect(set.skippedByNative == [GlyphSet.Flaw(codePoint: 35, reason: "no left")])
    }

    @Test func aPNGMustDecodeWhole() throws {
        let png = try InputFile.read(SampleStyle.folder + "/sprite.png", limit: 1 << 20)
        let header = try PNGImage.validate(png)
        #expect(header.width > 0)
        var corrupt = png
        corrupt[corrupt.count - 20] ^= 0xFF
        #expect { try PNGImage.validate(corrupt) } throws: { "\($0)".contains("fails its CRC") || "\($0)".contains("does not inflate") }
        #expect { try PNGImage.validate(Array(png.prefix(png.count - 12))) } throws: { "\($0)".contains("without an IEND") }
        #expect { try PNGImage.validate(Array("not a png".utf8)) } throws: { "\($0)".contains("bad signature") }
        #expect(CRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082)
    }

    @Test func aPNGTooLargeToDecodeIsRefusedBeforeAnythingIsInflated() {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            let crc = CRC32.checksum(body)
            return withUnsafeBytes(of: UInt32(data.count).bigEndian, Array.init) + body + withUnsafeBytes(of: crc.bigEndian, Array.init)
        }
        func png(width: UInt32, height: UInt32, interlaced: UInt8) -> [UInt8] {
            let header = withUnsafeBytes(of: width.bigEndian, Array.init) + withUnsafeBytes(of: height.bigEndian, Array.init) + [16, 6, 0, 0, interlaced]
            return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
                + chunk("IEND", [])
        }
        // 2³¹-1 square at 64 bits a pixel: more bytes than an Int holds; 20,000 square: 3.2 GB.
        for image in [png(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF, interlaced: 0), png(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF, interlaced: 1),
                      png(width: 20_000, height: 20_000, interlaced: 0)] {
            #expect { try PNGImage.validate(image) } throws: { "\($0)".contains("too large to decode") }
        }
    }

    @Test func aDEMPNGDecodesToItsHeightsByItsEncoding() throws {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return withUnsafeBytes(of: UInt32(data.count).bigEndian, Array.init) + body + withUnsafeBytes(of: CRC32.checksum(body).bigEndian, Array.init)
        }
        /// An 8-bit RGB image of these filtered rows (each its filter byte first).
        func png(width: UInt32, height: UInt32, rows: [UInt8]) throws -> [UInt8] {
            let header = withUnsafeBytes(of: width.bigEndian, Array.init) + withUnsafeBytes(of: height.bigEndian, Array.init) + [8, 2, 0, 0, 0]
            let data = try #require(ZlibCodec.deflate(rows))
            return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", data) + chunk("IEND", [])
        }
        // Row 0 unfiltered; row 1 filtered "up": its second pixel's green is 5 more than above.
        let image = try png(width: 2, height: 2, rows: [0, 1, 134, 160, 1, 139, 80, 2, 0, 0, 0, 0, 5, 0])
        let mapbox = try DEMTile.decode(png: image, encoding: .mapbox)
        #expect(mapbox.dimension == 2)
        for (height, expected) in zip(mapbox.heights, [0, 120, 0, 248.0]) { #expect(abs(height - expected) < 1e-6, "\(mapbox.heights)") }
        #expect(abs(mapbox.minimum) < 1e-6 && abs(mapbox.maximum - 248) < 1e-6)
        // Terrarium: R·256 + G + B/256 − 32768.
        let terrarium: Double = 256 + 144 + 80.0 / 256 - 32768
        #expect(try DEMTile.decode(png: image, encoding: .terrarium).height(x: 1, y: 1) == terrarium)
        #expect { try DEMTile.decode(png: try png(width: 2, height: 1, rows: [0, 1, 2, 3, 4, 5, 6]), encoding: .mapbox) } throws: {
            "\($0)".contains("not square")
        }
        #expect { try DEMTile.decode(png: Array(image.prefix(image.count - 20)), encoding: .mapbox) } throws: { _ in true }
    }

    @Test func theLoaderRefusesEveryBadValueEachWithItsPath() {
        let style = #"{"version": 8, "sources": {"a": {"type": "vector", "tiles": ["x/{z}"], "maxzoom": 1000000}, "b": {"type": "raster", "tiles": ["y/{z}"], "tileSize": 0}, "c": {"type": "vector"}}, "layers": [{"id": "l", "type": "line", "source": "a", "source-layer": "s", "minzoom": 99}, {"id": "m", "type": "fill", "source": "c", "source-layer": "s"}]}"#
        #expect(Style.refusals(Array(style.utf8)).map(\.description) == [
            "sources.a.maxzoom: 1000000 is outside 0...30",
            "sources.b.tileSize: 0 is outside 1...8192",
            "sources.c: a vector source needs \"url\" or \"tiles\"",
            "layers[0].minzoom: 99 is outside 0...24",
        ])
        #expect(Style.refusals(Array(#"{"version": 8, "sources": {}, "layers": []}"#.utf8)).isEmpty)
        #expect(Style.refusals(Array("{".utf8)).count == 1)
    }
}
