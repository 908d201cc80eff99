import Foundation

/// `distance`: the shortest distance in meters from the feature to the shape, zero when they touch
/// or one is inside the other, measured with the cheap ruler at the feature's first latitude.
extension GeoJSONShape {
    func distance(to feature: ExpressionFeature?, in tile: CanonicalTile?) -> Double {
        guard let feature, let geometry = feature.geometry, let tile else { return .nan }
        func lngLat(_ point: TilePoint) -> TilePoint {
            let position = Self.position(point, tile: tile)
            return TilePoint(x: position[0], y: position[1])
        }
        var result = Double.infinity
        switch feature.geometryType {
        case "Point", "LineString":
            guard !geometry.isEmpty else { return .nan }
            let points = geometry.joined().map(lngLat)
            guard let first = points.first else { return .nan }
            let ruler = CheapRuler(latitude: first.y)
            let isLine = feature.geometryType == "LineString"
            for simple in geometries {
                switch simple {
                case .point(let position):
                    let point = Self.point(position)
                    result = min(result, isLine ? ruler.distance(from: point, toLine: points) : points.map { ruler.distance($0, point) }.min() ?? .nan)
                case .line(let positions):
                    let line = positions.map(Self.point)
                    result = min(result, isLine ? ruler.lineDistance(points, line) : points.map { ruler.distance(from: $0, toLine: line) }.min() ?? .nan)
                case .polygon(let rings):
                    let polygon = rings.map { $0.map(Self.point) }
                    result = min(result, isLine ? ruler.distance(fromLine: points, toPolygon: polygon)
                                 : points.map { ruler.distance(from: $0, toPolygon: polygon) }.min() ?? .nan)
                }
                if result == 0 { return 0 }
            }
        case "Polygon":
            guard let firstRing = geometry.first, !firstRing.isEmpty else { return .nan }
            let polygons = Self.classifyRings(geometry).map { $0.map { $0.map(lngLat) } }
            guard let origin = polygons.first?.first?.first else { return .nan }
            let ruler = CheapRuler(latitude: origin.y)
            for simple in geometries {
                for polygon in polygons {
                    switch simple {
                    case .point(let position):
                        result = min(result, ruler.distance(from: Self.point(position), toPolygon: polygon))
                    case .line(let positions):
                        result = min(result, ruler.distance(fromLine: positions.map(Self.point), toPolygon: polygon))
                    case .polygon(let rings):
                        result = min(result, ruler.distance(fromPolygon: polygon, toPolygon: rings.map { $0.map(Self.point) }))
                    }
                    if result == 0 { return 0 }
                }
            }
        default:
            return .nan
        }
        return result
    }

    private static func point(_ position: Position) -> TilePoint {
        TilePoint(x: position.first ?? .nan, y: position.count > 1 ? position[1] : .nan)
    }

    /// Rings grouped into polygons by winding: each ring wound like the first starts a polygon,
    /// the others are its holes; rings with no area are dropped.
    static func classifyRings(_ rings: [[TilePoint]]) -> [[[TilePoint]]] {
        var polygons: [[[TilePoint]]] = []
        var outerIsNegative: Bool?
        for ring in rings {
            var area = 0.0
            for index in ring.indices {
                let (a, b) = (ring[index], ring[(index + ring.count - 1) % ring.count])
                area += (b.x - a.x) * (a.y + b.y)
            }
            if area == 0 { continue }
            if outerIsNegative == nil { outerIsNegative = area < 0 }
            if outerIsNegative == (area < 0) || polygons.isEmpty {
                polygons.append([ring])
            } else {
                polygons[polygons.count - 1].append(ring)
            }
        }
        return polygons
    }
}

/// Fast approximate distances on the ellipsoid near one latitude (Mapbox's cheap ruler).
struct CheapRuler {
    private let kx: Double
    private let ky: Double

    init(latitude: Double) {
        let equatorialRadius = 6378.137
        let flattening = 1 / 298.257223563
        let eccentricitySquared = flattening * (2 - flattening)
        let radians = Double.pi / 180
        let m = radians * equatorialRadius * 1000
        let cosine = cos(latitude * radians)
        let w2 = 1 / (1 - eccentricitySquared * (1 - cosine * cosine))
        let w = w2.squareRoot()
        kx = m * w * cosine
        ky = m * w * w2 * (1 - eccentricitySquared)
    }

    private func wrap(_ degrees: Double) -> Double {
        var value = degrees
        while value < -180 { value += 360 }
        while value > 180 { value -= 360 }
        return value
    }

    func distance(_ a: TilePoint, _ b: TilePoint) -> Double {
        let dx = wrap(a.x - b.x) * kx
        let dy = (a.y - b.y) * ky
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The distance from `p` to the nearest point of `line` (NaN for a line of fewer than 2 points).
    func distance(from p: TilePoint, toLine line: [TilePoint]) -> Double {
        var best = Double.infinity
        var nearest = TilePoint(x: .nan, y: .nan)
        for index in 0..<max(0, line.count - 1) {
            var x = line[index].x
            var y = line[index].y
            let dx = wrap(line[index + 1].x - x) * kx
            let dy = (line[index + 1].y - y) * ky
            if dx != 0 || dy != 0 {
                let t = (wrap(p.x - x) * kx * dx + (p.y - y) * ky * dy) / (dx * dx + dy * dy)
                if t > 1 {
                    x = line[index + 1].x
                    y = line[index + 1].y
                } else if t > 0 {
                    x += dx / kx * t
                    y += dy / ky * t
                }
            }
            let ex = wrap(p.x - x) * kx
            let ey = (p.y - y) * ky
            let squared = ex * ex + ey * ey
            if squared < best {
                best = squared
                nearest = TilePoint(x: x, y: y)
            }
        }
        return distance(p, nearest)
    }

    private func segmentDistance(_ p1: TilePoint, _ p2: TilePoint, _ q1: TilePoint, _ q2: TilePoint) -> Double {
        min(distance(from: p1, toLine: [q1, q2]), distance(from: p2, toLine: [q1, q2]),
            distance(from: q1, toLine: [p1, p2]), distance(from: q2, toLine: [p1, p2]))
    }

    /// The distance between two lines: zero where they cross.
    func lineDistance(_ a: [TilePoint], _ b: [TilePoint]) -> Double {
        var best = Double.infinity
        for i in 0..<max(0, a.count - 1) {
            for j in 0..<max(0, b.count - 1) {
                if GeoJSONShape.segmentsCross(a[i], a[i + 1], b[j], b[j + 1]) { return 0 }
                best = min(best, segmentDistance(a[i], a[i + 1], b[j], b[j + 1]))
            }
        }
        return best
    }

    /// The distance from a point to a polygon: zero inside it or on its boundary.
    func distance(from p: TilePoint, toPolygon polygon: [[TilePoint]]) -> Double {
        if GeoJSONShape.pointInPolygon(p, polygon, trueOnBoundary: true) { return 0 }
        var best = Double.infinity
        for ring in polygon {
            guard let front = ring.first, let back = ring.last else { continue }
            if ring.count > 1 { best = min(best, distance(from: p, toLine: [back, front])) }
            best = min(best, distance(from: p, toLine: ring))
            if best == 0 { return 0 }
        }
        return best
    }

    /// The distance from a line to a polygon: zero when a vertex is inside or a segment crosses a ring.
    func distance(fromLine line: [TilePoint], toPolygon polygon: [[TilePoint]]) -> Double {
        if line.contains(where: { GeoJSONShape.pointInPolygon($0, polygon, trueOnBoundary: true) }) { return 0 }
        var best = Double.infinity
        for i in 0..<max(0, line.count - 1) {
            for ring in polygon {
                for j in ring.indices {
                    let (q1, q2) = (ring[(j + ring.count - 1) % ring.count], ring[j])
                    if GeoJSONShape.segmentsCross(line[i], line[i + 1], q1, q2) { return 0 }
                    best = min(best, segmentDistance(line[i], line[i + 1], q1, q2))
                }
            }
        }
        return best
    }

    /// The distance between two polygons: zero when a vertex of one is inside the other or rings cross.
    func distance(fromPolygon a: [[TilePoint]], toPolygon b: [[TilePoint]]) -> Double {
        if a.joined().contains(where: { GeoJSONShape.pointInPolygon($0, b, trueOnBoundary: true) })
            || b.joined().contains(where: { GeoJSONShape.pointInPolygon($0, a, trueOnBoundary: true) }) {
            return 0
        }
        var best = Double.infinity
        for ring1 in a {
            for i in ring1.indices {
                let (p1, p2) = (ring1[(i + ring1.count - 1) % ring1.count], ring1[i])
                for ring2 in b {
                    for j in ring2.indices {
                        let (q1, q2) = (ring2[(j + ring2.count - 1) % ring2.count], ring2[j])
                        if GeoJSONShape.segmentsCross(p1, p2, q1, q2) { return 0 }
                        best = min(best, segmentDistance(p1, p2, q1, q2))
                    }
                }
            }
        }
        return best
    }
}
