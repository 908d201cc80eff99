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

    /// The tile `z/x/y` when it is one of the pyramid's (zoom 0...30, x and y within the zoom
    /// level), else nil: for numbers read from input — a URL, a file, a database row.
    public init?(checkedZ z: Int, x: Int, y: Int) {
        guard (0...30).contains(z), (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y) else { return nil }
        self.init(z: z, x: x, y: y)
    }

    /// The row in the TMS scheme (row 0 at the bottom).
    public var tmsY: Int { (1 << z) - 1 - y }

    public static func < (lhs: CanonicalTileID, rhs: CanonicalTileID) -> Bool {
        (lhs.z, lhs.x, lhs.y) < (rhs.z, rhs.x, rhs.y)
    }

    /// `z/x/y`.
    public var description: String { "\(z)/\(x)/\(y)" }
}
