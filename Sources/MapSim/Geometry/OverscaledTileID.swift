/// A tile as displayed: a canonical tile shown at zoom `overscaledZ` (≥ its own zoom when the source
/// has no deeper data) in world copy `wrap` (0 is the main world, -1 west of it, 1 east).
public struct OverscaledTileID: Sendable, Hashable, CustomStringConvertible {
    /// The zoom level the tile is displayed at.
    public var overscaledZ: Int
    /// The world copy.
    public var wrap: Int
    /// The tile whose data is loaded.
    public var canonical: CanonicalTileID

    /// A tile displayed at `overscaledZ` in world copy `wrap`.
    public init(overscaledZ: Int, wrap: Int, canonical: CanonicalTileID) {
        precondition(overscaledZ >= canonical.z)
        self.overscaledZ = overscaledZ
        self.wrap = wrap
        self.canonical = canonical
    }

    /// `overscaledZ/wrap/z/x/y` when overscaled or wrapped, otherwise `z/x/y`.
    public var description: String {
        overscaledZ == canonical.z && wrap == 0 ? canonical.description : "\(overscaledZ)/\(wrap)/\(canonical)"
    }
}
