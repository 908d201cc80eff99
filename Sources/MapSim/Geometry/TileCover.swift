import Foundation

/// The tiles of one zoom level that cover the view, nearest to the centre first, by MapLibre
/// Native's rule (`tileCover`): the view's ground quad is cut into rows of tiles, and in each row
/// every tile the quad overlaps is taken. Columns may leave the world (world copies, reported with
/// their wrap); rows never do. GL JS's cover is `CoveringTiles`.
public enum TileCover {
    /// The unwrapped tiles of zoom `z` covering `quad`, sorted by distance from the centre, then x, then y.
    public static func tiles(covering quad: ViewportQuad, atZoom z: Int) -> [UnwrappedTileID] {
        let scale = Double(1 << z)
        let points = quad.corners.map { (x: $0.x * scale, y: $0.y * scale) }
        let center = (x: quad.center.x * scale, y: quad.center.y * scale)
        let minY = points.map(\.y).min()!
        let maxY = points.map(\.y).max()!
        let firstRow = max(Int(floor(minY)), 0)
        let lastRow = min(Int(ceil(maxY)), 1 << z) - 1
        guard firstRow <= lastRow else { return [] }

        var found: [(x: Int, y: Int, distance: Double)] = []
        for row in firstRow...lastRow {
            guard let span = horizontalSpan(of: points, from: Double(row), to: Double(row + 1)) else { continue }
            let firstColumn = Int(floor(span.min))
            let endColumn = Int(ceil(span.max))
            for column in firstColumn..<max(endColumn, firstColumn) {
                let dx = Double(column) + 0.5 - center.x
                let dy = Double(row) + 0.5 - center.y
                found.append((column, row, dx * dx + dy * dy))
            }
        }
        found.sort { ($0.distance, $0.x, $0.y) < ($1.distance, $1.x, $1.y) }
        return found.map { UnwrappedTileID(z: z, x: $0.x, y: $0.y) }
    }

    /// How many tiles `tiles(covering:atZoom:)` gives, counted row by row without making them: what
    /// a cover would cost, known before it is paid.
    public static func count(covering quad: ViewportQuad, atZoom z: Int) -> Int {
        let scale = Double(1 << z)
        let points = quad.corners.map { (x: $0.x * scale, y: $0.y * scale) }
        let firstRow = max(Int(floor(points.map(\.y).min()!)), 0)
        let lastRow = min(Int(ceil(points.map(\.y).max()!)), 1 << z) - 1
        guard firstRow <= lastRow else { return 0 }
        var total = 0
        for row in firstRow...lastRow {
            guard let span = horizontalSpan(of: points, from: Double(row), to: Double(row + 1)) else { continue }
            total += max(Int(ceil(span.max)) - Int(floor(span.min)), 0)
        }
        return total
    }

    /// The x extent of the convex polygon `points` within the horizontal band `top...bottom`,
    /// or nil when the polygon does not reach into the band.
    static func horizontalSpan(of points: [(x: Double, y: Double)], from top: Double, to bottom: Double) -> (min: Double, max: Double)? {
        var low = Double.infinity
        var high = -Double.infinity
        func include(_ x: Double) {
            low = min(low, x)
            high = max(high, x)
        }
        for (index, a) in points.enumerated() {
            let b = points[(index + 1) % points.count]
            if a.y >= top && a.y <= bottom { include(a.x) }
            if a.y != b.y {
                for edgeY in [top, bottom] where (min(a.y, b.y)...max(a.y, b.y)).contains(edgeY) {
                    include(a.x + (edgeY - a.y) / (b.y - a.y) * (b.x - a.x))
                }
            }
        }
        guard low <= high else { return nil }
        // A polygon that only touches the band along one of its edges does not enter it.
        let polygonTop = points.map(\.y).min()!
        let polygonBottom = points.map(\.y).max()!
        if polygonBottom <= top || polygonTop >= bottom { return nil }
        return (low, high)
    }
}
