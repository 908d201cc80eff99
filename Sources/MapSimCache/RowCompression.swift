import CompressNIO
import Foundation
import NIOCore

/// The `data` column as MapLibre Native writes and reads it: each body is deflated in zlib format
/// (zlib's defaults, as `util::compress` does) and kept compressed only when that is smaller
/// (`compressed = 1`); a compressed body is inflated as zlib or gzip, whichever its header says.
///
/// Setting a deflate stream up costs more than deflating a tile (zlib allocates and clears a quarter
/// of a megabyte for it), so streams are kept and reset for the next body.
enum RowCompression {
    /// The most bytes a stored body may inflate to: more is damage (or a bomb), not a map resource.
    static let maximumInflatedSize = 512 * 1024 * 1024

    /// Deflate streams not in use.
    private static let deflaters = StreamPool<ZlibCompressor>()

    /// The bytes to store for `body`, and whether they are compressed.
    static func pack(_ body: [UInt8]) -> (data: [UInt8], compressed: Bool) {
        guard !body.isEmpty, let compressor = deflaters.take() ?? (try? ZlibCompressor(algorithm: .zlib)) else { return (body, false) }
        var input = ByteBuffer(bytes: body)
        var output = ByteBufferAllocator().buffer(capacity: compressor.maxSize(from: input))
        let deflated = (try? compressor.deflate(from: &input, to: &output, flush: .finish)) != nil
        if (try? compressor.reset()) != nil { deflaters.give(compressor) }
        guard deflated, output.readableBytes < body.count else { return (body, false) }
        return (Array(output.readableBytesView), true)
    }

    /// The body stored as `data`; throws when compressed data does not inflate.
    static func unpack(_ data: some ContiguousBytes & Collection<UInt8>, compressed: Bool) throws(RowCompressionError) -> [UInt8] {
        guard compressed else { return Array(data) }
        let gzip = data.starts(with: [0x1F, 0x8B])
        var input = data.withUnsafeBytes { ByteBuffer(bytes: $0) }
        do {
            let inflated = try input.decompress(with: gzip ? .gzip() : .zlib(), maxSize: maximumInflatedSize)
            return Array(inflated.readableBytesView)
        } catch {
            throw RowCompressionError(reason: "\(error)")
        }
    }
}

/// zlib streams kept for reuse, one taken at a time by whichever thread needs one.
final class StreamPool<Stream: AnyObject>: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [Stream] = []
    /// Streams kept at most: one a core is plenty.
    private let capacity = 8

    /// A stream not in use, if one is kept.
    func take() -> Stream? {
        lock.withLock { idle.popLast() }
    }

    /// Keeps `stream` for the next taker.
    func give(_ stream: Stream) {
        lock.withLock { if idle.count < capacity { idle.append(stream) } }
    }
}
