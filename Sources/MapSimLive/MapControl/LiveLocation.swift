import MapSim
import MapSimStyle
import MapSimJSON

/// A MapsIndoors location as the map holds it: a feature of the bound GeoJSON source whose id is the
/// location and whose properties give its dataset, venue, building, floor and (optionally) room.
public struct LiveLocation: Sendable, Equatable {
    public var id: String
    public var dataset: String
    public var venue: String
    public var building: String
    public var floor: String
    /// The room level of its topics; nil when the feature names none (its criteria then match any room).
    public var room: String?
    /// Where it is on the map.
    public var anchor: LngLat

    public init(id: String, dataset: String, venue: String, building: String, floor: String, room: String?, anchor: LngLat) {
        self.id = id
        self.dataset = dataset
        self.venue = venue
        self.building = building
        self.floor = floor
        self.room = room
        self.anchor = anchor
    }

    /// The locations among `features`: those with an id and a dataset, venue, building and floor
    /// (strings, or numbers as their JSON text) that can be topic levels — not empty, no `/`, `+`,
    /// `#` or NUL. Other features are not locations and have no live data. A feature id met again
    /// (a GeometryCollection's parts) is one location, at its first part.
    public static func locations(in features: [SourceFeature], fields: LiveLocationFields) -> [LiveLocation] {
        var seen: Set<String> = []
        var locations: [LiveLocation] = []
        for feature in features {
            guard let id = feature.id.flatMap(level), seen.insert(id).inserted,
                  let dataset = feature.properties[fields.dataset].flatMap(level), let venue = feature.properties[fields.venue].flatMap(level),
                  let building = feature.properties[fields.building].flatMap(level), let floor = feature.properties[fields.floor].flatMap(level)
            else { continue }
            locations.append(LiveLocation(id: id, dataset: dataset, venue: venue, building: building, floor: floor,
                                          room: feature.properties[fields.room].flatMap(level), anchor: feature.anchor))
        }
        return locations
    }

    /// A property value as a topic level: a string, or a number as its JSON text; nil when it cannot be one.
    private static func level(_ value: JSONValue) -> String? {
        let text: String
        switch value {
        case .string(let string): text = string
        case .number: text = JSONWriter.string(value)
        default: return nil
        }
        return LiveTopic.isLevel(text) ? text : nil
    }
}
