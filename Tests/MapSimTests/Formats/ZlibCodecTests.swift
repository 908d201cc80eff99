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

    /// `body` as one gzip member whose header carries every optional field (FEXTRA, FNAME, FCOMMENT
    /// and FHCRC), as servers and `gzip -N` may write them; `size` stands in for the trailer's size.
    private static func gzipMember(of body: [UInt8], size: UInt32? = nil) throws -> [UInt8] {
        let plain = try #require(ZlibCodec.deflate(body, format: .gzip))
        let stream = plain[10..<(plain.count - 8)]
        var header: [UInt8] = [0x1F, 0x8B, 8, 0x04 | 0x08 | 0x10 | 0x02, 0, 0, 0, 0, 0, 3]
        header += [3, 0, 0x41, 0x42, 0x43] + Array("tile.pbf".utf8) + [0] + Array("a comment".utf8) + [0]
        let headerCRC = CRC32.checksum(header)
        header += [UInt8(truncatingIfNeeded: headerCRC), UInt8(truncatingIfNeeded: headerCRC >> 8)]
        let trailer = Array(plain.suffix(8).prefix(4)) + withUnsafeBytes(of: (size ?? UInt32(body.count)).littleEndian, Array.init)
        return header + stream + trailer
    }

    /// A server's gzip member inflates in one call, and its stream, rewrapped as zlib, is the body
    /// deflated as MapLibre stores it: zlib's default header, the same stream, the body's Adler-32.
    @Test(arguments: [1, 996, 32_739, 300_000])
    func aWholeGzipMemberKeepsItsStreamAsZlib(count: Int) throws {
        let body = Self.body(count: count, seed: UInt64(count) + 11)
        for member in [try #require(ZlibCodec.deflate(body, format: .gzip)), try Self.gzipMember(of: body)] {
            let kept = try ZlibCodec.inflateKeepingStream(member)
            #expect(kept.body == body)
            let zlib = try #require(kept.zlib, "\(count) bytes")
            #expect(Array(zlib.prefix(2)) == [0x78, 0x9C] && zlib.count < member.count)
            #expect(try ZlibCodec.inflate(zlib) == body)
            #expect(ZlibCodec.isStream(zlib, of: body))
            #expect(!ZlibCodec.isStream(zlib, of: body + [0]), "another body's checksum differs")
        }
    }

    /// A row's zlib stream becomes a gzip tile without deflating again: the same deflate stream
    /// between gzip's header and trailer, which gzip readers inflate to the body.
    @Test(arguments: [1, 996, 32_739, 300_000])
    func aZlibStreamIsRewrappedAsAGzipMember(count: Int) throws {
        let body = Self.body(count: count, seed: UInt64(count) + 23)
        let zlib = try #require(ZlibCodec.deflate(body))
        let member = try #require(ZlibCodec.gzip(rewrapping: zlib, of: body), "\(count) bytes")
        #expect(ZlibCodec.isGzip(member) && member.count == zlib.count + 12)
        #expect(Array(member[10..<(member.count - 8)]) == Array(zlib[2..<(zlib.count - 4)]), "the same deflate stream")
        #expect(try ZlibCodec.inflate(member) == body)
        #expect(try ZlibCodec.inflateKeepingStream(member).zlib == zlib, "and back again")
    }

    /// A stream that is not the body's, or does not end where its checksum begins, is not rewrapped:
    /// the caller deflates the body instead.
    @Test func aStreamThatIsNotTheBodysWholeStreamIsNotRewrapped() throws {
        let body = Self.body(count: 5_000, seed: 31)
        let zlib = try #require(ZlibCodec.deflate(body))
        #expect(ZlibCodec.gzip(rewrapping: zlib, of: body + [1]) == nil, "another body")
        #expect(ZlibCodec.gzip(rewrapping: try #require(ZlibCodec.deflate(body, format: .gzip)), of: body) == nil, "gzip, not zlib")
        // Bytes after the stream that end as its checksum does: a zlib inflater stops at the stream's
        // end and is satisfied, but a gzip reader would take them for the trailer.
        let padded = zlib + [0, 0, 0, 0] + zlib.suffix(4)
        #expect(ZlibCodec.gzip(rewrapping: padded, of: body) == nil)
        #expect(ZlibCodec.gzip(rewrapping: [0x78, 0x9C], of: []) == nil, "too short to be a stream")
    }

    /// What is not one whole, honest member is inflated as before, with nothing kept: the streaming
    /// inflater reads on past a first member, and names damage and lies.
    @Test func whatIsNotOneHonestMemberIsInflatedAsBeforeOrNamed() throws {
        let body = Self.body(count: 20_000, seed: 3)
        let member = try #require(ZlibCodec.deflate(body, format: .gzip))
        let twoMembers = member + member
        let read = try ZlibCodec.inflateKeepingStream(twoMembers)
        let streamed = try ZlibCodec.inflate(twoMembers)
        #expect(read.zlib == nil && read.body == streamed)
        // A trailer that claims fewer bytes than the stream holds.
        let short = try Self.gzipMember(of: body, size: 100)
        #expect(throws: ZlibError.self) { try ZlibCodec.inflateKeepingStream(short) }
        // A size past the limit is refused before anything is inflated.
        #expect { try ZlibCodec.inflateKeepingStream(member, limit: 1_000) } throws: { ($0 as? ZlibError)?.code == .tooLarge }
        // A damaged stream or CRC-32, and a member cut short in its trailer.
        for at in [member.count / 2, member.count - 6] {
            var damaged = member
            damaged[at] ^= 0xFF
            #expect(throws: ZlibError.self, "byte \(at) changed") { try ZlibCodec.inflateKeepingStream(damaged) }
        }
        for cut in 1...8 {
            #expect(throws: ZlibError.self, "\(cut) bytes cut") { try ZlibCodec.inflateKeepingStream(Array(member.dropLast(cut))) }
        }
        // zlib (Content-Encoding: deflate) inflates, with nothing to keep.
        let zlib = try #require(ZlibCodec.deflate(body))
        let deflate = try ZlibCodec.inflateKeepingStream(zlib)
        #expect(deflate.body == body && deflate.zlib == nil)
    }

    /// Found by fuzzing: a member whose fixed-code block holds literal/length symbol 286 or 287,
    /// which libdeflate inflates (to a CRC-32 that matches) and zlib refuses. It is refused, as
    /// MapLibre Native's zlib refuses it, rather than kept as a row no zlib could read.
    @Test func aStreamZlibRefusesIsRefusedEvenWhereLibdeflateWouldTakeIt() {
        let member: [UInt8] = [0x1F, 0x8B, 0x08, 0x1E, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x03, 0x00, 0x41, 0x42, 0x62, 0x66, 0x00, 0x61, 0x20, 0x63, 0x6F, 0x6D, 0x6D, 0x6E, 0x74, 0x00, 0x39, 0xAF, 0xCB, 0x4D, 0x2C, 0x28, 0xCE, 0xCC, 0x55, 0xC8, 0x1D, 0xA7, 0x50, 0x29, 0x00, 0x50, 0x23, 0xCA, 0xCA, 0x18, 0x01, 0x00, 0x00]
        #expect { try ZlibCodec.inflateKeepingStream(member) } throws: { "\($0)".contains("invalid literal/length code") }
        #expect(throws: ZlibError.self) { try ZlibCodec.inflate(member) }
    }

    /// The limit is exact: compress-nio checks its size only as its buffer grows, and its first
    /// buffer held 6,000 bytes past a limit of 5,000.
    @Test func aBodyInflatesNoFurtherThanItsLimitByAByte() throws {
        let body = (0..<6_000).map { UInt8(truncatingIfNeeded: $0 * $0 / 7) }
        for format in [ZlibCodec.Format.zlib, .gzip] {
            let deflated = try #require(ZlibCodec.deflate(body, format: format))
            #expect(try ZlibCodec.inflate(deflated, limit: 6_000) == body)
            #expect { try ZlibCodec.inflate(deflated, limit: 5_999) } throws: { ($0 as? ZlibError)?.code == .tooLarge }
            #expect { try ZlibCodec.inflateKeepingStream(deflated, limit: 5_999) } throws: { ($0 as? ZlibError)?.code == .tooLarge }
        }
    }
}
