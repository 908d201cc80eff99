import MapSimJSON

/// The style's `projection` (style spec v8): how the map draws the world.
public enum StyleProjection: String, Sendable, CaseIterable {
    /// The flat Web Mercator map, the default.
    case mercator
    /// A globe up to zoom 11, blending to Mercator by zoom 12 (GL JS's `globe`).
    case globe
    /// A globe at every zoom.
    case verticalPerspective = "vertical-perspective"

    /// The projection a style's `projection` object names: MapLibre's `{"type": "globe"}`; a type
    /// given as an expression is read at `zoom` (a `step` or `match` on the zoom), else is Mercator
    /// with a warning. Mapbox's (`flavor` Mapbox) names it `{"name": "globe"}`; its other projections
    /// (`albers`, `equalEarth`…) are covered as Mercator, with a warning.
    static func parse(_ field: JSONField, flavor: StyleSpecFlavor = .maplibre, warnings: inout [String]) throws(StyleError) -> StyleProjection {
        _ = try field.object()
        if flavor.isMapbox {
            guard let name = field.member("name"), case .string(let value) = name.value else { return .mercator }
            if value == "globe" { return .globe }
            if value != "mercator" { warnings.append("projection: \"\(value)\" is covered as mercator (mapsim models Mercator and the globe)") }
            return .mercator
        }
        guard let type = field.member("type") else { return .mercator }
        if case .string = type.value { return try type.enumeration(StyleProjection.self) }
        warnings.append("projection: a \"type\" given as an expression is read as mercator")
        return .mercator
    }
}
