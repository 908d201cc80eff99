import MapSimJSON

/// Writes an event's JSON line straight into bytes, member by member, from the same description of
/// its fields as `MapEvent.jsonObject` (a test holds the two to the same bytes).
struct JSONLineEncoder: EventFieldWriter {
    var bytes: [UInt8]
    /// One bit per open object: set once it has a member (so the next one needs a comma).
    private var hasMembers: UInt64 = 0
    private var depth = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func open() {
        bytes.append(0x7B)
        depth += 1
        hasMembers &= ~(1 << UInt64(depth))
    }

    mutating func close() {
        bytes.append(0x7D)
        depth -= 1
    }

    private mutating func key(_ name: String) {
        let bit: UInt64 = 1 << UInt64(depth)
        if hasMembers & bit != 0 { bytes.append(0x2C) } else { hasMembers |= bit }
        JSONWriter.writeString(name, into: &bytes)
        bytes.append(0x3A)
    }

    mutating func field(_ key: String, _ value: String) {
        self.key(key)
        JSONWriter.writeString(value, into: &bytes)
    }

    mutating func field(_ key: String, _ value: Int64) {
        self.key(key)
        JSONWriter.writeNumber(Double(value), into: &bytes)
    }

    mutating func field(_ key: String, _ value: Bool) {
        self.key(key)
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    mutating func field(_ key: String, _ values: [String]) {
        self.key(key)
        bytes.append(0x5B)
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(0x2C) }
            JSONWriter.writeString(value, into: &bytes)
        }
        bytes.append(0x5D)
    }

    mutating func field(_ key: String, _ value: JSONValue) {
        self.key(key)
        JSONWriter.write(value, into: &bytes)
    }

    mutating func object(_ key: String, _ body: (inout JSONLineEncoder) -> Void) {
        self.key(key)
        open()
        body(&self)
        close()
    }
}
