import CLibDeflate

/// A body that is one whole gzip member (RFC 1952), as a server sends it with `Content-Encoding:
/// gzip`: where its deflate stream lies, and the size its trailer claims. It inflates in one call
/// (libdeflate, which checks the CRC-32 and the size), and its stream, rewrapped in zlib's format,
/// is the body deflated as a store keeps it — without deflating the body again.
struct GzipMember {
    /// The bytes of the member.
    let bytes: [UInt8]
    /// Where the deflate stream lies in `bytes`: after the header, before the 8-byte trailer.
    let stream: Range<Int>
    /// The inflated size the trailer claims (modulo 2³²), which only inflating confirms.
    let claimedSize: Int

    private static let decompressors = ReusePool { Decompressor() }

    /// The member `bytes` are, when their header is a whole gzip header; nil otherwise.
    init?(_ bytes: [UInt8]) {
        // ID1 ID2 CM=8 FLG MTIME(4) XFL OS, then what FLG says, and at the end CRC32 and ISIZE.
        guard bytes.count >= 18, bytes[0] == 0x1F, bytes[1] == 0x8B, bytes[2] == 8 else { return nil }
        let flags = bytes[3]
        guard flags & 0xE0 == 0 else { return nil }
        var start = 10
        if flags & 0x04 != 0 {  // FEXTRA: a length, then that many bytes
            guard start + 2 <= bytes.count else { return nil }
            start += 2 + Int(bytes[start]) + Int(bytes[start + 1]) << 8
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {  // FNAME, FCOMMENT: zero-terminated
            guard start < bytes.count, let end = bytes[start...].firstIndex(of: 0) else { return nil }
            start = end + 1
        }
        if flags & 0x02 != 0 { start += 2 }  // FHCRC
        guard start <= bytes.count - 8 else { return nil }
        self.bytes = bytes
        stream = start..<(bytes.count - 8)
        claimedSize = bytes[(bytes.count - 4)...].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    /// The body, when the member inflates to exactly the size it claims, no more than `limit`
    /// bytes, and ends the bytes; nil when its stream inflates past the size claimed or ends before
    /// the bytes do — more members, or a lie, which the streaming inflater then reads or names.
    /// Throws when the stream, its CRC-32 or its size are damaged, or it is cut short.
    func inflated(limit: Int) throws(ZlibError) -> [UInt8]? {
        // Deflate inflates at most 1,032 times its size, so no member (nor the last of several) can
        // hold more: a larger claim is damage, such as a trailer cut short.
        guard claimedSize <= stream.count * 1_032 else {
            throw ZlibError("its gzip trailer says \(claimedSize) bytes, more than its \(stream.count) bytes of data can hold: it is damaged or cut short")
        }
        guard claimedSize <= limit, let decompressor = Self.decompressors.take() else { return nil }
        defer { Self.decompressors.give(decompressor) }
        let handle = decompressor.handle
        var consumed = 0
        var result = LIBDEFLATE_SUCCESS
        let body = [UInt8](unsafeUninitializedCapacity: claimedSize) { output, count in
            var written = 0
            result = bytes.withUnsafeBytes { input in
                libdeflate_gzip_decompress_ex(handle, input.baseAddress, input.count, output.baseAddress, claimedSize, &consumed, &written)
            }
            count = result == LIBDEFLATE_SUCCESS ? written : 0
        }
        if result == LIBDEFLATE_BAD_DATA { throw ZlibError("its gzip data is damaged, cut short, or does not match its CRC-32 and size") }
        return result == LIBDEFLATE_SUCCESS && consumed == bytes.count && body.count == claimedSize ? body : nil
    }

    /// The stream in zlib's format (RFC 1950) for `body`, what it inflates to: the header zlib
    /// writes at its default level (78 9C, which MapLibre's `util::is_compressed` looks for), the
    /// same deflate stream, and the Adler-32 of `body`.
    func zlib(of body: [UInt8]) -> [UInt8] {
        let adler = ZlibCodec.adler32(body)
        var zlib = [UInt8]()
        zlib.reserveCapacity(stream.count + 6)
        zlib += [0x78, 0x9C]
        zlib += bytes[stream]
        zlib += [UInt8(truncatingIfNeeded: adler >> 24), UInt8(truncatingIfNeeded: adler >> 16), UInt8(truncatingIfNeeded: adler >> 8), UInt8(truncatingIfNeeded: adler)]
        return zlib
    }
}

/// A libdeflate decompressor, freed with its owner; used by one thread at a time.
private final class Decompressor {
    let handle: OpaquePointer

    init?() {
        guard let handle = libdeflate_alloc_decompressor() else { return nil }
        self.handle = handle
    }

    deinit {
        libdeflate_free_decompressor(handle)
    }
}
