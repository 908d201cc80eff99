import Foundation

/// The tiles of one zoom level that cover the view, nearest to the centre first.
///
/// Two rules, one per engine family. MapLibre Native's (`tiles`): the view's ground quad is cut
/// into rows of tiles, and in each row every tile the quad overlaps is taken. GL JS's
/// (`frustumTiles`): every tile that no plane of the view's frustum leaves wholly outside, and that
/// meets the frustum's bounding box — so a tile touching the view's edge is taken, and near a
/// corner of a rotated view a tile that only the bounding planes' test lets through. Columns may
/// leave the world (world copies, reported with their wrap); rows never do.
public enum TileCover {
    /// How close to a tile's edge, in tiles, a view's edge counts as lying on it: what floating
    /// point leaves of an edge that falls on a tile boundary.
    static let touchingTolerance = 1e-9

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

    /// The unwrapped tiles of zoom `z` that GL JS's frustum test takes for `quad`, sorted by distance
    /// from the centre, then x, then y: a tile is left out when one of the four planes through the
    /// camera and the view's edges leaves it wholly outside (a tile on a plane is in), or when it
    /// misses the frustum's bounding box — the ground quad, the camera's foot (the near plane is by
    /// it) and the far plane a hundredth beyond the quad's far edge.
    public static func frustumTiles(covering quad: ViewportQuad, atZoom z: Int) -> [UnwrappedTileID] {
        let scale = Double(1 << z)
        let points = quad.corners.map { (x: $0.x * scale, y: $0.y * scale) }
        let center = (x: quad.center.x * scale, y: quad.center.y * scale)
        let foot = (x: quad.cameraGround.x * scale, y: quad.cameraGround.y * scale)
        // The far corners (top-left, top-right) pushed a hundredth further from the camera's foot.
        let far = points.prefix(2).map { (x: $0.x + ($0.x - foot.x) * 0.01, y: $0.y + ($0.y - foot.y) * 0.01) }
        let box = points + far + [foot]
        let (minX, maxX) = (box.map(\.x).min()!, box.map(\.x).max()!)
        let (minY, maxY) = (box.map(\.y).min()!, box.map(\.y).max()!)
        // Each edge as a line n·p + d ≥ 0 on the inside.
        let orientation = zip(points, points.dropFirst() + [points[0]]).reduce(0.0) { $0 + ($1.0.x * $1.1.y - $1.1.x * $1.0.y) } >= 0 ? 1.0 : -1.0
        let planes = zip(points, points.dropFirst() + [points[0]]).map { a, b in
            (nx: -(b.y - a.y) * orientation, ny: (b.x - a.x) * orientation, d: ((b.y - a.y) * a.x - (b.x - a.x) * a.y) * orientation)
        }
        let firstRow = max(Int(ceil(minY - 1 - touchingTolerance)), 0)
        let lastRow = min(Int(floor(maxY + touchingTolerance)), (1 << z) - 1)
        guard firstRow <= lastRow else { return [] }
        var found: [(x: Int, y: Int, distance: Double)] = []
        for row in firstRow...lastRow {
            for column in Int(ceil(minX - 1 - touchingTolerance))...Int(floor(maxX + touchingTolerance)) {
                let corners = [(Double(column), Double(row)), (Double(column + 1), Double(row)), (Double(column), Double(row + 1)), (Double(column + 1), Double(row + 1))]
                let inside = planes.allSatisfy { plane in
                    corners.contains { plane.nx * $0.0 + plane.ny * $0.1 + plane.d >= -touchingTolerance * (abs(plane.nx) + abs(plane.ny)) }
                }
                guard inside else { continue }
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
