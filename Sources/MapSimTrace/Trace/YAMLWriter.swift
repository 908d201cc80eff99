import MapSim
import MapSimJSON

/// Writes JSON values as YAML flow collections: one line per value, keys in their stored order,
/// scalars plain where YAML reads them back as the same string, double-quoted otherwise.
enum YAMLWriter {
    /// The flow-style YAML of `value`.
    static func flow(_ value: JSONValue) -> String {
        var output = ""
        write(value, to: &output)
        return output
    }

    private static func write(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let b): output += b ? "true" : "false"
        case .number(let n): output += JSONWriter.formatNumber(n)
        case .string(let s): output += scalar(s)
        case .array(let elements):
            output += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { output += ", " }
                write(element, to: &output)
            }
            output += "]"
        case .object(let object):
            output += "{"
            for (i, member) in object.members.enumerated() {
                if i > 0 { output += ", " }
                output += scalar(member.key) + ": "
                write(member.value, to: &output)
            }
            output += "}"
        }
    }

    private static let reserved: Set<String> = ["true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"]

    /// A string as a plain scalar when that is safe in flow context, else JSON-quoted (valid YAML).
    static func scalar(_ text: String) -> String {
        let plain = !text.isEmpty && !reserved.contains(text.lowercased()) && text.first!.isLetter
            && text.unicodeScalars.allSatisfy { ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0) || "_-./".unicodeScalars.contains($0) }
        if plain { return text }
        var quoted = ""
        JSONWriter.writeString(text, to: &quoted)
        return quoted
    }
}
