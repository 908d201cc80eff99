/// Reads protocol buffer wire format, checking every length against the data, so that truncated or
/// corrupt input gives a `LoadingError` naming the byte offset rather than a crash.
struct ProtobufReader {
    enum WireType: UInt64 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5
    }

    private let bytes: [UInt8]
    private(set) var position: Int
    private let end: Int

    init(_ bytes: [UInt8]) {
        self.init(bytes, range: 0..<bytes.count)
    }


    /// A reader of `range` of `bytes`.
    init(_ bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
    }

    var isAtEnd: Bool { position >= end }

    /// The next field's number and wire type.
    mutating func nextField() throws(LoadingError) -> (number: UInt64, type: WireType) {
        let start = position
        let key = try varint()
        guard let type = WireType(rawValue: key & 7) else {
            throw LoadingError.malformedResource("unsupported protobuf wire type \(key & 7) at byte \(start)")
        }
        guard key >> 3 > 0 else { throw LoadingError.malformedResource("protobuf field number 0 at byte \(start)") }
        return (key >> 3, type)
    }

    mutating func varint() throws(LoadingError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = position
        while true {
            guard position < end else { throw LoadingError.malformedResource("truncated varint at byte \(start)") }
            let byte = bytes[position]
            position += 1
            guard shift < 64 else { throw LoadingError.malformedResource("varint longer than 10 bytes at byte \(start)") }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    mutating func zigzag() throws(LoadingError) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// A length-delimited field as a reader of its own bytes.
    mutating func message() throws(LoadingError) -> ProtobufReader {
        let range = try lengthDelimitedRange()
        return ProtobufReader(bytes, range: range)
    }

    mutating func string() throws(LoadingError) -> String {
        String(decoding: bytes[try lengthDelimitedRange()], as: UTF8.self)
    }

    mutating func data() throws(LoadingError) -> ArraySlice<UInt8> {
        bytes[try lengthDelimitedRange()]
    }

    /// A length-delimited field as the range of its bytes, and the buffer they are in.
    mutating func dataRange() throws(LoadingError) -> (buffer: [UInt8], range: Range<Int>) {
        (bytes, try lengthDelimitedRange())
    }

    mutating func fixed32() throws(LoadingError) -> UInt32 {
        guard end - position >= 4 else { throw LoadingError.malformedResource("truncated 32-bit field at byte \(position)") }
        var value: UInt32 = 0
        for i in 0..<4 { value |= UInt32(bytes[position + i]) << (8 * UInt32(i)) }
        position += 4
        return value
    }

    mutating func fixed64() throws(LoadingError) -> UInt64 {
        guard end - position >= 8 else { throw LoadingError.malformedResource("truncated 64-bit field at byte \(position)") }
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(bytes[position + i]) << (8 * UInt64(i)) }
        position += 8
        return value
    }

    /// Packed varints (or a single unpacked one).
    mutating func packedVarints(_ type: WireType) throws(LoadingError) -> [UInt64] {
        guard type == .lengthDelimited else { return [try varint()] }
        var inner = try message()
        var values: [UInt64] = []
        while !inner.isAtEnd { values.append(try inner.varint()) }
        return values
    }

    mutating func skip(_ type: WireType) throws(LoadingError) {
        switch type {
        case .varint: _ = try varint()
        case .fixed64: _ = try fixed64()
        case .fixed32: _ = try fixed32()
        case .lengthDelimited: _ = try lengthDelimitedRange()
        }
    }

    private mutating func lengthDelimitedRange() throws(LoadingError) -> Range<Int> {
        let start = position
        let length = try varint()
        guard length <= UInt64(end - position) else {
            throw LoadingError.malformedResource("field at byte \(start) claims \(length) bytes but only \(end - position) remain (truncated?)")
        }
        let range = position..<(position + Int(length))
        position = range.upperBound
        return range
    }
}
