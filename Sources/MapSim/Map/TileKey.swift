/// A tile as a source holds it: a canonical tile in one world copy. Each world copy is its own tile,
/// loaded on its own, as in the SDKs: a wide view at low zoom requests a URL once per copy.
struct TileKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    var canonical: CanonicalTileID
    /// The world copy: 0 is the main world, -1 west of it, 1 east.
    var wrap: Int

    /// The same tile one zoom level up, in the same world copy.
    var parent: TileKey? {
        guard canonical.z > 0 else { return nil }
        return TileKey(canonical: CanonicalTileID(z: canonical.z - 1, x: canonical.x / 2, y: canonical.y / 2), wrap: wrap)
    }

    static func < (lhs: TileKey, rhs: TileKey) -> Bool {
        (lhs.canonical, lhs.wrap) < (rhs.canonical, rhs.wrap)
    }

    var description: String {
        wrap == 0 ? canonical.description : "\(canonical) (world copy \(wrap))"
    }
}
