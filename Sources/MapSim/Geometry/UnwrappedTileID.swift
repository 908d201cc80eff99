/// A canonical tile in a given world copy: the position on the unbounded plane of repeated worlds.
public struct UnwrappedTileID: Sendable, Hashable, CustomStringConvertible {
    /// The world copy: 0 is the main world.
    public var wrap: Int
    /// The tile within its world.
    public var canonical: CanonicalTileID

    /// A canonical tile in world copy `wrap`.
    public init(wrap: Int, canonical: CanonicalTileID) {
        self.wrap = wrap
        self.canonical = canonical
    }

    /// The tile at column `x` (any integer) and row `y` of zoom `z`, wrapped into its world copy.
    public init(z: Int, x: Int, y: Int) {
        let tiles = 1 << z
        let wrap = x >= 0 ? x / tiles : -((-x - 1) / tiles) - 1
        self.init(wrap: wrap, canonical: CanonicalTileID(z: z, x: x - wrap * tiles, y: y))
    }

    /// The column on the unbounded plane.
    public var unwrappedX: Int { canonical.x + wrap * (1 << canonical.z) }

    public var description: String { wrap == 0 ? canonical.description : "\(canonical) (wrap \(wrap))" }
}
