import CZlibInflate

/// A body that is one whole gzip member (RFC 1952), as a server sends it with `Content-Encoding:
/// gzip`: where its deflate stream lies, and the size its trailer claims. It inflates in one call
/// into the size claimed, checked by the CRC-32, and its stream, rewrapped in zlib's format, is the
/// body deflated as a store keeps it — without deflating the body again.
struct GzipMember {
    /// The bytes of the member.
    let bytes: [UInt8]
    /// Where the deflate stream lies in `bytes`: after the header, before the 8-byte trailer.
    let stream: Range<Int>
    /// The inflated size the trailer claims (modulo 2³²), which only inflating confirms.
    let claimedSize: Int

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

    /// The body, when the member's stream inflates (zlib, raw) to exactly the size its trailer
    /// claims, with its CRC-32, and ends where the trailer begins; nil when it ends sooner (more
    /// members, which the streaming inflater reads on) or would inflate past the claim or `limit`
    /// (which the streaming inflater names). Throws when the stream is damaged, is cut short, or does
    /// not match its CRC-32 and size.
    ///
    /// zlib, not libdeflate: libdeflate takes some streams zlib refuses (the fixed code's literal or
    /// length symbols 286 and 287), and a row kept in the server's stream must be one MapLibre
    /// Native's zlib inflates — zlib has just inflated those very bytes.
    func inflated(limit: Int) throws(ZlibError) -> [UInt8]? {
        // Deflate inflates at most 1,032 times its size, so no member (nor the last of several) can
        // hold more: a larger claim is damage, such as a trailer cut short.
        guard claimedSize <= stream.count * 1_032 else {
            throw ZlibError("its gzip trailer says \(claimedSize) bytes, more than its \(stream.count) bytes of data can hold: it is damaged or cut short")
        }
        guard claimedSize <= limit else { return nil }
        // One byte more than claimed: a stream that fills it inflates past its claim.
        let room = claimedSize + 1
        var status = Z_OK
        var unread = 0
        var message = ""
        let body = [UInt8](unsafeUninitializedCapacity: room) { output, count in
            count = 0
            var inflater = z_stream()
            guard CZlibInflate_initRaw(&inflater) == Z_OK else {
                status = Z_MEM_ERROR
                return
            }
            defer { inflateEnd(&inflater) }
            bytes.withUnsafeBufferPointer { input in
                inflater.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + stream.lowerBound)
                inflater.avail_in = UInt32(stream.count)
                inflater.next_out = output.baseAddress
                inflater.avail_out = UInt32(room)
                status = inflate(&inflater, Z_FINISH)
            }
            unread = Int(inflater.avail_in)
            count = room - Int(inflater.avail_out)
            if let reason = inflater.msg { message = String(cString: reason) }
        }
        switch status {
        case Z_STREAM_END where unread > 0:
            return nil
        case Z_STREAM_END:
            let trailer = bytes[(bytes.count - 8)..<(bytes.count - 4)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard body.count == claimedSize, trailer == CRC32.checksum(body) else {
                throw ZlibError("its gzip data does not match its CRC-32 and size")
            }
            return body
        case Z_BUF_ERROR where body.count < room:
            throw ZlibError("its gzip data is cut short")
        case Z_DATA_ERROR:
            throw ZlibError("its gzip data is damaged: \(message)")
        default:
            return nil
        }
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
