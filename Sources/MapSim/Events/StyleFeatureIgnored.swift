/// The payload of `style-feature-ignored`: what of the style the engine does not draw, and how it
/// loads the style instead.
public struct StyleFeatureIgnored: Sendable, Equatable {
    /// What is ignored.
    public var feature: StyleFeature
    /// The engine, as `--engine` names it.
    public var engine: String
    /// What the engine does instead, in words.
    public var message: String

    /// A payload.
    public init(feature: StyleFeature, engine: String, message: String) {
        self.feature = feature
        self.engine = engine
        self.message = message
    }
}
