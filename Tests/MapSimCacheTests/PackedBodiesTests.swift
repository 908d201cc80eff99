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
        let stored = packed.take(body, of: tile)
        #expect(stored.compressed)
        #expect(try RowCompression.unpack(try #require(stored.data), compressed: true) == body)
        // Taken once: the second take packs the body itself, to the same bytes.
        #expect(packed.take(body, of: tile).data == stored.data)
    }

    /// The loop's answer is what is stored, whatever was packed for its URL before.
    @Test func otherBytesForTheSameURLArePackedAnew() throws {
        let packed = PackedBodies()
        packed.pack(Response(data: body, source: .network), to: tile)
        let other = Array(body.reversed())
        let stored = packed.take(other, of: tile)
        #expect(try RowCompression.unpack(try #require(stored.data), compressed: stored.compressed) == other)
    }

    /// A body that deflates to no less is stored as it is, as MapLibre stores it.
    @Test func aBodyThatDoesNotShrinkIsStoredUncompressed() {
        let packed = PackedBodies()
        let tiny: [UInt8] = [1, 2, 3]
        packed.pack(Response(data: tiny, source: .network), to: tile)
        let stored = packed.take(tiny, of: tile)
        #expect(!stored.compressed && stored.data == tiny)
    }
}
