/// A JSON object: members in document order, with keyed lookup.
///
/// Keys are compared as JSON and JavaScript compare them, code unit by code unit: "é" and
/// "e\u{301}" are two keys (Swift's `==` would call them equal, as canonically equivalent).
///
/// Small objects (most of a style, every event payload) are searched linearly; an index by key is
/// built only once an object grows past `indexThreshold` members.
public struct JSONObject: Sendable, Equatable {
    /// A key compared and hashed by its UTF-8 code units.
    private struct ExactKey: Hashable {
        let text: String

        static func == (lhs: ExactKey, rhs: ExactKey) -> Bool { JSONObject.sameKey(lhs.text, rhs.text) }

        func hash(into hasher: inout Hasher) {
            if text.utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
                for byte in text.utf8 { hasher.combine(byte) }
            }
        }
    }

    /// Whether two keys are the same code units: their UTF-8 bytes compared at once.
    @inline(__always)
    static func sameKey(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let compared = a.utf8.withContiguousStorageIfAvailable { left in
            b.utf8.withContiguousStorageIfAvailable { right in left.elementsEqual(right) }
        }
        return (compared ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }

    /// The members in document order. A repeated key keeps its last value, at its first position.
    public private(set) var members: [(key: String, value: JSONValue)] = []
    private var index: [ExactKey: Int]?
    private static let indexThreshold = 12

    /// An empty object.
    public init() {}

    /// An object with these members, in this order.
    public init(_ members: [(String, JSONValue)]) {
        self.members.reserveCapacity(members.count)
        for (key, value) in members { self[key] = value }
    }

    /// An object with these members in this order, built at once: the fast way to make an object
    /// from data whose keys are usually distinct (a repeated key still keeps its last value, at its
    /// first position).
    public init(members: [(key: String, value: JSONValue)]) {
        // A large object's index is built as its keys are checked: each key hashed once.
        if let index = Self.indexIfDistinct(members) {
            self.init()
            self.members = members
            self.index = index.isEmpty ? nil : index
        } else {
            self.init(members.map { ($0.key, $0.value) })
        }
    }

    /// The index of `members` by key when their keys are distinct (empty for a small object,
    /// which has none), else nil.
    private static func indexIfDistinct(_ members: [(key: String, value: JSONValue)]) -> [ExactKey: Int]? {
        if members.count <= indexThreshold {
            for i in members.indices {
                for j in members.indices where j > i && sameKey(members[i].key, members[j].key) { return nil }
            }
            return [:]
        }
        var index = [ExactKey: Int](minimumCapacity: members.count)
        for (position, member) in members.enumerated() where index.updateValue(position, forKey: ExactKey(text: member.key)) != nil {
            return nil
        }
        return index
    }

    private func position(of key: String) -> Int? {
        if let index { return index[ExactKey(text: key)] }
        return members.firstIndex { Self.sameKey($0.key, key) }
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
                    index?[ExactKey(text: key)] = members.count - 1
                } else if members.count > Self.indexThreshold {
                    rebuildIndex()
                }
            }
        }
    }

    private mutating func rebuildIndex() {
        index = members.count > Self.indexThreshold ? Dictionary(uniqueKeysWithValues: members.enumerated().map { (ExactKey(text: $1.key), $0) }) : nil
    }

    /// The keys in document order.
    public var keys: [String] { members.map(\.key) }

    /// The number of members.
    public var count: Int { members.count }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { sameKey($0.key, $1.key) && $0.value == $1.value }
    }
}
