import MapSim
import Synchronization

/// Bodies `mapsim serve` made once and sends again: the style and TileJSONs rewritten for the host
/// a client used (with their ETags), and gzipped representations of what it compresses, each by a
/// key that changes when what it was made from changes (the host, the file's ETag). Made on demand,
/// kept up to `budget` bytes in all; when that is reached everything is forgotten and made again as
/// asked. A body is the same whether it was kept or made: this saves work, never changes an answer.
final class ServedBodies: Sendable {
    /// A body and its ETag.
    struct Body: Sendable {
        var bytes: [UInt8]
        var etag: String
    }

    let budget: Int
    private let kept = Mutex<(bodies: [String: Body], bytes: Int)>(([:], 0))

    init(budget: Int = 64 << 20) {
        self.budget = max(budget, 1)
    }

    /// The body kept under `key`, or `make`'s, kept; nil when `make` makes none.
    func body(_ key: String, make: () -> Body?) -> Body? {
        if let body = kept.withLock({ $0.bodies[key] }) { return body }
        guard let made = make() else { return nil }
        kept.withLock { kept in
            if kept.bytes + made.bytes.count > budget {
                kept = ([:], 0)
            }
            guard made.bytes.count <= budget else { return }
            kept.bodies[key] = made
            kept.bytes += made.bytes.count
        }
        return made
    }

    /// `content` gzipped, kept under its ETag `etag`; nil when it cannot be compressed.
    func gzipped(_ content: [UInt8], etag: String) -> [UInt8]? {
        body("gzip " + etag) { ZlibCodec.deflate(content, format: .gzip).map { Body(bytes: $0, etag: etag) } }?.bytes
    }
}
