/// Whose style specification a style is checked against: MapLibre's, as MapLibre's
/// `gl-style-validate` checks it, or Mapbox's, as Mapbox's `gl-style-validate` (the
/// `@mapbox/mapbox-gl-style-spec` validator) checks it — Mapbox's current specification, or the one
/// Mapbox GL JS 3.0.1 has.
public enum StyleSpecFlavor: String, Sendable, CaseIterable {
    /// MapLibre's style specification (`@maplibre/maplibre-gl-style-spec`), with its messages.
    case maplibre
    /// Mapbox's current style specification, the Mapbox Maps SDK v11's (mapbox-gl-js's
    /// `src/style-spec/reference/v8.json`, `MapboxCurrentStyleSpecPatch.version`), as Mapbox's
    /// current validator checks styles, with its messages: imports, schema and config, lights, fog,
    /// snow, rain, color-theme, camera, models, slots, iconsets, featuresets, indoor, the model,
    /// sky, slot, clip, building and raster-particle layers, the raster-array source, appearances,
    /// Mapbox's expressions.
    case mapbox
    /// Mapbox's style specification as Mapbox GL JS 3.0.1 validates styles, with its messages:
    /// imports, schema and config, lights, fog, camera, models, slots, the model, sky and slot
    /// layers, Mapbox's expressions as 3.0.1 parses them.
    case mapboxGLJS = "mapbox-gl-js"

    /// The specification an engine reads styles by, from the engine's name: `mapbox` (the Mapbox
    /// Maps SDK v11) reads Mapbox's current one, `mapbox-gl-js` (Mapbox GL JS 3.0.1) the one GL JS
    /// 3.0.1 has, `maplibre-native` and `maplibre-gl-js` MapLibre's; nil for a name that is none of
    /// these.
    public init?(engine: String) {
        switch engine {
        case "mapbox": self = .mapbox
        case "mapbox-gl-js": self = .mapboxGLJS
        case "maplibre-native", "maplibre-gl-js": self = .maplibre
        default: return nil
        }
    }

    /// Whether it is one of Mapbox's specifications (imports, config, slots, Mapbox's layer and
    /// source types, Mapbox's expression language).
    public var isMapbox: Bool { self != .maplibre }
}
