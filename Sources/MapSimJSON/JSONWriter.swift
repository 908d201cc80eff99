/// Writes `JSONValue`s as compact JSON text, deterministically: members in their stored order,
/// integral numbers without a fraction, other numbers in their shortest round-trip form.
public enum JSONWriter {
    /// The compact JSON text of `value`.
    public static func string(_ value: JSONValue) -> String {
        var bytes: [UInt8] = []
        write(value, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the compact JSON text of `value` to `bytes`, as UTF-8: no intermediate strings, so a
    /// trace of a million events is written at a million events a second.
    public static func write(_ value: JSONValue, into bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let b): bytes.append(contentsOf: b ? "true".utf8 : "false".utf8)
        case .number(let n): writeNumber(n, into: &bytes)
        case .string(let s): writeString(s, into: &bytes)
        case .array(let elements):
            bytes.append(0x5B)
            for (i, element) in elements.enumerated() {
                if i > 0 { bytes.append(0x2C) }
                write(element, into: &bytes)
            }
            bytes.append(0x5D)
        case .object(let object):
            bytes.append(0x7B)
            for (i, member) in object.members.enumerated() {
                if i > 0 { bytes.append(0x2C) }
                writeString(member.key, into: &bytes)
                bytes.append(0x3A)
                write(member.value, into: &bytes)
            }
            bytes.append(0x7D)
        }
    }

    /// Appends a number as `formatNumber` writes it (integers digit by digit, with no string).
    public static func writeNumber(_ n: Double, into bytes: inout [UInt8]) {
        guard n.isFinite, n == n.rounded(), abs(n) < 1e15 else {
            bytes.append(contentsOf: formatNumber(n).utf8)
            return
        }
        var value = Int64(n)
        if value < 0 {
            bytes.append(0x2D)
            value = -value
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(value % 10) + 0x30
                value /= 10
                count += 1
            } while value > 0
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    /// A number as JSON: integers without a fraction; NaN and infinities as null.
    public static func formatNumber(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return "\(n)"
    }

    /// Appends `s` as a quoted, escaped JSON string, as UTF-8, as `writeString(utf8:into:)` writes it.
    public static func writeString(_ s: String, into bytes: inout [UInt8]) {
        let copied: Void? = s.utf8.withContiguousStorageIfAvailable { writeString(utf8: $0, into: &bytes) }
        if copied == nil {
            // A string without contiguous UTF-8 (bridged): its bytes copied once.
            Array(s.utf8).withUnsafeBufferPointer { writeString(utf8: $0, into: &bytes) }
        }
    }

    /// What escaping each byte adds to a JSON string: one byte for `\"`, `\\`, `\n`, `\r`, `\t`, five
    /// for another control character (`\u00XX`), none for the rest.
    private static let escapeLengths: [UInt8] = (0...255).map { byte in
        switch byte {
        case 0x22, 0x5C, 0x0A, 0x0D, 0x09: 1
        case 0..<0x20: 5
        default: 0
        }
    }

    /// Appends the UTF-8 text `utf8` as a quoted, escaped JSON string: copied whole when nothing in
    /// it needs escaping.
    public static func writeString(utf8: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) {
        bytes.append(0x22)
        // What the escapes add, counted without a branch per byte.
        var added = 0
        escapeLengths.withUnsafeBufferPointer { lengths in
            for byte in utf8 { added &+= Int(lengths[Int(byte)]) }
        }
        guard added > 0 else {
            bytes.append(contentsOf: utf8)
            bytes.append(0x22)
            return
        }
        // A text with escapes (a JSON line in a string: a quote every few bytes) is written byte
        // by byte into room made for it, then appended at once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: utf8.count + added) { room in
            var out = room.baseAddress!
            for byte in utf8 {
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else {
                    out.pointee = byte
                    out += 1
                    continue
                }
                out.pointee = 0x5C
                switch byte {
                case 0x22, 0x5C: out[1] = byte
                case 0x0A: out[1] = 0x6E
                case 0x0D: out[1] = 0x72
                case 0x09: out[1] = 0x74
                default:
                    let low = byte & 0x0F
                    out[1] = 0x75
                    out[2] = 0x30
                    out[3] = 0x30
                    out[4] = byte < 0x10 ? 0x30 : 0x31
                    out[5] = low < 10 ? 0x30 + low : 0x61 + low - 10
                    out += 4
                }
                out += 2
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: room[..<(out - room.baseAddress!)]))
        }
        bytes.append(0x22)
    }

    /// Appends `s` as a quoted, escaped JSON string.
    public static func writeString(_ s: String, to output: inout String) {
        output += "\""
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            output += s
            output += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
