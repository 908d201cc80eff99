import MapSim
import MapSimJSON
import MapSimStyle

/// What an offline region covers.
public struct RegionDefinition: Sendable, Equatable {
    /// The style's URL.
    public var styleURL: String
    /// The area.
    public var bounds: LngLatBounds
    /// The lowest zoom downloaded.
    public var minZoom: Int
    /// The highest zoom downloaded.
    public var maxZoom: Int
    /// The pixel ratio of sprites and `{ratio}` tiles.
    public var pixelRatio: Double

    /// A region.
    public init(styleURL: String, bounds: LngLatBounds, minZoom: Int, maxZoom: Int, pixelRatio: Double = 1) {
        self.styleURL = styleURL
        self.bounds = bounds
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.pixelRatio = pixelRatio
    }

    /// The definition as the JSON stored with the region.
    var json: String {
        JSONWriter.string(.object(JSONObject([
            ("style", .string(styleURL)),
            ("bounds", .array([bounds.west, bounds.south, bounds.east, bounds.north].map(JSONValue.number))),
            ("minzoom", .number(Double(minZoom))), ("maxzoom", .number(Double(maxZoom))), ("pixelRatio", .number(pixelRatio)),
        ])))
    }
}
