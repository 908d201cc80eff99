import MapSim
import MapSimJSON

/// How live updates change a GeoJSON source of the map: the update's item id is the feature id (the
/// feature's `id`, or its `promoteId` property, as a string); a `position` update with `longitude` and
/// `latitude` moves the feature (and adds a point for an item the source lacks); every property of an
/// update is set on the feature as `live.DOMAIN.NAME` (`live.occupancy.count`), a string as sent, so
/// that data-driven layers read it (`["to-number", ["get", "live.occupancy.count"]]`), and
/// `live.DOMAIN.timestamp` holds the update's timestamp (set first, so an update property named
/// `timestamp` wins): a location has a live state in a domain when that property is set.
public struct LiveBinding: Sendable, Equatable {
    /// The GeoJSON source the updates change.
    public var sourceID: String

    /// A binding to the GeoJSON source `sourceID`.
    public init(sourceID: String) {
        self.sourceID = sourceID
    }

    /// The feature property an update's property is set as.
    public static func propertyName(domain: String, property: String) -> String {
        "live.\(domain).\(property)"
    }

    /// The domain type of a received update: its topic's last level.
    public static func domain(of update: LiveUpdateReceived) -> String {
        update.topic.lastIndex(of: "/").map { String(update.topic[update.topic.index(after: $0)...]) } ?? update.topic
    }

    /// The feature property that holds the timestamp of the last update of `domain`.
    public static func timestampProperty(domain: String) -> String {
        propertyName(domain: domain, property: "timestamp")
    }

    /// What `update` changes: the feature id and its change.
    public func change(for update: LiveUpdateReceived) -> (id: JSONValue, change: GeoJSONSourceDiff.FeatureChange) {
        let domain = Self.domain(of: update)
        var change = GeoJSONSourceDiff.FeatureChange()
        change.properties[Self.timestampProperty(domain: domain)] = .string(update.timestamp)
        for (name, value) in update.properties.sorted(by: { $0.key < $1.key }) {
            change.properties[Self.propertyName(domain: domain, property: name)] = .string(value)
        }
        if domain == "position", let longitude = update.properties["longitude"].flatMap(Double.init), let latitude = update.properties["latitude"].flatMap(Double.init),
           (-180...180).contains(longitude), (-90...90).contains(latitude) {
            change.geometry = .object(JSONObject([("type", .string("Point")), ("coordinates", .array([.number(longitude), .number(latitude)]))]))
        }
        return (.string(update.id), change)
    }

    /// Applies `update` to the map's bound source, reported with `dataID` in its source-data-loaded.
    public func apply(_ update: LiveUpdateReceived, to map: Map, dataID: String) async throws(LoadingError) {
        let (id, change) = self.change(for: update)
        var diff = GeoJSONSourceDiff()
        diff.change(id, change)
        try await map.updateGeoJSONSource(id: sourceID, diff: diff, dataID: dataID)
    }
}
