import Foundation
import MapSimJSON

/// Evaluates constant expressions at parse time, as the reference does, so that a constant that
/// cannot be evaluated is reported where it is written. Only constant expressions get here: no
/// feature, zoom or state is ever read.
enum ExpressionEvaluator {
    static func evaluate(_ expression: ParsedExpression) throws(ExpressionRuntimeError) -> ExpressionValue {
        let children = expression.children
        switch expression.form {
        case .literal(let value):
            return value
        case .variable(let bound):
            return try evaluate(bound)
        case .let:
            return try evaluate(children[children.count - 1])
        case .assertion:
            return try assert(expression.type, children)
        case .coercion:
            return try coerce(expression.type, children)
        case .compound(let name):
            return try compound(name, type: expression.type, children.map { child throws(ExpressionRuntimeError) in try evaluate(child) })
        case .case:
            var index = 0
            while index < children.count - 1 {
                if try evaluate(children[index]) == .bool(true) { return try evaluate(children[index + 1]) }
                index += 2
            }
            return try evaluate(children[children.count - 1])
        case .coalesce:
            for child in children {
                let value = try evaluate(child)
                if value != .null { return value }
            }
            return .null
        case .match(let labels):
            let input = try evaluate(children[0])
            for (index, set) in labels.enumerated() where set.contains(input) {
                return try evaluate(children[index + 1])
            }
            return try evaluate(children[children.count - 1])
        case .step(let labels):
            guard case .number(let input) = try evaluate(children[0]) else { return .opaque(expression.type) }
            let index = labels.lastIndex { $0 <= input } ?? 0
            return try evaluate(children[index + 1])
        case .interpolate(let labels):
            guard case .number(let input) = try evaluate(children[0]) else { return .opaque(expression.type) }
            if input <= labels[0] { return try evaluate(children[1]) }
            if input >= labels[labels.count - 1] { return try evaluate(children[labels.count]) }
            // Between two stops the outputs are blended; only their evaluation can fail.
            let index = labels.lastIndex { $0 <= input } ?? 0
            _ = try evaluate(children[index + 1])
            _ = try evaluate(children[index + 2])
            return .opaque(expression.type)
        case .comparison(let op, let collator):
            let lhs = try evaluate(children[0])
            let rhs = try evaluate(children[1])
            return try compare(op, lhs, rhs, collated: collator)
        case .in:
            return try contains(try evaluate(children[0]), try evaluate(children[1]))
        case .indexOf:
            return try indexOf(children.map { child throws(ExpressionRuntimeError) in try evaluate(child) })
        case .slice:
            return try slice(children.map { child throws(ExpressionRuntimeError) in try evaluate(child) })
        case .at:
            return try element(try evaluate(children[0]), of: try evaluate(children[1]))
        case .length:
            switch try evaluate(children[0]) {
            case .string(let s): return .number(Double(s.unicodeScalars.count))
            case .array(let items): return .number(Double(items.count))
            case .opaque: return .opaque(.number)
            case let other: throw ExpressionRuntimeError(message: "Expected value to be of type string or array, but found \(other.type) instead.")
            }
        case .collator, .format, .image, .numberFormat, .within, .distance, .globalState:
            return .opaque(expression.type)
        }
    }

    // MARK: - Annotations

    private static func assert(_ type: ExpressionType, _ children: [ParsedExpression]) throws(ExpressionRuntimeError) -> ExpressionValue {
        for (index, child) in children.enumerated() {
            let value = try evaluate(child)
            if type.mismatch(value.type) == nil { return value }
            if index == children.count - 1 {
                throw ExpressionRuntimeError(message: "Expected value to be of type \(type), but found \(value.type) instead.")
            }
        }
        return .opaque(type)
    }

    private static func coerce(_ type: ExpressionType, _ children: [ParsedExpression]) throws(ExpressionRuntimeError) -> ExpressionValue {
        switch type {
        case .boolean:
            switch try evaluate(children[0]) {
            case .null: return .bool(false)
            case .bool(let b): return .bool(b)
            case .number(let n): return .bool(n != 0 && !n.isNaN)
            case .string(let s): return .bool(!s.isEmpty)
            case .opaque: return .opaque(.boolean)
            default: return .bool(true)
            }
        case .number:
            var value = ExpressionValue.null
            for child in children {
                value = try evaluate(child)
                if value == .null { return .number(0) }
                guard let number = javaScriptNumber(value) else { return .opaque(.number) }
                if !number.isNaN { return .number(number) }
            }
            throw ExpressionRuntimeError(message: "Could not convert \(JSONWriter.string(value.json)) to number.")
        case .color:
            var last = ExpressionValue.null
            var problem: String?
            for child in children {
                last = try evaluate(child)
                problem = nil
                switch last {
                case .color, .opaque: return last
                case .string(let text) where CSSColor.isColor(text): return .color(text)
                case .array(let items):
                    if items.count < 3 || items.count > 4 {
                        problem = "Invalid rgba value \(JSONWriter.string(last.json)): expected an array containing either three or four numeric values."
                    } else {
                        problem = rgbaProblem(items)
                    }
                    if problem == nil { return .color(JSONWriter.string(last.json)) }
                default:
                    break
                }
            }
            if let problem { throw ExpressionRuntimeError(message: problem) }
            let shown = last.stringValue ?? JSONWriter.string(last.json)
            throw ExpressionRuntimeError(message: "Could not parse color from value '\(shown)'")
        case .string:
            let value = try evaluate(children[0])
            return value.text.map(ExpressionValue.string) ?? .opaque(.string)
        case .padding, .numberArray, .colorArray, .variableAnchorOffsetCollection:
            var last = ExpressionValue.null
            for child in children {
                last = try evaluate(child)
                if !last.isKnown || parses(last, as: type) { return .opaque(type) }
            }
            let shown = last.stringValue ?? JSONWriter.string(last.json)
            throw ExpressionRuntimeError(message: "Could not parse \(type) from value '\(shown)'")
        default:
            // formatted, resolvedImage and projection definitions are built from any value.
            return .opaque(type)
        }
    }

    /// Whether `value` can be read as a padding, number array, color array or variable anchor offsets.
    private static func parses(_ value: ExpressionValue, as type: ExpressionType) -> Bool {
        func isNumber(_ v: ExpressionValue) -> Bool { if case .number = v { return true } else { return false } }
        func isColor(_ v: ExpressionValue) -> Bool {
            if case .string(let s) = v { return CSSColor.isColor(s) }
            if case .color = v { return true }
            return false
        }
        switch (type, value) {
        case (.padding, .number), (.numberArray, .number): return true
        case (.padding, .array(let items)): return (1...4).contains(items.count) && items.allSatisfy(isNumber)
        case (.numberArray, .array(let items)): return items.allSatisfy(isNumber)
        case (.colorArray, _) where isColor(value): return true
        case (.colorArray, .array(let items)): return items.allSatisfy(isColor)
        case (.variableAnchorOffsetCollection, .array(let items)):
            let anchors: Set<String> = ["center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right"]
            guard items.count % 2 == 0 else { return false }
            return stride(from: 0, to: items.count, by: 2).allSatisfy { index in
                guard case .string(let anchor) = items[index], anchors.contains(anchor),
                      case .array(let offset) = items[index + 1], offset.count == 2, offset.allSatisfy(isNumber) else { return false }
                return true
            }
        default: return false
        }
    }

    // MARK: - Compound operators

    private static func compound(_ name: String, type: ExpressionType, _ args: [ExpressionValue]) throws(ExpressionRuntimeError) -> ExpressionValue {
        let numbers = args.compactMap(\.numberValue)
        // Anything built from a value this evaluator does not model is itself not modelled.
        guard args.allSatisfy(\.isKnown) else { return .opaque(type) }
        switch name {
        case "+": return .number(numbers.reduce(0, +))
        case "*": return .number(numbers.reduce(1, *))
        case "-": return .number(numbers.count == 1 ? -numbers[0] : numbers[0] - numbers[1])
        case "/": return .number(numbers[0] / numbers[1])
        case "%": return .number(fmod(numbers[0], numbers[1]))
        case "^": return .number(pow(numbers[0], numbers[1]))
        case "ln2": return .number(M_LN2)
        case "pi": return .number(Double.pi)
        case "e": return .number(M_E)
        case "sqrt": return .number(numbers[0].squareRoot())
        case "log10": return .number(log10(numbers[0]))
        case "ln": return .number(log(numbers[0]))
        case "log2": return .number(log2(numbers[0]))
        case "sin": return .number(sin(numbers[0]))
        case "cos": return .number(cos(numbers[0]))
        case "tan": return .number(tan(numbers[0]))
        case "asin": return .number(asin(numbers[0]))
        case "acos": return .number(acos(numbers[0]))
        case "atan": return .number(atan(numbers[0]))
        case "abs": return .number(abs(numbers[0]))
        case "floor": return .number(numbers[0].rounded(.down))
        case "ceil": return .number(numbers[0].rounded(.up))
        case "round": return .number(numbers[0].rounded(.toNearestOrAwayFromZero))
        case "min": return .number(numbers.isEmpty ? .infinity : numbers.contains(where: \.isNaN) ? .nan : numbers.min() ?? .infinity)
        case "max": return .number(numbers.isEmpty ? -.infinity : numbers.contains(where: \.isNaN) ? .nan : numbers.max() ?? -.infinity)
        case "!": return .bool(args[0] != .bool(true))
        case "all": return .bool(args.allSatisfy { $0 == .bool(true) })
        case "any": return .bool(args.contains(.bool(true)))
        case "upcase": return args[0].stringValue.map { .string($0.uppercased()) } ?? .opaque(.string)
        case "downcase": return args[0].stringValue.map { .string($0.lowercased()) } ?? .opaque(.string)
        case "concat":
            let parts = args.compactMap { $0.text }
            return parts.count == args.count ? .string(parts.joined()) : .opaque(.string)
        case "typeof": return .string(args[0].type.description)
        case "has", "get":
            guard args.count == 2, case .object(let object) = args[1], let key = args[0].stringValue else { return .opaque(type) }
            if name == "has" { return .bool(object[key] != nil) }
            return object[key].map(ExpressionValue.init) ?? .null
        case "split":
            guard let text = args[0].stringValue, let separator = args[1].stringValue else { return .opaque(type) }
            if separator.isEmpty { return .array(text.map { .string(String($0)) }) }
            return .array(text.components(separatedBy: separator).map(ExpressionValue.string))
        case "join":
            guard case .array(let items) = args[0], let separator = args[1].stringValue else { return .opaque(type) }
            let parts = items.compactMap(\.text)
            return parts.count == items.count ? .string(parts.joined(separator: separator)) : .opaque(type)
        case "rgb", "rgba":
            if let problem = rgbaProblem(args) { throw ExpressionRuntimeError(message: problem) }
            return .color("rgba(\(args.map { $0.text ?? "" }.joined(separator: ",")))")
        default:
            return .opaque(type)
        }
    }

    /// The reference's message for components that are not a valid rgba color, or nil.
    private static func rgbaProblem(_ components: [ExpressionValue]) -> String? {
        func inRange(_ value: ExpressionValue, _ upper: Double) -> Bool {
            guard case .number(let n) = value else { return false }
            return n >= 0 && n <= upper
        }
        let shown = { (values: ArraySlice<ExpressionValue>) in values.map { $0.text ?? "" }.joined(separator: ", ") }
        let hasNumericAlpha = components.count > 3 && components[3].numberValue != nil
        if !components.prefix(3).allSatisfy({ inRange($0, 255) }) {
            return "Invalid rgba value [\(shown(hasNumericAlpha ? components.prefix(4) : components.prefix(3)))]: 'r', 'g', and 'b' must be between 0 and 255."
        }
        if components.count > 3, !inRange(components[3], 1) {
            return "Invalid rgba value [\(shown(components.prefix(4)))]: 'a' must be between 0 and 1."
        }
        return nil
    }

    // MARK: - Comparison and collections

    private static func compare(_ op: String, _ lhs: ExpressionValue, _ rhs: ExpressionValue, collated: Bool) throws(ExpressionRuntimeError) -> ExpressionValue {
        guard lhs.isKnown, rhs.isKnown, !collated else { return .opaque(.boolean) }
        if op == "==" { return .bool(lhs == rhs) }
        if op == "!=" { return .bool(lhs != rhs) }
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)):
            return .bool(op == "<" ? a < b : op == ">" ? a > b : op == "<=" ? a <= b : a >= b)
        case (.string(let a), .string(let b)):
            let (x, y) = (Array(a.utf16), Array(b.utf16))
            return .bool(op == "<" ? x.lexicographicallyPrecedes(y) : op == ">" ? y.lexicographicallyPrecedes(x)
                         : op == "<=" ? !y.lexicographicallyPrecedes(x) : !x.lexicographicallyPrecedes(y))
        default:
            throw ExpressionRuntimeError(message: "Expected arguments for \"\(op)\" to be (string, string) or (number, number), but found (\(lhs.type.kind), \(rhs.type.kind)) instead.")
        }
    }

    private static func isSearchable(_ needle: ExpressionValue) -> Bool {
        switch needle {
        case .null, .bool, .number, .string: true
        default: false
        }
    }

    private static func contains(_ needle: ExpressionValue, _ haystack: ExpressionValue) throws(ExpressionRuntimeError) -> ExpressionValue {
        guard needle.isKnown, haystack.isKnown else { return .opaque(.boolean) }
        switch haystack {
        case .null, .bool(false), .string(""): return .bool(false)
        case .number(let n) where n == 0 || n.isNaN: return .bool(false)
        default: break
        }
        guard isSearchable(needle) else {
            throw ExpressionRuntimeError(message: "Expected first argument to be of type boolean, string, number or null, but found \(needle.type) instead.")
        }
        switch haystack {
        case .string(let text): return .bool(text.contains(needle.text ?? ""))
        case .array(let items): return .bool(items.contains(needle))
        default: throw ExpressionRuntimeError(message: "Expected second argument to be of type array or string, but found \(haystack.type) instead.")
        }
    }

    private static func indexOf(_ args: [ExpressionValue]) throws(ExpressionRuntimeError) -> ExpressionValue {
        guard args.allSatisfy(\.isKnown) else { return .opaque(.number) }
        let (needle, haystack) = (args[0], args[1])
        guard isSearchable(needle) else {
            throw ExpressionRuntimeError(message: "Expected first argument to be of type boolean, string, number or null, but found \(needle.type) instead.")
        }
        switch haystack {
        case .string, .array: return .opaque(.number)
        default: throw ExpressionRuntimeError(message: "Expected second argument to be of type array or string, but found \(haystack.type) instead.")
        }
    }

    private static func slice(_ args: [ExpressionValue]) throws(ExpressionRuntimeError) -> ExpressionValue {
        switch args[0] {
        case .string, .array, .opaque: return .opaque(args[0].type)
        default: throw ExpressionRuntimeError(message: "Expected first argument to be of type array or string, but found \(args[0].type) instead.")
        }
    }

    private static func element(_ index: ExpressionValue, of array: ExpressionValue) throws(ExpressionRuntimeError) -> ExpressionValue {
        guard case .number(let i) = index, case .array(let items) = array else { return .opaque(.value) }
        if i < 0 { throw ExpressionRuntimeError(message: "Array index out of bounds: \(ExpressionValue.format(i)) < 0.") }
        if i >= Double(items.count) {
            throw ExpressionRuntimeError(message: "Array index out of bounds: \(ExpressionValue.format(i)) > \(items.count - 1).")
        }
        if i.rounded(.down) != i { throw ExpressionRuntimeError(message: "Array index must be an integer, but found \(ExpressionValue.format(i)) instead.") }
        return items[Int(i)]
    }

    /// JavaScript's `Number(value)`, or nil when that is not modelled.
    private static func javaScriptNumber(_ value: ExpressionValue) -> Double? {
        switch value {
        case .null: return 0
        case .bool(let b): return b ? 1 : 0
        case .number(let n): return n
        case .string(let s):
            let trimmed = s.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { return 0 }
            if trimmed == "Infinity" || trimmed == "+Infinity" { return .infinity }
            if trimmed == "-Infinity" { return -.infinity }
            if trimmed.lowercased().hasPrefix("0x") { return UInt64(trimmed.dropFirst(2), radix: 16).map(Double.init) ?? .nan }
            if trimmed.contains(where: { $0.isLetter && $0 != "e" && $0 != "E" }) { return .nan }
            return Double(trimmed) ?? .nan
        case .array(let items):
            if items.isEmpty { return 0 }
            if items.count == 1 { return javaScriptNumber(items[0].text.map(ExpressionValue.string) ?? .null) }
            return .nan
        case .object, .color: return .nan
        case .opaque: return nil
        }
    }
}
