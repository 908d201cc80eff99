import MapSimJSON

/// How gl-style-validate's JavaScript sees the values it reads. Its JSON reader boxes every string,
/// number and boolean (to carry its line), so a present value is true even when it is `false`, `0`
/// or `""`; only a missing value or `null` is false. Messages show values with `${value}`.
extension StyleValidator {
    /// Whether `value` is true to JavaScript as the reference reads it: present and not null.
    static func isPresent(_ value: JSONValue?) -> Bool {
        guard let value else { return false }
        return value != .null
    }

    /// `${value}` of the unboxed value: `undefined`, `null`, numbers as JavaScript prints them,
    /// arrays joined with commas, objects as `[object Object]`.
    static func javaScriptString(_ value: JSONValue?) -> String {
        guard let value else { return "undefined" }
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return JavaScriptNumber.string(number)
        case .string(let text): return text
        case .array(let elements): return elements.map { $0 == .null ? "" : javaScriptString($0) }.joined(separator: ",")
        case .object: return "[object Object]"
        }
    }

    /// `a === b` of unboxed values: the same string, number or boolean, or both null, or both missing.
    static func strictlyEqual(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
        switch (a, b) {
        case (nil, nil), (.null?, .null?): return true
        case let (.string(x)?, .string(y)?): return x == y
        case let (.number(x)?, .number(y)?): return x == y
        case let (.bool(x)?, .bool(y)?): return x == y
        default: return false
        }
    }

    /// `object[key]` in JavaScript, for a key that is any value (`${key}` names the member).
    static func member(of object: JSONValue?, named key: JSONValue?) -> JSONValue? {
        guard case .object(let members)? = object else { return nil }
        return members[javaScriptString(key)]
    }

    /// JavaScript's `a > b` of unboxed values: two strings compare by UTF-16 code units, anything
    /// else as numbers (`null` 0, booleans 0 and 1, arrays and objects by their text); NaN is never greater.
    static func isGreater(_ a: JSONValue, than b: JSONValue) -> Bool {
        func primitive(_ value: JSONValue) -> JSONValue {
            switch value {
            case .array, .object: .string(javaScriptString(value))
            default: value
            }
        }
        func number(_ value: JSONValue) -> Double {
            switch value {
            case .null: 0
            case .bool(let flag): flag ? 1 : 0
            case .number(let number): number
            case .string(let text): JavaScriptNumber.parse(text)
            case .array, .object: .nan
            }
        }
        let (left, right) = (primitive(a), primitive(b))
        if case .string(let x) = left, case .string(let y) = right {
            return y.utf16.lexicographicallyPrecedes(x.utf16)
        }
        return number(left) > number(right)
    }
}
