import MapSim
import MapSimJSON

/// One live update: what an item's domain now says, and when it was true.
///
/// On the wire (the MQTT payload) an update is a JSON object:
/// `{"id": "room-12", "timestamp": "2026-11-23T10:15:00.250Z", "properties": {"occupied": "true", "count": "3"}}`.
/// `id` is the item (location) id and defaults to the topic's location level; `timestamp` is
/// ISO 8601 with a time zone (`Z` or `±hh:mm`) and optional fractions of a second; `properties`
/// maps names to strings, as MapsIndoors sends them — a number or a boolean is taken as its JSON
/// text (`3`, `true`), as the SDK's string dictionary holds it.
public struct LiveUpdate: Sendable, Equatable {
    public var topic: LiveTopic
    /// The item (location) the update is about.
    public var id: String
    /// When the state was true, in microseconds since 1970 (UTC).
    public var timestamp: Int64
    public var properties: [String: String]

    public init(topic: LiveTopic, id: String, timestamp: Int64, properties: [String: String]) {
        self.topic = topic
        self.id = id
        self.timestamp = timestamp
        self.properties = properties
    }

    /// Reads an update's payload received on `topic`; what is not an update is an error saying why.
    public init(topic: LiveTopic, payload: [UInt8]) throws(LiveUpdateError) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(payload)
        } catch {
            throw LiveUpdateError(.notJSON, topic: topic.description, "the payload is not JSON: \(error)", underlying: error)
        }
        guard let object = json.objectValue else { throw LiveUpdateError(.notJSON, topic: topic.description, "the payload is not a JSON object") }
        var id = topic.location
        if let given = object["id"] {
            guard let text = given.stringValue, !text.isEmpty else { throw LiveUpdateError(.invalidField, topic: topic.description, "\"id\" is not a non-empty string") }
            id = text
        }
        guard let stamp = object["timestamp"]?.stringValue else {
            throw LiveUpdateError(.missingField, topic: topic.description, "\"timestamp\" is missing or not a string")
        }
        guard let timestamp = ISO8601Timestamp.microseconds(stamp) else {
            throw LiveUpdateError(.invalidField, topic: topic.description, "\"timestamp\" \(stamp) is not an ISO 8601 date and time with a time zone")
        }
        var properties: [String: String] = [:]
        if let given = object["properties"] {
            guard let members = given.objectValue?.members else { throw LiveUpdateError(.invalidField, topic: topic.description, "\"properties\" is not an object") }
            for (name, value) in members {
                switch value {
                case .string(let text): properties[name] = text
                case .number, .bool: properties[name] = JSONWriter.string(value)
                default: throw LiveUpdateError(.invalidField, topic: topic.description, "property \"\(name)\" is not a string, a number or a boolean")
                }
            }
        }
        self.init(topic: topic, id: id, timestamp: timestamp, properties: properties)
    }

    /// The payload that carries this update.
    public var payload: [UInt8] {
        let properties = JSONObject(self.properties.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })
        return Array(JSONWriter.string(.object(JSONObject([
            ("id", .string(id)), ("timestamp", .string(ISO8601Timestamp.string(timestamp))), ("properties", .object(properties)),
        ]))).utf8)
    }

    /// The update as the payload of a live-update event.
    public var event: LiveUpdateReceived {
        LiveUpdateReceived(topic: topic.description, id: id, timestamp: ISO8601Timestamp.string(timestamp), properties: properties)
    }
}
