import MapSimJSON

/// What an expression is evaluated against: the camera's zoom and the other globals, the feature
/// and its state, the style's global state, and the images the style has.
public struct ExpressionContext: Sendable {
    /// The zoom, or nil where there is none (constant folding).
    public var zoom: Double?
    public var heatmapDensity: Double?
    public var elevation: Double?
    public var lineProgress: Double?
    /// The running value of a cluster property being accumulated.
    public var accumulated: ExpressionValue?
    public var feature: ExpressionFeature?
    public var featureState: JSONObject
    /// The style's `state`, as `global-state` reads it.
    public var globalState: JSONObject
    /// The config of the layer's style (Mapbox), as `["config", NAME]` reads it.
    public var config = JSONObject()
    /// The ids of the images the style has; nil when unknown (every `image` is then unavailable).
    public var availableImages: Set<String>?
    /// The tile the feature's geometry is in, for `within` and `distance`.
    public var tile: CanonicalTile?

    public init(zoom: Double? = nil, feature: ExpressionFeature? = nil, featureState: JSONObject = JSONObject(),
                globalState: JSONObject = JSONObject(), availableImages: Set<String>? = nil, tile: CanonicalTile? = nil) {
        self.zoom = zoom
        self.feature = feature
        self.featureState = featureState
        self.globalState = globalState
        self.availableImages = availableImages
        self.tile = tile
    }
}

/// A feature as expressions see it: properties, id, geometry type, and its geometry in the
/// coordinates of its tile (extent 8192) when `within` or `distance` need it.
public struct ExpressionFeature: Sendable {
    public var properties: JSONObject
    /// The id, or nil when the feature has none.
    public var id: JSONValue?
    /// `Point`, `LineString`, `Polygon` (or `Unknown`), or nil when not given.
    public var geometryType: String?
    /// Rings or lines of points in tile coordinates.
    public var geometry: [[TilePoint]]?

    public init(properties: JSONObject, id: JSONValue? = nil, geometryType: String? = nil, geometry: [[TilePoint]]? = nil) {
        self.properties = properties
        self.id = id
        self.geometryType = geometryType
        self.geometry = geometry
    }
}

/// A point in tile coordinates.
public struct TilePoint: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A tile's z/x/y, as `within` and `distance` place the feature's geometry on the globe.
public struct CanonicalTile: Equatable, Sendable {
    public var z: Int
    public var x: Int
    public var y: Int

    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }
}
