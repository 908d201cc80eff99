import MapSimJSON
import MapSimStyle

/// Which observations a dynamic-entity source keeps (ArcGIS's stream filter): an attribute condition
/// as a style-spec filter expression — the engine that filters a layer's features — and an extent.
///
/// A `whereClause` maps to an expression term by term: `speed > 0` is `[">", ["get", "speed"], 0]`,
/// `status = 'moving'` is `["==", ["get", "status"], "moving"]`, `a <> 1` is `["!=", ["get", "a"], 1]`,
/// `AND`/`OR`/`NOT` are `all`/`any`/`!`, `x IN (1, 2)` is `["in", ["get", "x"], ["literal", [1, 2]]]` and
/// `x IS NULL` is `["!", ["has", "x"]]`. Legacy filter syntax (`[">", "speed", 0]`) works too.
public struct DynamicEntityFilter: Sendable {
    private let condition: StyleFilter
    private let bounds: LngLatBounds?

    /// Every observation passes.
    public static let everything = DynamicEntityFilter(condition: StyleFilter.none, bounds: nil)

    private init(condition: StyleFilter, bounds: LngLatBounds?) {
        self.condition = condition
        self.bounds = bounds
    }

    /// A filter of `condition` (a filter expression; nil for none) and `bounds` (nil for anywhere);
    /// an expression that does not compile is an error saying why.
    public init(condition: JSONValue?, bounds: LngLatBounds?) throws(ExpressionCompilationError) {
        self.init(condition: try StyleFilter(condition), bounds: bounds)
    }

    /// Whether the filter keeps everything.
    public var passesEverything: Bool { condition.passesEverything && bounds == nil }

    /// Whether an observation at `longitude`, `latitude` with `attributes` is kept.
    public func matches(longitude: Double, latitude: Double, attributes: @autoclosure () -> JSONObject) -> Bool {
        if let bounds, !(bounds.west...bounds.east).contains(longitude) || !(bounds.south...bounds.north).contains(latitude) { return false }
        guard !condition.passesEverything else { return true }
        let feature = ExpressionFeature(properties: attributes(), geometryType: "Point")
        return condition.matches(ExpressionContext(feature: feature))
    }
}
