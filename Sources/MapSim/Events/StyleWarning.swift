import MapSimStyle

/// The payload of `style-warning`: the style loads, with something its author should know that the
/// engine goes on past — an import cycle, imports nested deeper than the engine loads, two imports
/// with one id — named with the import it is in (`import`, `a/a2`) when it is in one.
public struct StyleWarning: Sendable, Equatable {
    /// What is wrong and what the engine does about it.
    public var message: String
    /// The import the warning is about; the root style's scope when it is about the root.
    public var scope: StyleScope

    /// A payload.
    public init(message: String, scope: StyleScope = .root) {
        self.message = message
        self.scope = scope
    }
}
