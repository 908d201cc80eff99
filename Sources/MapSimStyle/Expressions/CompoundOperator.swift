/// The operators defined by signature alone ("compound expressions"), resolved from their names
/// once when an expression is parsed, so that evaluation never compares names.
enum CompoundOperator: Sendable {
    case get, has, all, any, not, zoom, featureState, properties, geometryType, id
    case heatmapDensity, elevation, lineProgress, accumulated, isSupportedScript
    case error, typeOf, toRGBA, rgb, rgba, upcase, downcase, concat, split, join, resolvedLocale
    case plus, times, minus, divide, modulo, power, ln2, pi, e
    /// Mapbox's own: `hsl`, `hsla`, `config`, `random`, and the globals `pitch`,
    /// `distance-from-center`, `measure-light`, `raster-value` and `sky-radial-progress`.
    case hsl, hsla, config, random, pitch, distanceFromCenter, measureLight, rasterValue, skyRadialProgress
    /// Mapbox's current language's: `to-hsla`, `at-interpolated`, and the globals `worldview`,
    /// `is-active-floor` and `raster-particle-speed`.
    case toHSLA, atInterpolated, worldview, isActiveFloor, rasterParticleSpeed
    case sqrt, log10, ln, log2, sin, cos, tan, asin, acos, atan, abs, floor, ceil, round, min, max
    /// The compiled forms of legacy filters (`filter-==`, `filter-id-in`, ...), by name.
    case filter(String)

    init?(name: String) {
        if name.hasPrefix("filter-") {
            self = .filter(name)
            return
        }
        guard let known = Self.byName[name] else { return nil }
        self = known
    }

    private static let byName: [String: CompoundOperator] = [
        "get": .get, "has": .has, "all": .all, "any": .any, "!": .not, "zoom": .zoom, "feature-state": .featureState,
        "properties": .properties, "geometry-type": .geometryType, "id": .id, "heatmap-density": .heatmapDensity,
        "elevation": .elevation, "line-progress": .lineProgress, "accumulated": .accumulated, "is-supported-script": .isSupportedScript,
        "error": .error, "typeof": .typeOf, "to-rgba": .toRGBA, "rgb": .rgb, "rgba": .rgba, "upcase": .upcase, "downcase": .downcase,
        "concat": .concat, "split": .split, "join": .join, "resolved-locale": .resolvedLocale,
        "+": .plus, "*": .times, "-": .minus, "/": .divide, "%": .modulo, "^": .power, "ln2": .ln2, "pi": .pi, "e": .e,
        "sqrt": .sqrt, "log10": .log10, "ln": .ln, "log2": .log2, "sin": .sin, "cos": .cos, "tan": .tan, "asin": .asin,
        "acos": .acos, "atan": .atan, "abs": .abs, "floor": .floor, "ceil": .ceil, "round": .round, "min": .min, "max": .max,
        "hsl": .hsl, "hsla": .hsla, "config": .config, "random": .random, "pitch": .pitch, "distance-from-center": .distanceFromCenter,
        "measure-light": .measureLight, "raster-value": .rasterValue, "sky-radial-progress": .skyRadialProgress,
        "to-hsla": .toHSLA, "at-interpolated": .atInterpolated, "worldview": .worldview, "is-active-floor": .isActiveFloor,
        "raster-particle-speed": .rasterParticleSpeed,
    ]
}
