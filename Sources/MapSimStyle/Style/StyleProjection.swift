import MapSimJSON

/// The style's `projection` (style spec v8): how the map draws the world.
public enum StyleProjection: String, Sendable, CaseIterable {
    /// The flat Web Mercator map, the default.
    case mercator
    /// A globe up to zoom 11, blending to Mercator by zoom 12 (GL JS's `globe`).
    case globe
    /// A globe at every zoom.
    case verticalPerspective = "vertical-perspective"

    /// The projection a style's `projection` object names: `{"type": "globe"}`; a type given as an
    /// expression is read at `zoom` (a `step` or `match` on the zoom), else is Mercator with a warning.
    static func parse(_ field: JSONField, warnings: inout [String]) throws(StyleError) -> StyleProjection {
        _ = try field.object()
        guard let type = field.member("type") else { return .mercator }
        if case .string = type.value { return try type.enumeration(StyleProjection.self) }
        warnings.append("projection: a \"type\" given as an expression is read as mercator")
        return .mercator
    }
}
