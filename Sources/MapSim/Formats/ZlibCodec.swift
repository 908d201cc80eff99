import CompressNIO
import Foundation
import NIOCore

/// Deflate and inflate, with zlib's defaults, as MapLibre Native's `util::compress` and
/// `util::decompress` do: the offline database's rows, PMTiles directories and tiles, MBTiles tiles.
///
/// Setting a deflate stream up costs more than deflating a tile (zlib allocates and clears a quarter
/// of a megabyte for it), so deflate streams are kept and reset for the next body.
public enum ZlibCodec {
    /// The wrappers a deflated body can have.
    public enum Format: Sendable {
        /// zlib (RFC 1950): what `util::compress` writes.
        case zlib
        /// gzip (RFC 1952): what tiles are usually compressed with.
        case gzip
    }

    /// The most bytes a body may inflate to by default: more is damage (or a bomb), not map data.
    public static let maximumInflatedSize = 512 * 1024 * 1024

    private static let zlibStreams = StreamPool<ZlibCompressor>()
    private static let gzipStreams = StreamPool<ZlibCompressor>()

    /// Whether `bytes` start as MapLibre's `util::is_compressed` checks: gzip, or zlib with the
    /// default header.
    public static func isCompressed(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        guard bytes.count > 2, let first = iterator.next(), let second = iterator.next() else { return false }
        return (first == 0x1F && second == 0x8B) || (first == 0x78 && second == 0x9C)
    }

    /// Whether `bytes` start with the gzip magic number (what MapLibre Native's MBTiles source looks for).
    public static func isGzip(_ bytes: some Collection<UInt8>) -> Bool {
        // The two bytes read in place: no array to compare with (this runs on every answer `serve` gives).
        var iterator = bytes.makeIterator()
        return iterator.next() == 0x1F && iterator.next() == 0x8B
    }

    /// `bytes` deflated in `format`; nil when zlib fails (it does not for well-formed input).
    public static func deflate(_ bytes: [UInt8], format: Format = .zlib) -> [UInt8]? {
        let pool = format == .zlib ? zlibStreams : gzipStreams
        guard let compressor = pool.take() ?? (try? ZlibCompressor(algorithm: format == .zlib ? .zlib : .gzip)) else { return nil }
        var input = ByteBuffer(bytes: bytes)
        var output = ByteBufferAllocator().buffer(capacity: compressor.maxSize(from: input))
        let done = (try? compressor.deflate(from: &input, to: &output, flush: .finish)) != nil
        if (try? compressor.reset()) != nil { pool.give(compressor) }
        return done ? Array(output.readableBytesView) : nil
    }

    /// `bytes` inflated, as zlib or gzip, whichever the header says; throws when they do not inflate
    /// or would inflate past `limit` bytes.
    public static func inflate(_ bytes: some ContiguousBytes & Collection<UInt8>, limit: Int = maximumInflatedSize) throws(ZlibError) -> [UInt8] {
        let gzip = isGzip(bytes)
        var input = bytes.withUnsafeBytes { ByteBuffer(bytes: $0) }
        do {
            let inflated = try input.decompress(with: gzip ? .gzip() : .zlib(), maxSize: limit)
            return Array(inflated.readableBytesView)
        } catch let error as CompressNIOError where error == .bufferOverflow {
            throw ZlibError(.tooLarge, "it inflates to more than \(limit) bytes")
        } catch {
            throw ZlibError("\(error)")
        }
    }
}

/// zlib streams kept for reuse, one taken at a time by whichever thread needs one.
private final class StreamPool<Stream: AnyObject>: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [Stream] = []
    /// Streams kept at most: one a core is plenty.
    private let capacity = 8

    func take() -> Stream? {
        lock.withLock { idle.popLast() }
    }

    func give(_ stream: Stream) {
        lock.withLock { if idle.count < capacity { idle.append(stream) } }
    }
}
