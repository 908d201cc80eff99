/// RFC 6455 frames as a client reads and writes them: a server's frames are never masked, a
/// client's always are.
enum WebSocketFrameReader {
    /// A frame found in a buffer.
    struct Frame {
        var isFinal: Bool
        var opcode: UInt8
        /// Where the payload is in the buffer.
        var payload: Range<Int>
        /// Where the frame ends.
        var end: Int
    }

    /// The frame at `offset` of `bytes`, or nil when it is not all there yet; throws for a frame a
    /// server must not send (masked, reserved bits, a control frame too long or fragmented) or a
    /// payload over `maximumSize`.
    static func frame(in bytes: [UInt8], at offset: Int, maximumSize: Int) throws(WebSocketFeedError) -> Frame? {
        guard bytes.count - offset >= 2 else { return nil }
        let first = bytes[offset]
        let second = bytes[offset + 1]
        guard first & 0x70 == 0 else { throw WebSocketFeedError("a frame with reserved bits set (no extension was agreed)") }
        guard second & 0x80 == 0 else { throw WebSocketFeedError("a masked frame from the server") }
        let opcode = first & 0x0F
        var length = Int(second & 0x7F)
        var header = 2
        if length == 126 {
            guard bytes.count - offset >= 4 else { return nil }
            length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            header = 4
        } else if length == 127 {
            guard bytes.count - offset >= 10 else { return nil }
            var value: UInt64 = 0
            for index in 0..<8 { value = value << 8 | UInt64(bytes[offset + 2 + index]) }
            guard value <= UInt64(maximumSize) else { throw WebSocketFeedError("a frame of \(value) bytes, more than the \(maximumSize) taken") }
            length = Int(value)
            header = 10
        }
        guard length <= maximumSize else { throw WebSocketFeedError("a frame of \(length) bytes, more than the \(maximumSize) taken") }
        let isControl = opcode & 0x08 != 0
        if isControl && (length > 125 || first & 0x80 == 0) { throw WebSocketFeedError("a control frame that is fragmented or longer than 125 bytes") }
        let start = offset + header
        guard bytes.count - start >= length else { return nil }
        return Frame(isFinal: first & 0x80 != 0, opcode: opcode, payload: start..<start + length, end: start + length)
    }

    /// A client's close frame with `code`.
    static func closeFrame(code: UInt16) -> [UInt8] {
        masked(opcode: 0x8, payload: [UInt8(code >> 8), UInt8(code & 0xFF)])
    }

    /// A client's pong carrying `payload` back.
    static func pongFrame(_ payload: [UInt8]) -> [UInt8] {
        masked(opcode: 0xA, payload: payload)
    }

    /// A final client frame (at most 125 bytes, as control frames are) with a fresh mask.
    private static func masked(opcode: UInt8, payload: [UInt8]) -> [UInt8] {
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        return [0x80 | opcode, 0x80 | UInt8(payload.count)] + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }
}
