import MapSim
import Synchronization

/// Bodies packed for storage (`RowCompression.pack`) as their loads finish, on the loads' own
/// tasks, so that a region download's one loop takes them ready rather than deflating every tile
/// in turn: the loop is the download's critical path, and the loads' tasks run on every core.
///
/// Each packing is kept by URL with the body it packed, and taken once: `take` gives the kept one
/// only for the very same bytes, and packs them itself otherwise, so the outcome never depends on
/// what was kept. What is never taken (a load given up) goes with the download.
final class PackedBodies: Sendable {
    private let packed = Mutex<[String: (body: [UInt8], stored: StoredBody)]>([:])

    /// Packs the body of `response` to `resource`, for `take` to find.
    func pack(_ response: Response, to resource: Resource) {
        guard let body = response.data, !body.isEmpty else { return }
        let stored = RowCompression.pack(body, zlib: response.zlibData)
        packed.withLock { $0[resource.url] = (body, stored) }
    }

    /// `body` of `resource` as stored: the packing made as it arrived, or one made now (with `zlib`,
    /// the body as its server deflated it).
    func take(_ body: [UInt8], zlib: [UInt8]?, of resource: Resource) -> StoredBody {
        if !body.isEmpty, let kept = packed.withLock({ $0.removeValue(forKey: resource.url) }), kept.body == body {
            return kept.stored
        }
        return RowCompression.pack(body, zlib: zlib)
    }
}
