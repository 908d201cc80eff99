/// Reads the bytes of an MLT tile: varints, single bytes, length-prefixed strings and ranges of
/// bytes, each checked against the bytes that are left so that truncated or corrupt data gives an
/// `MLTFault` naming the byte offset rather than a crash.
struct MLTReader {
    /// The whole tile.
    let bytes: [UInt8]
    /// Where the next read starts.
    private(set) var position: Int
    /// Where the range being read ends.
    let end: Int

    /// A reader of `range` of `bytes`.
    init(_ bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
    }

    var isAtEnd: Bool { position >= end }

    /// The number of bytes left.
    var remaining: Int { end - position }

    /// One byte; `what` names it in the fault.
    mutating func byte(_ what: @autoclosure () -> String) throws(MLTFault) -> UInt8 {
        guard position < end else { throw MLTFault("the data ends before \(what()) at byte \(position)") }
        defer { position += 1 }
        return bytes[position]
    }

    /// A varint of up to 64 bits; `what` names it in the fault.
    mutating func varint(_ what: @autoclosure () -> String) throws(MLTFault) -> UInt64 {
        let start = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw MLTFault("truncated varint (\(what())) at byte \(start)") }
            guard shift < 64 else { throw MLTFault("varint longer than 10 bytes (\(what())) at byte \(start)") }
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// A varint that must fit 32 bits, as every count and code of the metadata does.
    mutating func varint32(_ what: @autoclosure () -> String) throws(MLTFault) -> UInt32 {
        let start = position
        let value = try varint(what())
        guard let narrow = UInt32(exactly: value) else { throw MLTFault("\(what()) at byte \(start) is \(value), more than 32 bits") }
        return narrow
    }

    /// The next `count` bytes as a range of `bytes`.
    mutating func take(_ count: Int, _ what: @autoclosure () -> String) throws(MLTFault) -> Range<Int> {
        guard count <= remaining else {
            throw MLTFault("\(what()) at byte \(position) claims \(count) bytes but only \(remaining) remain (truncated?)")
        }
        defer { position += count }
        return position..<(position + count)
    }

    /// A string: its length in bytes as a varint, then its UTF-8 bytes (invalid sequences repaired,
    /// as a browser's `TextDecoder` repairs them).
    mutating func string(_ what: @autoclosure () -> String) throws(MLTFault) -> String {
        let length = try varint32("the length of \(what())")
        return String(decoding: bytes[try take(Int(length), what())], as: UTF8.self)
    }
}
