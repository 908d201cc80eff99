/// Which topics a subscription wants: a level left out matches anything (MQTT's `+`), and a
/// criteria ending in `#` wants everything below the levels it names (the whole dataset with
/// `dataset/#`). Every criteria names its dataset. Matching is done on the client too, so a
/// broker that delivers too much cannot widen a subscription.
public struct TopicCriteria: Sendable, Hashable, CustomStringConvertible {
    /// The seven levels; nil matches any value.
    public private(set) var levels: [String?]
    /// Whether the criteria ended in `#`: the levels after the last named one match anything.
    public private(set) var isMultiLevel: Bool

    /// Criteria from its levels; nil matches any value.
    public init(dataset: String, venue: String? = nil, building: String? = nil, floor: String? = nil, room: String? = nil,
                location: String? = nil, domainType: String? = nil) {
        levels = [dataset, venue, building, floor, room, location, domainType]
        isMultiLevel = false
    }

    /// Reads criteria written as an MQTT filter: `dataset/venue/+/+/+/+/occupancy`, `dataset/#`,
    /// `dataset/venue/#`. A wrong number of levels, an empty level, `#` anywhere but last, a
    /// wildcard inside a level, or no dataset is an error naming it.
    public init(parsing text: String) throws(LiveTopicError) {
        let parts = try LiveTopic.levels(of: text)
        for (index, part) in parts.enumerated() {
            if part == "#" && index != parts.count - 1 { throw LiveTopicError(.invalidCriteria, topic: text, "# may only be the last level") }
            if part != "#" && part != "+" && (part.contains("#") || part.contains("+")) {
                throw LiveTopicError(.invalidCriteria, topic: text, "level \(index + 1) mixes a wildcard with text (\(part))")
            }
        }
        guard parts[0] != "+" && parts[0] != "#" else { throw LiveTopicError(.invalidCriteria, topic: text, "criteria must name their dataset") }
        if parts.last == "#" {
            let named = parts.dropLast()
            guard named.count <= 7 else { throw LiveTopicError(.invalidCriteria, topic: text, "it has \(named.count) levels before #; a topic has 7") }
            levels = named.map { $0 == "+" ? nil : $0 } + Array(repeating: nil, count: 7 - named.count)
            isMultiLevel = true
        } else {
            guard parts.count == 7 else {
                throw LiveTopicError(.invalidCriteria, topic: text, "it has \(parts.count) levels; criteria have 7 (use + for any value, or end with #)")
            }
            levels = parts.map { $0 == "+" ? nil : $0 }
            isMultiLevel = false
        }
    }

    /// The dataset it names.
    public var dataset: String { levels[0] ?? "" }

    /// Whether `topic` is one the criteria wants.
    public func matches(_ topic: LiveTopic) -> Bool {
        zip(levels, topic.levels).allSatisfy { wanted, actual in wanted.map { $0 == actual } ?? true }
    }

    /// Whether every topic `other` can match is one this criteria matches too: each level this one
    /// names, `other` names the same way, and `other` ends in `#` only if this one does.
    public func covers(_ other: TopicCriteria) -> Bool {
        (isMultiLevel || !other.isMultiLevel) && zip(levels, other.levels).allSatisfy { mine, theirs in mine == nil || mine == theirs }
    }

    /// The MQTT topic filter to subscribe with: `+` for levels left out, `#` for a trailing run of them
    /// when the criteria was written with `#`.
    public var mqttFilter: String {
        if isMultiLevel {
            let named = levels.lastIndex { $0 != nil }.map { levels[...$0] } ?? []
            return (named.map { $0 ?? "+" } + ["#"]).joined(separator: "/")
        }
        return levels.map { $0 ?? "+" }.joined(separator: "/")
    }

    public var description: String { mqttFilter }
}
