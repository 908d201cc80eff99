import MapSimJSON

extension MapEvent {
    /// The event as one JSON line: `{"type": ..., "begin": µs, "end": µs, "data": {...}}`, keys in
    /// this fixed order and the payload with the Mapbox keys, so the same run writes the same bytes.
    public var jsonLine: String {
        var bytes: [UInt8] = []
        appendJSONLine(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the JSON line (without its newline) to `bytes`, as UTF-8, written field by field
    /// with no intermediate values, for long recordings.
    public func appendJSONLine(to bytes: inout [UInt8]) {
        var line = JSONLineEncoder(bytes: bytes)
        bytes = []
        line.open()
        line.field(EventKey.type, type.rawValue)
        line.field(EventKey.begin, begin.microseconds)
        line.field(EventKey.end, end.microseconds)
        line.object(EventKey.data) { payload.writeFields(to: &$0) }
        line.close()
        bytes = line.bytes
    }

    /// The event as the JSON object of its JSON line.
    public var jsonObject: JSONObject {
        JSONObject([
            (EventKey.type, .string(type.rawValue)),
            (EventKey.begin, .number(Double(begin.microseconds))),
            (EventKey.end, .number(Double(end.microseconds))),
            (EventKey.data, .object(payload.data)),
        ])
    }
}

extension MapEventPayload {
    /// The payload as the Mapbox event data object (kebab-case keys).
    public var data: JSONObject {
        var writer = JSONObjectFieldWriter()
        writeFields(to: &writer)
        return writer.object
    }
}
