import MapSim
import MapSimStyle

/// What a map's style holds for the display layers of live data on a floor: the layers it has, and
/// each enabled domain's display layer as the style reads it (or why it cannot).
public struct LiveDisplayLayers: Sendable {
    /// The floor to show.
    public var floor: String
    /// The ids of the style's layers; nil while no style is loaded.
    public var present: Set<String>?
    /// Each enabled domain's display layer for `floor`, by domain.
    public var layers: [String: Result<StyleLayer, LoadingError>]
}
