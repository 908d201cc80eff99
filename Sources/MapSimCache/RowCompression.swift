import Foundation
import MapSim

/// The `data` column as MapLibre Native writes and reads it: each body is deflated in zlib format
/// (`util::compress`) and kept compressed only when that is smaller (`compressed = 1`); a compressed
/// body is inflated as zlib or gzip, whichever its header says.
enum RowCompression {
    /// `body` as stored: deflated when that is smaller, else as it is. `zlib`, the body as its
    /// server deflated it (`Response.zlibData`), is kept as the deflated body when it is still the
    /// body's (its checksum says so) and smaller: the same stream a zlib inflates, without deflating
    /// the body again.
    static func pack(_ body: [UInt8], zlib: [UInt8]? = nil) -> StoredBody {
        if let zlib, zlib.count < body.count, ZlibCodec.isStream(zlib, of: body) {
            return StoredBody(data: zlib, compressed: true)
        }
        guard !body.isEmpty, let deflated = ZlibCodec.deflate(body), deflated.count < body.count else { return StoredBody(data: body, compressed: false) }
        return StoredBody(data: deflated, compressed: true)
    }

    /// The body stored as `data`; throws when compressed data does not inflate.
    static func unpack(_ data: some ContiguousBytes & Collection<UInt8>, compressed: Bool) throws(RowCompressionError) -> [UInt8] {
        guard compressed else { return Array(data) }
        do {
            return try ZlibCodec.inflate(data)
        } catch {
            throw RowCompressionError(reason: error.reason)
        }
    }
}
