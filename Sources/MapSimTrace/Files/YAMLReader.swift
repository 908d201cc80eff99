import Foundation
import MapSimJSON
import Yams

/// Reads YAML documents (scenarios, golden traces) into JSON values with bounded work: a document
/// nested deeper than `maximumDepth` is refused before it is parsed, and one whose aliases expand to
/// more than `maximumValues` values ("billion laughs") is refused while it is converted — never a
/// crash, a hang or unbounded memory.
public enum YAMLReader {
    /// The deepest nesting of flow collections read.
    public static let maximumDepth = 256
    /// The most values a document may hold once its aliases are expanded.
    public static let maximumValues = 1_000_000

    /// The value of the YAML document `text`.
    public static func read(_ text: String) throws(YAMLError) -> JSONValue {
        if let line = lineBeyondDepth(text) {
            throw YAMLError(.tooDeep, line: line, "nested deeper than \(maximumDepth) levels")
        }
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch {
            throw YAMLError(.malformed, line: nil, "not valid YAML: \(error)", underlying: error)
        }
        guard let node else { return .null }
        var budget = maximumValues
        return try value(of: node, budget: &budget)
    }

    private static func value(of node: Node, budget: inout Int) throws(YAMLError) -> JSONValue {
        budget -= 1
        guard budget >= 0 else {
            throw YAMLError(.tooLarge, line: node.mark.map { $0.line }, "the document expands to more than \(maximumValues) values (YAML aliases repeat what they name)")
        }
        switch node {
        case .scalar:
            switch node.any {
            case let bool as Bool: return .bool(bool)
            case let int as Int: return .number(Double(int))
            case let double as Double: return .number(double)
            case is NSNull: return .null
            default: return .string(node.string ?? "")
            }
        case .mapping(let mapping):
            var members: [(String, JSONValue)] = []
            for (key, value) in mapping { members.append((key.string ?? "", try self.value(of: value, budget: &budget))) }
            return .object(JSONObject(members))
        case .sequence(let sequence):
            var items: [JSONValue] = []
            for item in sequence { items.append(try value(of: item, budget: &budget)) }
            return .array(items)
        case .alias:
            return .null
        }
    }

    /// The line where flow collections (`[`, `{`) nest deeper than the limit, outside quoted text.
    private static func lineBeyondDepth(_ text: String) -> Int? {
        var depth = 0
        var line = 1
        var quote: UInt8?
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == 0x0A { line += 1 }
            if let open = quote {
                if byte == open && previous != 0x5C { quote = nil }
            } else if byte == 0x22 || byte == 0x27 {
                quote = byte
            } else if byte == 0x5B || byte == 0x7B {
                depth += 1
                if depth > maximumDepth { return line }
            } else if byte == 0x5D || byte == 0x7D {
                depth = max(0, depth - 1)
            }
            previous = byte
        }
        return nil
    }
}
