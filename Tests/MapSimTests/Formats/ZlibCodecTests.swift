import Foundation
import Testing
@testable import MapSim

/// Deflating whole bodies (libdeflate) into what MapLibre Native and any zlib read back.
@Suite("zlib and gzip bodies")
struct ZlibCodecTests {
    /// A vector tile's worth of bytes: repetitive enough to shrink, varied enough not to be trivial.
    private static func body(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { index in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return index % 3 == 0 ? UInt8(truncatingIfNeeded: state >> 59) : UInt8(truncatingIfNeeded: index / 7)
        }
    }

    @Test(arguments: [0, 1, 996, 32_739, 300_000])
    func aDeflatedBodyInflatesBackInBothFormats(count: Int) throws {
        let body = Self.body(count: count, seed: UInt64(count))
        for format in [ZlibCodec.Format.zlib, .gzip] {
            let deflated = try #require(ZlibCodec.deflate(body, format: format))
            #expect(try ZlibCodec.inflate(deflated) == body, "\(format), \(count) bytes")
            if count > 1_000 { #expect(deflated.count < body.count, "\(format), \(count) bytes") }
        }
    }

    /// MapLibre Native takes a row for compressed by its first two bytes (`util::is_compressed`):
    /// gzip's magic number, or the zlib header of the default level, 78 9C — which a level other
    /// than zlib's default would not write.
    @Test func theHeadersAreTheOnesMapLibreRecognizes() throws {
        let body = Self.body(count: 5_000, seed: 7)
        let zlib = try #require(ZlibCodec.deflate(body))
        #expect(Array(zlib.prefix(2)) == [0x78, 0x9C])
        #expect(ZlibCodec.isCompressed(zlib))
        let gzip = try #require(ZlibCodec.deflate(body, format: .gzip))
        #expect(ZlibCodec.isGzip(gzip) && ZlibCodec.isCompressed(gzip))
        #expect(!ZlibCodec.isCompressed(body))
    }

    /// Compressors are shared between threads one at a time: bodies deflated at once each come back whole.
    @Test func bodiesDeflatedAtOnceOnManyThreadsEachInflateToThemselves() async throws {
        let bodies = (0..<64).map { Self.body(count: 2_000 + 97 * $0, seed: UInt64($0)) }
        let deflated = await withTaskGroup(of: (Int, [UInt8]?).self) { group in
            for (index, body) in bodies.enumerated() { group.addTask { (index, ZlibCodec.deflate(body, format: index % 2 == 0 ? .zlib : .gzip)) } }
            var results = [[UInt8]?](repeating: nil, count: bodies.count)
            for await (index, result) in group { results[index] = result }
            return results
        }
        for (index, body) in bodies.enumerated() {
            #expect(try ZlibCodec.inflate(try #require(deflated[index])) == body, "body \(index)")
        }
    }
}
