/// The payload of style-data-loaded: which part of the style is loaded.
public struct StyleDataLoaded: Sendable, Equatable {
    /// The parts of a style, in the order they load.
    public enum Kind: String, Sendable {
        case style, sprite, sources
    }

    /// Which part loaded (`type`).
    public var type: Kind

    /// A payload for `type`.
    public init(type: Kind) {
        self.type = type
    }
}
