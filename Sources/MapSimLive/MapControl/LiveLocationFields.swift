/// Which feature properties of the bound GeoJSON source name a location's place in MapsIndoors'
/// terms — the topic levels `dataset/venue/building/floor/room` — by default properties of those
/// very names. The feature id is the location.
public struct LiveLocationFields: Sendable, Equatable {
    /// The topic levels a property can give, in topic order.
    public static let levelNames = ["dataset", "venue", "building", "floor", "room"]

    public var dataset = "dataset"
    public var venue = "venue"
    public var building = "building"
    public var floor = "floor"
    public var room = "room"

    /// The default names: each level from the property of its own name.
    public init() {}

    /// Reads `LEVEL=PROPERTY` pairs separated by commas (`floor=level,room=roomId`); levels not
    /// named keep their default. An unknown level, an empty property or a level named twice is an
    /// error saying which.
    public init(parsing text: String) throws(LiveTopicError) {
        var named: Set<String> = []
        for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[1].isEmpty, Self.levelNames.contains(parts[0]) else {
                throw LiveTopicError(.invalidLocationFields, topic: text,
                                     "\"\(pair)\" is not LEVEL=PROPERTY with LEVEL one of \(Self.levelNames.joined(separator: ", "))")
            }
            guard named.insert(parts[0]).inserted else { throw LiveTopicError(.invalidLocationFields, topic: text, "\(parts[0]) is named twice") }
            switch parts[0] {
            case "dataset": dataset = parts[1]
            case "venue": venue = parts[1]
            case "building": building = parts[1]
            case "floor": floor = parts[1]
            default: room = parts[1]
            }
        }
    }
}
