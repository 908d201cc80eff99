import CompressNIO
import NIOCore

/// The `data` column as MapLibre Native writes and reads it: each body is deflated in zlib format
/// (zlib's defaults, as `util::compress` does) and kept compressed only when that is smaller
/// (`compressed = 1`); a compressed body is inflated as zlib or gzip, whichever its header says.
enum RowCompression {
    /// The most bytes a stored body may inflate to: more is damage (or a bomb), not a map resource.
    static let maximumInflatedSize = 512 * 1024 * 1024

    /// The bytes to store for `body`, and whether they are compressed.
    static func pack(_ body: [UInt8]) -> (data: [UInt8], compressed: Bool) {
        var input = ByteBuffer(bytes: body)
        guard let deflated = try? input.compress(with: .zlib()), deflated.readableBytes < body.count else { return (body, false) }
        return (Array(deflated.readableBytesView), true)
    }

    /// The body stored as `data`; throws when compressed data does not inflate.
    static func unpack(_ data: [UInt8], compressed: Bool) throws(RowCompressionError) -> [UInt8] {
        guard compressed else { return data }
        var input = ByteBuffer(bytes: data)
        let gzip = data.count >= 2 && data[0] == 0x1F && data[1] == 0x8B
        do {
            let inflated = try input.decompress(with: gzip ? .gzip() : .zlib(), maxSize: maximumInflatedSize)
            return Array(inflated.readableBytesView)
        } catch {
            throw RowCompressionError(reason: "\(error)")
        }
    }
}
