import MapSim
import MapSimJSON

/// How dynamic entities show on a map: the newest observation of each entity is a point feature of
/// the GeoJSON source `sourceID` (feature id = track id, properties = its attributes); with
/// `trackSourceID`, each entity's kept observations are also a line feature of that source. A purged
/// entity's features are removed.
public struct DynamicEntityBinding: Sendable, Equatable {
    /// The GeoJSON source of the newest observations.
    public var sourceID: String
    /// The GeoJSON source of the tracks, if any.
    public var trackSourceID: String?

    /// A binding.
    public init(sourceID: String, trackSourceID: String? = nil) {
        self.sourceID = sourceID
        self.trackSourceID = trackSourceID
    }

    /// The changes that bring the sources in line with `store` for the tracks `trackIDs`: one diff for
    /// the newest observations, and one for the tracks when there is a track source.
    func diffs(for trackIDs: [String], in store: DynamicEntityStore) -> (latest: GeoJSONSourceDiff, tracks: GeoJSONSourceDiff?) {
        var latest = GeoJSONSourceDiff()
        var tracks = trackSourceID == nil ? nil : GeoJSONSourceDiff()
        for trackID in trackIDs {
            let id = JSONValue.string(trackID)
            guard let entity = store.entity(trackID: trackID) else {
                latest.change(id, .init(isRemoval: true))
                tracks?.change(id, .init(isRemoval: true))
                continue
            }
            let point = Self.geometry("Point", .array([.number(entity.latest.longitude), .number(entity.latest.latitude)]))
            latest.change(id, .init(geometry: point, properties: entity.latest.attributes))
            if tracks != nil {
                let positions = store.track(trackID).map { JSONValue.array([.number($0.longitude), .number($0.latitude)]) }
                tracks?.change(id, positions.count < 2 ? .init(isRemoval: true)
                    : .init(geometry: Self.geometry("LineString", .array(positions)), properties: JSONObject([("entity-id", .number(Double(entity.id)))])))
            }
        }
        return (latest, tracks)
    }

    private static func geometry(_ type: String, _ coordinates: JSONValue) -> JSONValue {
        .object(JSONObject([("type", .string(type)), ("coordinates", coordinates)]))
    }
}
