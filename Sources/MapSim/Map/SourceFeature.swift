import MapSimJSON
import MapSimStyle

/// A feature of a GeoJSON source as the map holds it now: its id, its properties and where it is —
/// a point's position, or the centre of the bounding box of any other geometry.
public struct SourceFeature: Sendable, Equatable {
    /// The feature id (from `promoteId`, the feature's `id`, or its index with `generateId`); nil when it has none.
    public var id: JSONValue?
    public var properties: JSONObject
    /// A point's position; the centre of the bounding box of any other geometry.
    public var anchor: LngLat

    public init(id: JSONValue?, properties: JSONObject, anchor: LngLat) {
        self.id = id
        self.properties = properties
        self.anchor = anchor
    }
}
