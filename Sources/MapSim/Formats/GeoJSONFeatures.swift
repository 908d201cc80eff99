import MapSimJSON

/// Reads the features of a GeoJSON document (a FeatureCollection, a Feature or a bare geometry).
enum GeoJSONFeatures {
    /// The property list of every feature, in document order; a bare geometry is one feature
    /// without properties. Anything that is not GeoJSON gives no features.
    static func properties(of document: JSONValue) -> [[(key: String, value: JSONValue)]] {
        switch document["type"]?.stringValue {
        case "FeatureCollection":
            return (document["features"]?.arrayValue ?? []).flatMap { properties(of: $0) }
        case "Feature":
            return [document["properties"]?.objectValue?.members ?? []]
        case "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection":
            return [[]]
        default:
            return []
        }
    }
}
