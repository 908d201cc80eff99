import MapSimJSON

/// A value of the expression language: what an expression evaluates to, with one case per type
/// of the style spec's type system.
public enum ExpressionValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case color(RGBAColor)
    case array([ExpressionValue])
    /// An object, from a literal, the feature's properties or a state.
    case object(JSONObject)
    case collator(ExpressionCollator)
    case formatted(FormattedText)
    case image(ResolvedImage)
    /// Four paddings: top, right, bottom, left.
    case padding([Double])
    case numberArray([Double])
    case colorArray([RGBAColor])
    /// Anchors and their `[x, y]` offsets, alternating, as written.
    case variableAnchorOffsets([JSONValue])
    case projection(ProjectionDefinition)
    /// JavaScript's `undefined`: what `global-state` gives for a key the state does not have (when
    /// it has others); it is typed `object`, equals only itself, and is written as null.
    case undefined

    /// The value of a JSON literal.
    public init(_ json: JSONValue) {
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
        case .object, .undefined: return .object
        case .collator: return .collator
        case .formatted: return .formatted
        case .image: return .resolvedImage
        case .padding: return .padding
        case .numberArray: return .numberArray
        case .colorArray: return .colorArray
        case .variableAnchorOffsets: return .variableAnchorOffsetCollection
        case .projection: return .projectionDefinition
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

    /// The value as the `to-string` operator and `concat` write it.
    public var text: String {
        switch self {
        // JavaScript's `undefined` is no text: `concat` joins it as nothing.
        case .null, .undefined: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return JavaScriptNumber.string(n)
        case .string(let s): return s
        case .color(let color): return color.cssText
        case .formatted(let formatted): return formatted.sections.map(\.text).joined()
        case .image(let image): return image.name
        case .projection: return "[object Object]"
        case .padding(let values), .numberArray(let values): return Self.jsonText(.array(values.map(JSONValue.number)))
        case .colorArray(let colors): return Self.jsonText(.array(colors.map { ExpressionValue.color($0).json(topLevel: false) }))
        case .variableAnchorOffsets(let items): return Self.jsonText(.array(items))
        default: return Self.jsonText(json(topLevel: false))
        }
    }

    /// The value as the reference's test harness writes an output: colors as `[r, g, b, a]` at the
    /// top and as `{r, g, b, a}` inside other values (premultiplied, from 0 to 1), typed arrays as
    /// `{"values": [...]}`, formatted text as its sections, images as `{name, available}`.
    public func json(topLevel: Bool = true) -> JSONValue {
        func color(_ color: RGBAColor) -> JSONValue {
            .object(JSONObject([("r", .number(color.red)), ("g", .number(color.green)), ("b", .number(color.blue)), ("a", .number(color.alpha))]))
        }
        func values(_ items: [JSONValue]) -> JSONValue { .object(JSONObject([("values", .array(items))])) }
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .color(let value):
            return topLevel ? .array([value.red, value.green, value.blue, value.alpha].map(JSONValue.number)) : color(value)
        case .array(let items): return .array(items.map { $0.json(topLevel: false) })
        case .object(let object): return .object(object)
        case .collator(let collator):
            return .object(JSONObject([("locale", collator.locale.map(JSONValue.string) ?? .null), ("sensitivity", .string(collator.sensitivity)),
                                       ("collator", .object(JSONObject()))]))
        case .formatted(let formatted):
            let sections = formatted.sections.map { section -> JSONValue in
                .object(JSONObject([
                    ("text", .string(section.text)), ("image", section.image.map { ExpressionValue.image($0).json() } ?? .null),
                    ("scale", section.scale.map(JSONValue.number) ?? .null), ("fontStack", section.fontStack.map(JSONValue.string) ?? .null),
                    ("textColor", section.textColor.map(color) ?? .null), ("verticalAlign", section.verticalAlign.map(JSONValue.string) ?? .null),
                ]))
            }
            return .object(JSONObject([("sections", .array(sections))]))
        case .image(let image):
            return .object(JSONObject([("name", .string(image.name)), ("available", .bool(image.available))]))
        case .padding(let numbers), .numberArray(let numbers): return values(numbers.map(JSONValue.number))
        case .colorArray(let colors): return values(colors.map(color))
        case .variableAnchorOffsets(let items): return values(items)
        case .projection(let projection):
            return .object(JSONObject([("from", .string(projection.from)), ("to", .string(projection.to)), ("transition", .number(projection.transition))]))
        case .undefined: return .null
        }
    }

    /// JSON text as JavaScript's `JSON.stringify` writes it: numbers in JavaScript's notation,
    /// NaN and infinities as null.
    public static func jsonText(_ json: JSONValue) -> String {
        var output = ""
        write(json, to: &output)
        return output
    }

    /// Members in the order JavaScript enumerates an object's keys (and `JSON.stringify` writes
    /// them): array indices — "0" to "4294967294", no leading zeros — first, ascending, then the
    /// others in the order they were made.
    static func javaScriptOrder(_ members: [(key: String, value: JSONValue)]) -> [(key: String, value: JSONValue)] {
        func arrayIndex(_ key: String) -> UInt32? {
            guard let first = key.utf8.first, first != UInt8(ascii: "0") || key.utf8.count == 1,
                  key.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let value = UInt32(key), value < UInt32.max else { return nil }
            return value
        }
        let indexed = members.compactMap { member in arrayIndex(member.key).map { ($0, member) } }
        guard !indexed.isEmpty else { return members }
        return indexed.sorted { $0.0 < $1.0 }.map(\.1) + members.filter { arrayIndex($0.key) == nil }
    }

    private static func write(_ json: JSONValue, to output: inout String) {
        switch json {
        case .null: output += "null"
        case .bool(let b): output += b ? "true" : "false"
        case .number(let n): output += n.isFinite ? JavaScriptNumber.string(n) : "null"
        case .string(let s): JSONWriter.writeString(s, to: &output)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                write(item, to: &output)
            }
            output += "]"
        case .object(let object):
            output += "{"
            for (index, member) in javaScriptOrder(object.members).enumerated() {
                if index > 0 { output += "," }
                JSONWriter.writeString(member.key, to: &output)
                output += ":"
                write(member.value, to: &output)
            }
            output += "}"
        }
    }

    /// Whether JavaScript would hold the value true in a condition.
    var isTruthy: Bool {
        switch self {
        case .null, .undefined: false
        case .bool(let b): b
        case .number(let n): n != 0 && !n.isNaN
        case .string(let s): !s.isEmpty
        default: true
        }
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

/// Text with per-section fonts, scales, colors and inline images: the value of `format`.
public struct FormattedText: Equatable, Sendable {
    public var sections: [FormattedSection]

    /// One unformatted section holding `text`.
    init(text: String) {
        sections = [FormattedSection(text: text)]
    }

    init(sections: [FormattedSection]) {
        self.sections = sections
    }
}

/// One section of formatted text: text or an image, with its own overrides.
public struct FormattedSection: Equatable, Sendable {
    public var text: String
    public var image: ResolvedImage?
    public var scale: Double?
    /// The section's `text-font`, joined with commas, when it overrides the layer's.
    public var fontStack: String?
    public var textColor: RGBAColor?
    public var verticalAlign: String?

    init(text: String, image: ResolvedImage? = nil, scale: Double? = nil, fontStack: String? = nil,
         textColor: RGBAColor? = nil, verticalAlign: String? = nil) {
        self.text = text
        self.image = image
        self.scale = scale
        self.fontStack = fontStack
        self.textColor = textColor
        self.verticalAlign = verticalAlign
    }
}

/// An image named by an expression, and whether the style's images have it.
public struct ResolvedImage: Equatable, Sendable {
    public var name: String
    public var available: Bool
}

/// A projection, or a transition between two, as `interpolate` gives it.
public struct ProjectionDefinition: Equatable, Sendable {
    public var from: String
    public var to: String
    public var transition: Double
}
