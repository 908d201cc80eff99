import MapSimJSON

/// Writes an event's fields into a `JSONObject`.
struct JSONObjectFieldWriter: EventFieldWriter {
    var object = JSONObject()

    mutating func field(_ key: String, _ value: String) { object[key] = .string(value) }
    mutating func field(_ key: String, _ value: Int64) { object[key] = .number(Double(value)) }
    mutating func field(_ key: String, _ value: Bool) { object[key] = .bool(value) }
    mutating func field(_ key: String, _ values: [String]) { object[key] = .array(values.map(JSONValue.string)) }
    mutating func field(_ key: String, _ value: JSONValue) { object[key] = value }

    mutating func object(_ key: String, _ body: (inout JSONObjectFieldWriter) -> Void) {
        var member = JSONObjectFieldWriter()
        body(&member)
        object[key] = .object(member.object)
    }
}
