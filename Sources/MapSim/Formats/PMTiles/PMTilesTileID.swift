/// The tile ids of PMTiles: tiles numbered zoom by zoom (all of zoom 0, then all of zoom 1, …),
/// each zoom's tiles along a Hilbert curve.
public enum PMTilesTileID {
    /// The deepest zoom a 64-bit tile id can number.
    public static let maximumZoom = 31

    /// The id of tile `z/x/y`.
    public static func id(z: Int, x: Int, y: Int) -> UInt64 {
        precondition((0...maximumZoom).contains(z) && x >= 0 && y >= 0 && x < 1 << z && y < 1 << z, "tile \(z)/\(x)/\(y) is not a tile")
        let base = ((UInt64(1) << (2 * UInt64(z))) - 1) / 3
        var x = UInt64(x)
        var y = UInt64(y)
        var distance: UInt64 = 0
        var side = z > 0 ? UInt64(1) << UInt64(z - 1) : 0
        while side > 0 {
            let rx: UInt64 = x & side != 0 ? 1 : 0
            let ry: UInt64 = y & side != 0 ? 1 : 0
            distance += side * side * ((3 * rx) ^ ry)
            rotate(side, &x, &y, rx, ry)
            side >>= 1
        }
        return base + distance
    }

    /// The tile an id numbers.
    public static func tile(_ id: UInt64) -> (z: Int, x: Int, y: Int) {
        var z = 0
        var base: UInt64 = 0
        while z < maximumZoom {
            let count = UInt64(1) << (2 * UInt64(z))
            if id < base + count { break }
            base += count
            z += 1
        }
        var position = id - base
        var x: UInt64 = 0
        var y: UInt64 = 0
        var side: UInt64 = 1
        let n = UInt64(1) << UInt64(z)
        while side < n {
            let rx = 1 & (position / 2)
            let ry = 1 & (position ^ rx)
            rotate(side, &x, &y, rx, ry)
            x += side * rx
            y += side * ry
            position /= 4
            side <<= 1
        }
        return (z, Int(x), Int(y))
    }

    private static func rotate(_ n: UInt64, _ x: inout UInt64, _ y: inout UInt64, _ rx: UInt64, _ ry: UInt64) {
        guard ry == 0 else { return }
        if rx == 1 {
            // Only the bits below n matter from here on: wrapping keeps them.
            x = n &- 1 &- x
            y = n &- 1 &- y
        }
        swap(&x, &y)
    }
}
