import Foundation

/// Mapbox GL JS 3.0.1's lowest and highest heights of the parts of one DEM tile (its min/max
/// quadtree), which bound the volumes of the tiles of other sources under it.
///
/// The finest level cuts the tile into a grid of 2^⌈log2(dimension/8)⌉ cells a side, each bounded by
/// the heights sampled bilinearly at its four corners (pixel centres at half a pixel, clamped to the
/// tile). Each coarser level bounds four cells; a cell is a leaf when its heights span at most 5 m
/// and its four cells are leaves. The tree keeps the root, then the four children of each cell that
/// is not a leaf, in the order top-left, top-right, bottom-left, bottom-right.
struct MapboxDEMTree: Sendable, Hashable {
    /// The lowest height of each node, in metres as decoded (not exaggerated).
    private var minimums: [Double] = []
    /// The highest height of each node.
    private var maximums: [Double] = []
    /// Whether each node is a leaf.
    private var leaves: [Bool] = []
    /// The index of each node's first child (its four children follow), 0 for a leaf.
    private var firstChild: [Int] = []

    /// A cell of a level of the grid.
    private struct Cell {
        var minimum: Double
        var maximum: Double
        var isLeaf: Bool
    }

    /// The heights span at most this many metres in a cell that is a leaf.
    private static let flatness = 5.0

    /// The tree of `dem`.
    init(_ dem: DEMTile) {
        let dimension = Double(dem.dimension)
        let side = Int(ceil(pow(2, ceil(log2(dimension / 8)))))
        var levels: [(side: Int, cells: [Cell])] = []
        var finest: [Cell] = []
        finest.reserveCapacity(side * side)
        for cy in 0..<side {
            for cx in 0..<side {
                let (x0, y0) = (Double(cx) / Double(side), Double(cy) / Double(side))
                let (x1, y1) = (Double(cx + 1) / Double(side), Double(cy + 1) / Double(side))
                let corners = [Self.sample(dem, x0, y0), Self.sample(dem, x1, y0), Self.sample(dem, x1, y1), Self.sample(dem, x0, y1)]
                finest.append(Cell(minimum: corners.min()!, maximum: corners.max()!, isLeaf: true))
            }
        }
        levels.append((side, finest))
        var size = side / 2
        while size >= 1 {
            let below = levels[levels.count - 1]
            var cells: [Cell] = []
            for cy in 0..<size {
                for cx in 0..<size {
                    let quarter = [(2 * cx, 2 * cy), (2 * cx + 1, 2 * cy), (2 * cx + 1, 2 * cy + 1), (2 * cx, 2 * cy + 1)]
                        .map { below.cells[$0.1 * below.side + $0.0] }
                    let low = quarter.map(\.minimum).min()!
                    let high = quarter.map(\.maximum).max()!
                    cells.append(Cell(minimum: low, maximum: high, isLeaf: high - low <= Self.flatness && quarter.allSatisfy(\.isLeaf)))
                }
            }
            levels.append((size, cells))
            size /= 2
        }
        let top = levels.count - 1
        append(levels[top].cells[0])
        addChildren(x: 0, y: 0, level: top, node: 0, levels: levels)
    }

    private mutating func append(_ cell: Cell) {
        minimums.append(cell.minimum)
        maximums.append(cell.maximum)
        leaves.append(cell.isLeaf)
        firstChild.append(0)
    }

    /// Adds the four children of cell (x, y) of `level`, node `node`, when it is not a leaf, and theirs.
    private mutating func addChildren(x: Int, y: Int, level: Int, node: Int, levels: [(side: Int, cells: [Cell])]) {
        let grid = levels[level]
        guard level > 0, !grid.cells[y * grid.side + x].isLeaf else { return }
        let below = levels[level - 1]
        let offsets = [(0, 0), (1, 0), (0, 1), (1, 1)]
        let first = minimums.count
        firstChild[node] = first
        for (dx, dy) in offsets { append(below.cells[(2 * y + dy) * below.side + 2 * x + dx]) }
        for (i, (dx, dy)) in offsets.enumerated() {
            addChildren(x: 2 * x + dx, y: 2 * y + dy, level: level - 1, node: first + i, levels: levels)
        }
    }

    /// The height at (u, v), fractions of the tile, bilinear between pixel centres, clamped to the tile.
    private static func sample(_ dem: DEMTile, _ u: Double, _ v: Double) -> Double {
        let last = Double(dem.dimension - 1)
        let px = min(max(u * Double(dem.dimension) - 0.5, 0), last)
        let py = min(max(v * Double(dem.dimension) - 0.5, 0), last)
        let (x0, y0) = (Int(floor(px)), Int(floor(py)))
        let (x1, y1) = (min(x0 + 1, dem.dimension - 1), min(y0 + 1, dem.dimension - 1))
        let (fx, fy) = (px - Double(x0), py - Double(y0))
        func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }
        return lerp(lerp(dem.height(x: x0, y: y0), dem.height(x: x0, y: y1), fy), lerp(dem.height(x: x1, y: y0), dem.height(x: x1, y: y1), fy), fx)
    }

    /// The lowest...highest height under the part of the tile that tile `z/x/y` covers, `levels`
    /// zooms below it (`getMinMaxForTile`): the node reached going down towards it, stopping at a leaf.
    func range(levels: Int, x: Int, y: Int) -> ClosedRange<Double> {
        let n = Double(1 << levels)
        var fx = Double(x).truncatingRemainder(dividingBy: n) / n
        var fy = Double(y).truncatingRemainder(dividingBy: n) / n
        var node = 0
        var level = 0
        while level < levels && !leaves[node] {
            fx *= 2
            fy *= 2
            node = firstChild[node] + 2 * Int(floor(fy)) + Int(floor(fx))
            fx = fx.truncatingRemainder(dividingBy: 1)
            fy = fy.truncatingRemainder(dividingBy: 1)
            level += 1
        }
        return minimums[node]...maximums[node]
    }

    /// The lowest height of the whole tile.
    var minimum: Double { minimums[0] }
}
