/// A tile of the world pyramid: zoom level `z`, column `x` and row `y` (XYZ scheme, row 0 at the top).
public struct CanonicalTileID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The zoom level, 0...30.
    public var z: Int
    /// The column, 0..<2^z.
    public var x: Int
    /// The row, 0..<2^z, counted from the top (north).
    public var y: Int

    /// The tile `z/x/y`; x and y must be within the zoom level.
    public init(z: Int, x: Int, y: Int) {
        precondition((0...30).contains(z), "zoom \(z) outside 0...30")
        precondition(x >= 0 && x < 1 << z && y >= 0 && y < 1 << z, "tile \(z)/\(x)/\(y) outside its zoom level")
        self.z = z
        self.x = x
        self.y = y
    }

    /// The row in the TMS scheme (row 0 at the bottom).
    public var tmsY: Int { (1 << z) - 1 - y }

    public static func < (lhs: CanonicalTileID, rhs: CanonicalTileID) -> Bool {
        (lhs.z, lhs.x, lhs.y) < (rhs.z, rhs.x, rhs.y)
    }

    /// `z/x/y`.
    public var description: String { "\(z)/\(x)/\(y)" }
}

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
