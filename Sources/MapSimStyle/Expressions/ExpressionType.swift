import MapSimJSON

/// The static type of a style expression, as the style spec's expression language defines it.
indirect enum ExpressionType: Equatable, Sendable, CustomStringConvertible {
    case null, number, string, boolean, color, object, value, error, collator, formatted
    case padding, numberArray, colorArray, resolvedImage, variableAnchorOffsetCollection, projectionDefinition
    /// An array of `item`, of length `count` when that is known.
    case array(ExpressionType, count: Int?)

    /// The type's kind: its name without item type or length (`array` for every array).
    /// Whether a `value` is asserted (not coerced) where this type is expected: string, number,
    /// boolean, object and array.
    var isAssertedFromValue: Bool {
        switch self {
        case .string, .number, .boolean, .object, .array: true
        default: false
        }
    }

    var kind: String {
        switch self {
        case .null: "null"
        case .number: "number"
        case .string: "string"
        case .boolean: "boolean"
        case .color: "color"
        case .object: "object"
        case .value: "value"
        case .error: "error"
        case .collator: "collator"
        case .formatted: "formatted"
        case .padding: "padding"
        case .numberArray: "numberArray"
        case .colorArray: "colorArray"
        case .resolvedImage: "resolvedImage"
        case .variableAnchorOffsetCollection: "variableAnchorOffsetCollection"
        case .projectionDefinition: "projectionDefinition"
        case .array: "array"
        }
    }

    /// The type as messages print it: `array<number, 2>`, `array<string>`, `array` for values.
    var description: String {
        guard case .array(let item, let count) = self else { return kind }
        if let count { return "array<\(item), \(count)>" }
        return item == .value ? "array" : "array<\(item)>"
    }

    /// The types a `value` may hold.
    private static let valueMembers: [ExpressionType] = [
        .null, .number, .string, .boolean, .color, .projectionDefinition, .formatted, .object, .array(.value, count: nil),
        .padding, .numberArray, .colorArray, .resolvedImage, .variableAnchorOffsetCollection,
    ]

    /// Nil when `actual` may stand where `self` is expected, else the message saying it may not.
    func mismatch(_ actual: ExpressionType) -> String? {
        accepts(actual) ? nil : "Expected \(self) but found \(actual) instead."
    }

    /// Whether `actual` may stand where `self` is expected (`mismatch` says why not): the same type
    /// (an array of an accepted item type and of the expected length, an empty array of values),
    /// any type a `value` may hold where a value is expected, and an error anywhere. Decided without
    /// making a message: `value` tries its members in turn, and most of them fail.
    func accepts(_ actual: ExpressionType) -> Bool {
        if actual == .error { return true }
        switch self {
        case .array(let item, let count):
            guard case .array(let actualItem, let actualCount) = actual else { return false }
            return ((actualCount == 0 && actualItem == .value) || item.accepts(actualItem)) && (count == nil || count == actualCount)
        case .value:
            return actual == .value || Self.valueMembers.contains { $0.accepts(actual) }
        default:
            // Every type but an array is its kind alone.
            return self == actual
        }
    }

    /// The type a property of the reference expects of an expression, or nil when it expects none.
    init?(propertySpec spec: JSONObject) {
        guard let name = spec["type"]?.stringValue else { return nil }
        if name == "array" {
            let item = spec["value"]?.stringValue.flatMap(Self.init(specName:)) ?? .value
            self = .array(item, count: spec["length"]?.numberValue.map { Int($0) })
        } else if let type = Self(specName: name) {
            self = type
        } else {
            return nil
        }
    }

    private init?(specName name: String) {
        switch name {
        case "color": self = .color
        case "string", "enum": self = .string
        case "number": self = .number
        case "boolean": self = .boolean
        case "formatted": self = .formatted
        case "padding": self = .padding
        case "numberArray": self = .numberArray
        case "colorArray": self = .colorArray
        case "resolvedImage": self = .resolvedImage
        case "variableAnchorOffsetCollection": self = .variableAnchorOffsetCollection
        case "projectionDefinition": self = .projectionDefinition
        default: return nil
        }
    }
}
