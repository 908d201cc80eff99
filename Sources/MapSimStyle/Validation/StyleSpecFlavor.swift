/// Whose style specification a style is checked against: MapLibre's, as MapLibre's
/// `gl-style-validate` checks it, or Mapbox's, as Mapbox's `gl-style-validate` (the
/// `@mapbox/mapbox-gl-style-spec` validator of Mapbox GL JS v3) checks it.
public enum StyleSpecFlavor: String, Sendable, CaseIterable {
    /// MapLibre's style specification (`@maplibre/maplibre-gl-style-spec`), with its messages.
    case maplibre
    /// Mapbox's style specification as Mapbox GL JS v3 validates styles, with its messages:
    /// imports, schema and config, lights, fog, camera, models, slots, the model, sky and slot
    /// layers, Mapbox's expressions.
    case mapbox

    /// The specification an engine reads styles by, from the engine's name: `mapbox` (the Mapbox
    /// Maps SDK) and `mapbox-gl-js` read Mapbox's, `maplibre-native` and `maplibre-gl-js`
    /// MapLibre's; nil for a name that is none of these.
    public init?(engine: String) {
        switch engine {
        case "mapbox", "mapbox-gl-js": self = .mapbox
        case "maplibre-native", "maplibre-gl-js": self = .maplibre
        default: return nil
        }
    }
}
