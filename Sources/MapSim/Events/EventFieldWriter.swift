import MapSimJSON

/// What the one description of an event's fields writes to: a JSON object (`JSONObjectFieldWriter`)
/// or JSON-line bytes (`JSONLineEncoder`). Members come in the order they are written.
protocol EventFieldWriter {
    mutating func field(_ key: String, _ value: String)
    mutating func field(_ key: String, _ value: Int64)
    mutating func field(_ key: String, _ value: Bool)
    /// An array of strings.
    mutating func field(_ key: String, _ values: [String])
    /// Any JSON value (the data of live, dynamic-entity and content events).
    mutating func field(_ key: String, _ value: JSONValue)
    /// A member whose value is an object, written by `body`.
    mutating func object(_ key: String, _ body: (inout Self) -> Void)
}

extension EventFieldWriter {
    /// A tile id: `{"z", "x", "y"}`.
    mutating func tile(_ key: String, _ id: CanonicalTileID) {
        object(key) { tile in
            tile.field(EventKey.z, Int64(id.z))
            tile.field(EventKey.x, Int64(id.x))
            tile.field(EventKey.y, Int64(id.y))
        }
    }
}
