/// A live-data topic: seven levels, `dataset/venue/building/floor/room/location/domainType`, as
/// MapsIndoors Live Data names them. Every topic names a dataset and a domain type; the levels
/// between may be anything but empty.
public struct LiveTopic: Sendable, Hashable, CustomStringConvertible {
    /// The seven levels, in order.
    public static let levelNames = ["dataset", "venue", "building", "floor", "room", "location", "domainType"]

    public var dataset: String
    public var venue: String
    public var building: String
    public var floor: String
    public var room: String
    /// The location (item) the update is about.
    public var location: String
    /// What the update says: `availability`, `occupancy`, `position`, `count`, `temperature`, `co2`,
    /// `humidity`, or any other name.
    public var domainType: String

    public init(dataset: String, venue: String, building: String, floor: String, room: String, location: String, domainType: String) {
        self.dataset = dataset
        self.venue = venue
        self.building = building
        self.floor = floor
        self.room = room
        self.location = location
        self.domainType = domainType
    }

    /// Reads `dataset/venue/building/floor/room/location/domainType`; a wrong number of levels, an
    /// empty level or a wildcard is an error naming it.
    public init(parsing text: String) throws(LiveTopicError) {
        let levels = try Self.levels(of: text)
        guard levels.count == 7 else { throw LiveTopicError(.invalidTopic, topic: text, "it has \(levels.count) levels; a topic has 7: \(Self.levelNames.joined(separator: "/"))") }
        // MQTT allows neither wildcard character anywhere in a topic name, nor NUL (the broker drops the client).
        for (index, level) in levels.enumerated() {
            if level == "+" || level == "#" {
                throw LiveTopicError(.invalidTopic, topic: text, "level \(index + 1) (\(Self.levelNames[index])) is the wildcard \(level); a topic names every level")
            }
            if let character = level.first(where: { $0 == "+" || $0 == "#" || $0 == "\0" }) {
                let shown = character == "\0" ? "NUL" : String(character)
                throw LiveTopicError(.invalidTopic, topic: text, "level \(index + 1) (\(Self.levelNames[index])) holds \(shown), which an MQTT topic name cannot")
            }
        }
        guard text.utf8.count <= 65_535 else { throw LiveTopicError(.invalidTopic, topic: text, "it is longer than MQTT's 65535 bytes") }
        self.init(dataset: levels[0], venue: levels[1], building: levels[2], floor: levels[3], room: levels[4], location: levels[5], domainType: levels[6])
    }

    /// Whether `text` can be one level of a topic: not empty, and without `/`, `+`, `#` or NUL.
    public static func isLevel(_ text: String) -> Bool {
        !text.isEmpty && !text.contains { $0 == "/" || $0 == "+" || $0 == "#" || $0 == "\0" }
    }

    /// The levels of `text`, none of them empty.
    static func levels(of text: String) throws(LiveTopicError) -> [String] {
        // Split on the bytes: a topic is read for every message, and `/` is never part of another character.
        let levels = text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { String(Substring($0)) }
        for (index, level) in levels.enumerated() where level.isEmpty {
            let name = index < levelNames.count ? " (\(levelNames[index]))" : ""
            throw LiveTopicError(.invalidTopic, topic: text, "level \(index + 1)\(name) is empty")
        }
        return levels
    }

    /// The levels, in order.
    public var levels: [String] { [dataset, venue, building, floor, room, location, domainType] }

    /// The topic as MQTT writes it: the levels joined by `/`.
    public var description: String { levels.joined(separator: "/") }
}
