/// The payload of live-update: one item's domain changed (`topic`, `id`, `timestamp`, `properties`).
public struct LiveUpdateReceived: Sendable, Equatable {
    /// The seven-level topic it came on.
    public var topic: String
    /// The item (location) id.
    public var id: String
    /// When the state was true, ISO 8601 in UTC.
    public var timestamp: String
    /// The domain's properties, as strings.
    public var properties: [String: String]

    /// A payload.
    public init(topic: String, id: String, timestamp: String, properties: [String: String]) {
        self.topic = topic
        self.id = id
        self.timestamp = timestamp
        self.properties = properties
    }
}
