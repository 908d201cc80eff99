import MapSim

/// Bodies `mapsim serve` made once and sends again: the style and TileJSONs rewritten for the host
/// a client used (with their ETags), and gzipped representations of what it compresses, each by a
/// key that changes when what it was made from changes (the host, the file's ETag). Kept up to
/// `budget` bytes in all (`BoundedCache`). A body is the same whether it was kept or made: this
/// saves work, never changes an answer.
final class ServedBodies: Sendable {
    /// A body and its ETag.
    struct Body: Sendable {
        var bytes: [UInt8]
        var etag: String
    }

    private let kept: BoundedCache<Body>

    init(budget: Int = 64 << 20) {
        kept = BoundedCache(budget: budget) { $0.bytes.count }
    }

    /// The body kept under `key`, or `make`'s, kept; nil when `make` makes none.
    func body(_ key: String, make: () -> Body?) -> Body? {
        kept.value(key, make: make)
    }

    /// `content` gzipped, kept under its ETag `etag`; nil when it cannot be compressed.
    func gzipped(_ content: [UInt8], etag: String) -> [UInt8]? {
        body("gzip " + etag) { ZlibCodec.deflate(content, format: .gzip).map { Body(bytes: $0, etag: etag) } }?.bytes
    }
}
