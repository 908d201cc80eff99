import MapSimJSON

/// One observation as it arrives: where the entity is, which track it belongs to (the value of the
/// source's track id field), and its JSON as it came — kept as text, compact, and read again only
/// when its attributes are asked for.
public struct DynamicEntityObservation: Sendable, Equatable {
    /// The track id.
    public var trackID: String
    public var longitude: Double
    public var latitude: Double
    /// The observation's JSON object: `{"geometry": …, "attributes": {…}}` (or a GeoJSON feature
    /// with `properties`).
    public var json: [UInt8]

    /// An observation.
    public init(trackID: String, longitude: Double, latitude: Double, json: [UInt8]) {
        self.trackID = trackID
        self.longitude = longitude
        self.latitude = latitude
        self.json = json
    }

    /// Its attributes: the `attributes` (or `properties`) object of its JSON.
    public var attributes: JSONObject {
        guard let object = (try? JSONParser.parse(json))?.objectValue else { return JSONObject() }
        return Self.attributes(of: object)
    }

    /// The attributes of an observation's JSON object.
    static func attributes(of object: JSONObject) -> JSONObject {
        object["attributes"]?.objectValue ?? object["properties"]?.objectValue ?? JSONObject()
    }
}
