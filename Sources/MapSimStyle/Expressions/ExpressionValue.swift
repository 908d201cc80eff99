import MapSimJSON

/// The value of a constant style expression, as far as validation needs it.
///
/// Validation folds constant subexpressions the way the reference does, because a constant that
/// fails to evaluate (`["to-color", "reddish"]`) is a parse error there. Values that no check can
/// fail on — formatted text, collators, colors taken apart — are kept `opaque`: only their type
/// is known, and nothing built from them reports an error.
enum ExpressionValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    /// A color that parsed; its text is kept, not its components.
    case color(String)
    case array([ExpressionValue])
    case object(JSONObject)
    /// A value of this type whose content is not modelled.
    case opaque(ExpressionType)

    /// The value of a JSON literal.
    init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let elements): self = .array(elements.map(ExpressionValue.init))
        case .object(let object): self = .object(object)
        }
    }

    /// The type of the value, with the reference's rule for arrays: one item type when every item
    /// has the same non-array type, `value` otherwise.
    var type: ExpressionType {
        switch self {
        case .null: return .null
        case .bool: return .boolean
        case .number: return .number
        case .string: return .string
        case .color: return .color
        case .object: return .object
        case .opaque(let type): return type
        case .array(let items):
            var item: ExpressionType?
            for element in items {
                let type = element.type
                if item == nil {
                    item = type
                } else if case .array = type {
                    item = .value
                    break
                } else if item != type {
                    item = .value
                    break
                }
            }
            return .array(item ?? .value, count: items.count)
        }
    }

    /// Whether the value is modelled (not `opaque`), here or in any item.
    var isKnown: Bool {
        switch self {
        case .opaque: false
        case .array(let items): items.allSatisfy(\.isKnown)
        default: true
        }
    }

    /// The value as the `to-string` operator writes it, or nil when it is not modelled.
    var text: String? {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return ExpressionValue.format(n)
        case .string(let s): return s
        case .color, .opaque: return nil
        case .array, .object: return isKnown ? JSONWriter.string(json) : nil
        }
    }

    /// The value as JSON (opaque parts as null).
    var json: JSONValue {
        switch self {
        case .null, .opaque, .color: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .array(let items): return .array(items.map(\.json))
        case .object(let object): return .object(object)
        }
    }

    /// A number as JavaScript's `String(n)` writes it.
    static func format(_ n: Double) -> String {
        if n.isNaN { return "NaN" }
        if n.isInfinite { return n < 0 ? "-Infinity" : "Infinity" }
        return JSONWriter.formatNumber(n)
    }
}

extension ExpressionValue {
    /// The number, or nil when the value is not a number.
    var numberValue: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The string, or nil when the value is not a string.
    var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}
