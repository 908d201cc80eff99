/// A parsed JSON value that keeps the order of object members.
///
/// Objects keep their members in document order so that everything derived from them — events,
/// traces, error messages — is deterministic.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The member `key` of an object, or nil for a missing member or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The name of the value's JSON type, as used in error messages ("string", "number", ...).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The string, or nil when the value is not a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number, or nil when the value is not a number.
    public var numberValue: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The boolean, or nil when the value is not a boolean.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The elements, or nil when the value is not an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The object, or nil when the value is not an object.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// Whether the two values are the same JSON text but for spacing: strings and keys compared
    /// code unit by code unit (Swift's `==` calls canonically equivalent strings equal), numbers by
    /// their bits, members in order. Cheaper than writing both out and comparing the text.
    public func isIdentical(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): return JSONObject.sameKey(a, b)
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return false }
            for index in a.indices where !a[index].isIdentical(to: b[index]) { return false }
            return true
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            for (left, right) in zip(a.members, b.members) where !JSONObject.sameKey(left.key, right.key) || !left.value.isIdentical(to: right.value) {
                return false
            }
            return true
        default: return false
        }
    }

    /// Feeds the value to `hasher` so that identical values (`isIdentical(to:)`) hash alike.
    public func hashIdentity(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(UInt8(0))
        case .bool(let flag): hasher.combine(UInt8(flag ? 1 : 2))
        case .number(let number):
            hasher.combine(UInt8(3))
            hasher.combine(number.bitPattern)
        case .string(let text):
            hasher.combine(UInt8(4))
            Self.hashUTF8(text, into: &hasher)
        case .array(let elements):
            hasher.combine(UInt8(5))
            hasher.combine(elements.count)
            for element in elements { element.hashIdentity(into: &hasher) }
        case .object(let object):
            hasher.combine(UInt8(6))
            hasher.combine(object.count)
            for member in object.members {
                Self.hashUTF8(member.key, into: &hasher)
                member.value.hashIdentity(into: &hasher)
            }
        }
    }

    /// A string's length and UTF-8 bytes, at once where they are contiguous.
    private static func hashUTF8(_ text: String, into hasher: inout Hasher) {
        hasher.combine(text.utf8.count)
        if text.utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }
}
