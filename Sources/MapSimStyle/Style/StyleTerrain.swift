import MapSimJSON

/// The style's `terrain` (style spec v8): the map's ground raised by a `raster-dem` source.
public struct StyleTerrain: Sendable, Equatable {
    /// Mapbox's specification of `exaggeration`: a number, or an expression of the zoom.
    private static let mapboxExaggerationSpec: JSONObject = {
        let text = #"{"type": "number", "default": 1, "minimum": 0, "maximum": 1000, "expression": {"interpolated": true, "parameters": ["zoom"]}, "property-type": "data-constant"}"#
        return (try? JSONParser.parse(Array(text.utf8)))?.objectValue ?? JSONObject()
    }()

    /// The `raster-dem` source whose heights the ground takes.
    public var source: String
    /// How much the heights are multiplied by (default 1); for an expression (Mapbox's styles), its
    /// value at zoom 0.
    public var exaggeration: Double
    /// `exaggeration` as written when it is an expression (Mapbox's styles), else nil.
    public var exaggerationExpression: JSONValue?

    /// Terrain over `source`, its heights times `exaggeration`.
    public init(source: String, exaggeration: Double = 1) {
        self.source = source
        self.exaggeration = exaggeration
    }

    /// Whether the exaggeration changes with the zoom: Mapbox turns such terrain off at a zoom where
    /// it is 0 (a constant 0 keeps the terrain, flat).
    public var isZoomDependent: Bool {
        guard let exaggerationExpression, let compiled = Self.compile(exaggerationExpression) else { return false }
        return !compiled.isZoomConstant
    }

    /// The exaggeration at `zoom`. An expression's `["config", …]` reads as null, and a value that
    /// cannot be read is the default, 1: what Mapbox GL JS 3.0.1 does (measured).
    public func exaggeration(atZoom zoom: Double) -> Double {
        guard let exaggerationExpression else { return exaggeration }
        guard let compiled = Self.compile(exaggerationExpression),
              case .number(let value)? = try? compiled.evaluate(ExpressionContext(zoom: zoom)), value.isFinite
        else { return 1 }
        return min(max(value, 0), 1_000)
    }

    private static func compile(_ json: JSONValue) -> StyleExpression? {
        guard case .success(let compiled) = StyleExpression.compile(json, propertySpec: mapboxExaggerationSpec, flavor: .mapbox) else { return nil }
        return compiled
    }

    /// Reads `terrain`: its source must be a `raster-dem` source of `sources`; Mapbox's styles may
    /// give `exaggeration` as an expression.
    static func parse(_ field: JSONField, sources: [StyleSource], flavor: StyleSpecFlavor) throws(StyleError) -> StyleTerrain {
        _ = try field.object()
        guard let sourceField = field.member("source") else { throw field.failure("missing required property \"source\"") }
        let id = try sourceField.string()
        guard let source = sources.first(where: { $0.id == id }) else { throw sourceField.failure("source \"\(id)\" not found") }
        guard source.kind == .rasterDEM else { throw sourceField.failure("terrain source \"\(id)\" must be a raster-dem source, not \(source.kind.rawValue)") }
        guard let exaggerationField = field.member("exaggeration") else { return StyleTerrain(source: id) }
        if flavor.isMapbox, case .array = exaggerationField.value {
            guard compile(exaggerationField.value) != nil else { throw exaggerationField.failure("expected a number or an expression of the zoom") }
            var terrain = StyleTerrain(source: id)
            terrain.exaggerationExpression = exaggerationField.value
            terrain.exaggeration = terrain.exaggeration(atZoom: 0)
            return terrain
        }
        return StyleTerrain(source: id, exaggeration: try exaggerationField.number(in: 0...1_000))
    }
}
