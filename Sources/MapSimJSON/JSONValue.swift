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
}

/// A JSON object: members in document order, with keyed lookup.
///
/// Small objects (most of a style, every event payload) are searched linearly; an index by key is
/// built only once an object grows past `indexThreshold` members.
public struct JSONObject: Sendable, Equatable {
    /// The members in document order. A repeated key keeps its last value, at its first position.
    public private(set) var members: [(key: String, value: JSONValue)] = []
    private var index: [String: Int]?
    private static let indexThreshold = 12

    /// An empty object.
    public init() {}

    /// An object with these members, in this order.
    public init(_ members: [(String, JSONValue)]) {
        self.members.reserveCapacity(members.count)
        for (key, value) in members { self[key] = value }
    }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return members.firstIndex { $0.key == key }
    }

    /// The value of `key`, or nil when absent. Setting nil removes the member.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let position = position(of: key) {
                if let newValue {
                    members[position].value = newValue
                } else {
                    members.remove(at: position)
                    rebuildIndex()
                }
            } else if let newValue {
                members.append((key, newValue))
                if index != nil {
                    index?[key] = members.count - 1
                } else if members.count > Self.indexThreshold {
                    rebuildIndex()
                }
            }
        }
    }

    private mutating func rebuildIndex() {
        index = members.count > Self.indexThreshold ? Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1.key, $0) }) : nil
    }

    /// The keys in document order.
    public var keys: [String] { members.map(\.key) }

    /// The number of members.
    public var count: Int { members.count }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
