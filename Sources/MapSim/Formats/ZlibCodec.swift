import CLibDeflate
import CompressNIO
import Foundation
import NIOCore

/// Deflate and inflate, at zlib's default level, as MapLibre Native's `util::compress` and
/// `util::decompress` do: the offline database's rows, PMTiles directories and tiles, MBTiles tiles.
///
/// Bodies are deflated whole by libdeflate, at the level `util::compress` asks of zlib (6): the same
/// formats, which any zlib inflates, two to three times faster than zlib, and a few bytes smaller. A
/// compressor takes more to set up than a tile takes to deflate, so compressors are kept for the
/// next body. Inflating streams through zlib, which stops at a limit however large the body says it
/// is; a whole gzip member within the limit inflates in one call into the size it claims (`GzipMember`).
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

    /// The level `util::compress` deflates at: zlib's `Z_DEFAULT_COMPRESSION`.
    static let level: Int32 = 6

    private static let compressors = CompressorPool()

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

    /// `bytes` deflated in `format`; nil when no compressor can be had (memory runs out).
    public static func deflate(_ bytes: [UInt8], format: Format = .zlib) -> [UInt8]? {
        guard let compressor = compressors.take() ?? Compressor(level: level) else { return nil }
        defer { compressors.give(compressor) }
        return compressor.deflate(bytes, format: format)
    }

    /// `bytes` inflated as `inflate(_:limit:)` inflates them, and — when they are one whole gzip
    /// member, as servers send a body with `Content-Encoding: gzip` — the same deflate stream in
    /// zlib's format, which a store keeps as the body deflated without deflating it again.
    public static func inflateKeepingStream(_ bytes: [UInt8], limit: Int = maximumInflatedSize) throws(ZlibError) -> (body: [UInt8], zlib: [UInt8]?) {
        if let member = GzipMember(bytes), let body = try member.inflated(limit: limit) {
            return (body, member.zlib(of: body))
        }
        return (try inflate(bytes, limit: limit), nil)
    }

    /// Whether `zlib` is a zlib stream of `body`, by its header and the Adler-32 of `body` at its
    /// end: a cheap check that a stream kept with a body is still the body's.
    public static func isStream(_ zlib: [UInt8], of body: [UInt8]) -> Bool {
        guard zlib.count >= 6, zlib[0] == 0x78, zlib[1] == 0x9C else { return false }
        let trailer = zlib[(zlib.count - 4)...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return trailer == adler32(body)
    }

    /// `zlib`, a zlib stream of `body` (`isStream(_:of:)`), as one gzip member: its deflate stream
    /// between gzip's header and trailer — what deflating `body` in gzip's format gives, without
    /// deflating it again. Nil when the stream is not `body`'s, or does not end where its checksum
    /// begins (the member is inflated to be sure).
    public static func gzip(rewrapping zlib: [UInt8], of body: [UInt8]) -> [UInt8]? {
        guard isStream(zlib, of: body) else { return nil }
        // ID1 ID2 CM=8, no flags, no time, no extra flags, OS unknown; at the end CRC-32 and ISIZE.
        var member: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        member.reserveCapacity(zlib.count + 12)
        member += zlib[2..<(zlib.count - 4)]
        for word in [CRC32.checksum(body), UInt32(truncatingIfNeeded: body.count)] {
            member += [UInt8(truncatingIfNeeded: word), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 24)]
        }
        guard let inflated = try? GzipMember(member)?.inflated(limit: body.count), inflated == body else { return nil }
        return member
    }

    /// The Adler-32 checksum of `bytes`, which ends a zlib stream.
    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { UInt32(libdeflate_adler32(1, $0.baseAddress, $0.count)) }
    }

    /// `bytes` inflated, as zlib or gzip, whichever the header says; throws when they do not inflate
    /// or would inflate past `limit` bytes.
    public static func inflate(_ bytes: some ContiguousBytes & Collection<UInt8>, limit: Int = maximumInflatedSize) throws(ZlibError) -> [UInt8] {
        let gzip = isGzip(bytes)
        var input = bytes.withUnsafeBytes { ByteBuffer(bytes: $0) }
        do {
            let inflated = try input.decompress(with: gzip ? .gzip() : .zlib(), maxSize: limit)
            // compress-nio checks its size only as its buffer grows, from a first one that may be larger.
            guard inflated.readableBytes <= limit else { throw ZlibError(.tooLarge, "it inflates to more than \(limit) bytes") }
            return Array(inflated.readableBytesView)
        } catch let error as CompressNIOError where error == .bufferOverflow {
            throw ZlibError(.tooLarge, "it inflates to more than \(limit) bytes")
        } catch let error as ZlibError {
            throw error
        } catch {
            throw ZlibError("\(error)")
        }
    }
}

/// A libdeflate compressor, freed with its owner, and the buffer it deflates into; used by one
/// thread at a time.
private final class Compressor {
    private let handle: OpaquePointer
    /// Room for the largest output yet, up to `largestKeptOutput`: each body's output is copied out
    /// at its size, so that what is kept of a body is no larger than it is.
    private var output: [UInt8] = []
    /// The most room kept between bodies: a larger body (a big file `serve` gzips) has its own.
    private static let largestKeptOutput = 1 << 20

    init?(level: Int32) {
        guard let handle = libdeflate_alloc_compressor(level) else { return nil }
        self.handle = handle
    }

    deinit {
        libdeflate_free_compressor(handle)
    }

    /// `bytes` deflated in `format`; nil if libdeflate failed, which within its bound it does not.
    func deflate(_ bytes: [UInt8], format: ZlibCodec.Format) -> [UInt8]? {
        let handle = handle
        let bound = format == .zlib ? libdeflate_zlib_compress_bound(handle, bytes.count) : libdeflate_gzip_compress_bound(handle, bytes.count)
        var room: [UInt8] = []
        swap(&room, &output)
        if room.count < bound { room = [UInt8](repeating: 0, count: bound) }
        let count = bytes.withUnsafeBytes { input in
            room.withUnsafeMutableBytes { room in
                format == .zlib ? libdeflate_zlib_compress(handle, input.baseAddress, input.count, room.baseAddress, bound)
                    : libdeflate_gzip_compress(handle, input.baseAddress, input.count, room.baseAddress, bound)
            }
        }
        let deflated = Array(room[..<count])
        if room.count <= Self.largestKeptOutput { output = room }
        return count == 0 ? nil : deflated
    }
}

/// Compressors kept for reuse, one taken at a time by whichever thread needs one.
private final class CompressorPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [Compressor] = []
    /// Compressors kept at most: one a core is plenty.
    private let capacity = 8

    func take() -> Compressor? {
        lock.withLock { idle.popLast() }
    }

    func give(_ compressor: Compressor) {
        lock.withLock { if idle.count < capacity { idle.append(compressor) } }
    }
}
