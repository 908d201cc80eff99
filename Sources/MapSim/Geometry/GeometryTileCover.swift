import Foundation
import MapSimStyle

/// The tiles of one zoom level that a geometry touches, in the order MapLibre Native's offline
/// download visits them (`util::TileCover`): row by row from the north, west to east in a row.
///
/// A polygon covers the tiles its area or edges reach (holes excluded by the non-zero rule), a line
/// the tiles it passes through, a point the tile it lies in; a rectangle of bounds is the polygon of
/// its corners. Each ring or line is cut into chains running from a local minimum of y to a local
/// maximum; a row's tiles are the x extents of the chains crossing it, merged, and for polygons filled
/// between chains. Tiles are made one at a time, so a cover of millions of tiles takes no memory.
public struct GeometryTileCover: Sequence, IteratorProtocol, Sendable {
    /// A chain of points from a local minimum of y to a local maximum, in tile units.
    private struct Chain: Sendable {
        var points: [(x: Double, y: Double)]
        var current = 0
        /// Whether the chain runs the way the ring does (up) or was reversed (down).
        var winding: Bool

        /// The x of the current edge at row line `y`.
        func x(atRow y: Double) -> Double {
            let p0 = points[current]
            let p1 = points[current + 1]
            let dx = p1.x - p0.x
            let dy = p1.y - p0.y
            if dx == 0 { return p0.x }
            if dy == 0 { return y <= p0.y ? p0.x : p1.x }
            if y < p0.y { return p0.x }
            if y > p1.y { return p1.x }
            return (dx / dy) * (y - p0.y) + p0.x
        }
    }

    private struct Span: Sendable {
        var low = Int(Int32.max)
        var high = 0
        var winding: Bool

        mutating func include(_ x: Double) {
            low = Swift.min(low, Self.column(floor(x)))
            high = Swift.max(high, Self.column(ceil(x)))
        }

        /// A whole x as a column, held to 32 bits as MapLibre's are.
        private static func column(_ x: Double) -> Int {
            Int(Swift.min(Swift.max(x, Double(Int32.min)), Double(Int32.max)))
        }
    }

    /// The zoom level.
    public let zoom: Int
    private let isClosed: Bool
    /// Chains by the row they start in, in row order.
    private var startingChains: [(row: Int, chains: [Chain])]
    private var nextStart = 0
    private var active: [Chain] = []
    /// The x ranges (end excluded) still to visit in the current row.
    private var spans: [(start: Int, end: Int)] = []
    private var spanIndex = 0
    private var row = 0
    private var column = 0

    /// The tiles of `zoom` that `geometry` touches.
    public init(geometry: GeoJSONGeometry, zoom: Int) {
        self.zoom = zoom
        var table: [Int: [Chain]] = [:]
        let tiles = Double(1 << zoom)
        func project(_ p: LngLat) -> (x: Double, y: Double) {
            Self.project(p, tiles: tiles)
        }
        var closed = false
        switch geometry {
        case .point(let p):
            Self.addPoint(project(p), tiles: tiles, to: &table)
        case .multiPoint(let points):
            for p in points { Self.addPoint(project(p), tiles: tiles, to: &table) }
        case .lineString(let line):
            Self.addChains(of: line.map(project), closed: false, tiles: tiles, to: &table)
        case .multiLineString(let lines):
            for line in lines { Self.addChains(of: line.map(project), closed: false, tiles: tiles, to: &table) }
        case .polygon(let rings):
            closed = true
            for ring in rings { Self.addChains(of: ring.map(project), closed: true, tiles: tiles, to: &table) }
        case .multiPolygon(let polygons):
            closed = true
            for ring in polygons.joined() { Self.addChains(of: ring.map(project), closed: true, tiles: tiles, to: &table) }
        case .geometryCollection:
            // MapLibre Native covers nothing for a collection.
            break
        }
        isClosed = closed
        startingChains = table.sorted { $0.key < $1.key }.map { (row: $0.key, chains: $0.value) }
        start()
    }

    /// The tiles of `zoom` inside `bounds` (latitudes clamped to the square world; west and east
    /// taken as the smaller and larger longitude).
    public init(bounds: LngLatBounds, zoom: Int) {
        let south = Swift.max(Swift.min(bounds.south, bounds.north), -LngLat.maximumMercatorLatitude)
        let north = Swift.min(Swift.max(bounds.south, bounds.north), LngLat.maximumMercatorLatitude)
        let west = Swift.min(bounds.west, bounds.east)
        let east = Swift.max(bounds.west, bounds.east)
        let corners = south > north
            ? [LngLat(longitude: -180, latitude: -LngLat.maximumMercatorLatitude), LngLat(longitude: -180, latitude: LngLat.maximumMercatorLatitude),
               LngLat(longitude: 180, latitude: LngLat.maximumMercatorLatitude), LngLat(longitude: 180, latitude: -LngLat.maximumMercatorLatitude)]
            : [LngLat(longitude: west, latitude: south), LngLat(longitude: west, latitude: north),
               LngLat(longitude: east, latitude: north), LngLat(longitude: east, latitude: south)]
        self.init(geometry: .polygon([corners + [corners[0]]]), zoom: zoom)
    }

    /// How many tiles the cover has, counted without keeping them.
    public var count: Int {
        var copy = self
        var total = 0
        while copy.next() != nil { total += 1 }
        return total
    }

    public mutating func next() -> CanonicalTileID? {
        let tiles = 1 << zoom
        guard spanIndex < spans.count, column < spans[spanIndex].end, row < tiles else { return nil }
        let x = column
        let y = row
        column += 1
        if column >= spans[spanIndex].end {
            spanIndex += 1
            if spanIndex == spans.count {
                row += 1
                scanNextRow()
            }
            if spanIndex < spans.count { column = spans[spanIndex].start }
        }
        let wrapped = ((x % tiles) + tiles) % tiles
        return CanonicalTileID(z: zoom, x: wrapped, y: y)
    }

    // MARK: - Building

    /// A position in tile units of a zoom with `tiles` tiles a side, as MapLibre projects it.
    private static func project(_ p: LngLat, tiles: Double) -> (x: Double, y: Double) {
        let latitude = Swift.min(Swift.max(p.latitude, -LngLat.maximumMercatorLatitude), LngLat.maximumMercatorLatitude)
        let scale = tiles / 360
        let y = 180 - 180 / Double.pi * log(tan(Double.pi / 4 + latitude * Double.pi / 360))
        return ((180 + p.longitude) * scale, y * scale)
    }

    private static func row(of y: Double, tiles: Double) -> Int {
        Int(floor(Swift.min(Swift.max(y, 0), tiles)))
    }

    private static func addPoint(_ p: (x: Double, y: Double), tiles: Double, to table: inout [Int: [Chain]]) {
        table[row(of: p.y, tiles: tiles), default: []].append(Chain(points: [p, p], winding: false))
    }

    /// Cuts a ring or line into chains from local minima to local maxima of y.
    private static func addChains(of line: [(x: Double, y: Double)], closed: Bool, tiles: Double, to table: inout [Int: [Chain]]) {
        guard line.count >= 2 else { return }
        var points = line
        if closed { startOnLocalMinimum(&points) }
        var index = 0
        while index < points.count {
            let up = chain(points, from: &index, rising: true)
            let down = chain(points, from: &index, rising: false)
            for chain in [up, down] {
                if let chain { table[row(of: chain.points[0].y, tiles: tiles), default: []].append(chain) }
            }
        }
    }

    /// Rotates a closed ring so that it starts (and ends) at a local minimum of y.
    private static func startOnLocalMinimum(_ points: inout [(x: Double, y: Double)]) {
        let n = points.count
        var previous = n - 2
        var found: Int?
        for index in 0..<n {
            let next = index + 1 < n ? index + 1 : 1
            if points[index].y <= points[previous].y && points[index].y < points[next].y {
                found = index
                break
            }
            previous = index
        }
        guard let start = found else { return }
        if points[n - 1] == points[0] { points.removeLast() }
        points = Array(points[start...] + points[..<start])
        points.append(points[0])
    }

    /// The chain from `index` while y rises (or, with `rising` false, falls — reversed, so that every
    /// chain rises); leaves `index` at its end (or past the last point).
    private static func chain(_ points: [(x: Double, y: Double)], from index: inout Int, rising: Bool) -> Chain? {
        guard points.count - index >= 2 else { return nil }
        let begin = index
        var next = index + 1
        while rising ? points[index].y <= points[next].y : points[index].y > points[next].y {
            index += 1
            next += 1
            if next == points.count {
                index += 1
                break
            }
        }
        guard next - begin >= 2 else { return nil }
        let run = Array(points[begin..<next])
        return Chain(points: rising ? run : run.reversed(), winding: rising)
    }

    // MARK: - Scanning

    private mutating func start() {
        guard !startingChains.isEmpty else { return }
        row = 0
        scanNextRow()
        if spanIndex < spans.count { column = spans[spanIndex].start }
    }

    /// Takes in the chains that start in the row, and finds the row's spans.
    private mutating func scanNextRow() {
        spans.removeAll(keepingCapacity: true)
        spanIndex = 0
        if nextStart < startingChains.count {
            if active.isEmpty && startingChains[nextStart].row > row { row = startingChains[nextStart].row }
            if row == startingChains[nextStart].row {
                active += startingChains[nextStart].chains
                nextStart += 1
            }
        }
        let found = crossings()
        guard var current = found.first else { return }
        var winding = current.winding ? 1 : -1
        for span in found.dropFirst() {
            if !(isClosed && winding != 0), span.low > current.high && span.high >= current.high {
                spans.append((current.low, current.high))
                current.low = span.low
            }
            winding += span.winding ? 1 : -1
            current.high = Swift.max(current.low, span.high)
        }
        spans.append((current.low, current.high))
    }

    /// The x extent of each active chain within the row, sorted; chains that end in the row are dropped.
    private mutating func crossings() -> [Span] {
        let top = Double(row)
        let bottom = Double(row + 1)
        var found: [Span] = []
        found.reserveCapacity(active.count)
        for index in active.indices {
            var span = Span(winding: active[index].winding)
            let edges = active[index].points.count - 1
            while active[index].current < edges {
                span.include(active[index].x(atRow: top))
                let end = active[index].points[active[index].current + 1]
                if end.y > bottom {
                    span.include(active[index].x(atRow: bottom))
                    break
                } else if active[index].current == edges - 1 {
                    span.include(end.x)
                }
                active[index].current += 1
            }
            found.append(span)
        }
        active.removeAll { $0.current == $0.points.count - 1 && $0.points[$0.current].y <= bottom }
        return found.sorted { ($0.low, $0.high) < ($1.low, $1.high) }
    }
}
