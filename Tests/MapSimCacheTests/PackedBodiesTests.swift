import Testing
@testable import MapSim
@testable import MapSimCache

/// A region download's bodies packed as they arrive, and taken by its loop.
@Suite("Packed bodies")
struct PackedBodiesTests {
    private let tile = Resource(url: "http://127.0.0.1:1/tiles/1/0/0.pbf", kind: .tile)
    private let body = [UInt8](repeating: 7, count: 4_000) + Array(0..<200).map { UInt8($0) }

    @Test func aBodyPackedOnArrivalIsTakenAsPackedAndOnlyOnce() throws {
        let packed = PackedBodies()
        packed.pack(Response(data: body, source: .network), to: tile)
        let stored = packed.take(body, zlib: nil, of: tile)
        #expect(stored.compressed)
        #expect(try RowCompression.unpack(try #require(stored.data), compressed: true) == body)
        // Taken once: the second take packs the body itself, to the same bytes.
        #expect(packed.take(body, zlib: nil, of: tile).data == stored.data)
    }

    /// The loop's answer is what is stored, whatever was packed for its URL before.
    @Test func otherBytesForTheSameURLArePackedAnew() throws {
        let packed = PackedBodies()
        packed.pack(Response(data: body, source: .network), to: tile)
        let other = Array(body.reversed())
        let stored = packed.take(other, zlib: nil, of: tile)
        #expect(try RowCompression.unpack(try #require(stored.data), compressed: stored.compressed) == other)
    }

    /// A body that deflates to no less is stored as it is, as MapLibre stores it.
    @Test func aBodyThatDoesNotShrinkIsStoredUncompressed() {
        let packed = PackedBodies()
        let tiny: [UInt8] = [1, 2, 3]
        packed.pack(Response(data: tiny, source: .network), to: tile)
        let stored = packed.take(tiny, zlib: nil, of: tile)
        #expect(!stored.compressed && stored.data == tiny)
    }

    /// A body its server sent gzipped is stored as the server deflated it, rewrapped in zlib's
    /// format, with no deflating again; a stream that is no longer the body's (its checksum says
    /// so) is not stored for it.
    @Test func aBodyTheServerDeflatedIsStoredInTheServersStream() throws {
        let gzip = try #require(ZlibCodec.deflate(body, format: .gzip))
        let sent = try ZlibCodec.inflateKeepingStream(gzip)
        let zlib = try #require(sent.zlib)
        let packed = PackedBodies()
        var response = Response(data: sent.body, source: .network)
        response.zlibData = zlib
        packed.pack(response, to: tile)
        let stored = packed.take(body, zlib: zlib, of: tile)
        #expect(stored.compressed && stored.data == zlib)
        #expect(Array(zlib[2..<(zlib.count - 4)]) == Array(gzip[10..<(gzip.count - 8)]), "the server's own deflate stream")
        #expect(try RowCompression.unpack(try #require(stored.data), compressed: true) == body)
        // Another body with that stream: deflated anew, to itself.
        let other = Array(body.reversed())
        let repacked = RowCompression.pack(other, zlib: zlib)
        #expect(repacked.data != zlib)
        #expect(try RowCompression.unpack(try #require(repacked.data), compressed: repacked.compressed) == other)
    }
}
