/// Writes `JSONValue`s as compact JSON text, deterministically: members in their stored order,
/// integral numbers without a fraction, other numbers in their shortest round-trip form.
public enum JSONWriter {
    /// The compact JSON text of `value`.
    public static func string(_ value: JSONValue) -> String {
        var output = ""
        write(value, to: &output)
        return output
    }

    /// Appends the compact JSON text of `value` to `output`.
    public static func write(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let b): output += b ? "true" : "false"
        case .number(let n): output += formatNumber(n)
        case .string(let s): writeString(s, to: &output)
        case .array(let elements):
            output += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { output += "," }
                write(element, to: &output)
            }
            output += "]"
        case .object(let object):
            output += "{"
            for (i, member) in object.members.enumerated() {
                if i > 0 { output += "," }
                writeString(member.key, to: &output)
                output += ":"
                write(member.value, to: &output)
            }
            output += "}"
        }
    }

    /// A number as JSON: integers without a fraction; NaN and infinities as null.
    public static func formatNumber(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return "\(n)"
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
