import Foundation
import MapSimJSON

/// The GeoJSON argument of `within` and `distance`, split into simple points, lines and polygons,
/// and the two tests on a feature's tile geometry, with the reference's arithmetic: `within` in
/// world tile coordinates (extent 8192, rounded), `distance` in meters with the cheap ruler at the
/// feature's first latitude.
struct GeoJSONShape: Sendable {
    /// A position: longitude, latitude.
    typealias Position = [Double]

    enum Simple: Sendable {
        case point(Position)
        case line([Position])
        case polygon([[Position]])
    }

    let geometries: [Simple]

    init(_ json: JSONValue) {
        var geometries: [Simple] = []
        func positions(_ value: JSONValue?) -> [Position] {
            (value?.arrayValue ?? []).map { ($0.arrayValue ?? []).compactMap(\.numberValue) }
        }
        func rings(_ value: JSONValue?) -> [[Position]] {
            (value?.arrayValue ?? []).map(positions)
        }
        func add(_ geometry: JSONValue?) {
            let coordinates = geometry?["coordinates"]
            switch geometry?["type"]?.stringValue {
            case "Point": geometries.append(.point((coordinates?.arrayValue ?? []).compactMap(\.numberValue)))
            case "MultiPoint": geometries += positions(coordinates).map(Simple.point)
            case "LineString": geometries.append(.line(positions(coordinates)))
            case "MultiLineString": geometries += rings(coordinates).map(Simple.line)
            case "Polygon": geometries.append(.polygon(rings(coordinates)))
            case "MultiPolygon": geometries += (coordinates?.arrayValue ?? []).map { .polygon(rings($0)) }
            default: break
            }
        }
        switch json["type"]?.stringValue {
        case "FeatureCollection": json["features"]?.arrayValue?.forEach { add($0["geometry"]) }
        case "Feature": add(json["geometry"])
        default: add(json)
        }
        self.geometries = geometries
    }

    static let extent = 8192.0

    // MARK: - within

    /// Whether every point or line of the feature lies inside one of the polygons.
    func contains(_ feature: ExpressionFeature?, in tile: CanonicalTile?) -> Bool {
        guard let feature, let geometry = feature.geometry, let tile else { return false }
        let isPoint = feature.geometryType == "Point"
        guard isPoint || feature.geometryType == "LineString" else { return false }
        var polygonBox = BoundingBox()
        let polygons: [[[TilePoint]]] = geometries.compactMap { simple in
            guard case .polygon(let rings) = simple else { return nil }
            return rings.map { ring in
                ring.map { position in
                    let point = Self.worldTilePoint(position, zoom: tile.z)
                    polygonBox.add(point)
                    return point
                }
            }
        }
        let worldSize = pow(2, Double(tile.z)) * Self.extent
        let shift = TilePoint(x: Double(tile.x) * Self.extent, y: Double(tile.y) * Self.extent)
        var lines = geometry.map { line in line.map { TilePoint(x: $0.x + shift.x, y: $0.y + shift.y) } }
        var featureBox = BoundingBox()
        if isPoint {
            lines = lines.map { line in line.map { Self.wrapped($0, into: polygonBox, worldSize: worldSize, box: &featureBox) } }
        } else {
            lines.joined().forEach { featureBox.add($0) }
            if featureBox.maxX - featureBox.minX <= worldSize / 2 {
                featureBox = BoundingBox()
                lines = lines.map { line in line.map { Self.wrapped($0, into: polygonBox, worldSize: worldSize, box: &featureBox) } }
            }
        }
        guard featureBox.isStrictlyInside(polygonBox) else { return false }
        if isPoint {
            return lines.joined().allSatisfy { point in polygons.contains { Self.pointInPolygon(point, $0) } }
        }
        return lines.allSatisfy { line in polygons.contains { Self.lineInPolygon(line, $0) } }
    }

    /// A longitude/latitude in the world's tile coordinates at `zoom`, rounded.
    static func worldTilePoint(_ position: Position, zoom: Int) -> TilePoint {
        let scale = pow(2, Double(zoom)) * extent
        let x = (180 + (position.first ?? 0)) / 360
        let latitude = position.count > 1 ? position[1] : 0
        let y = (180 - (180 / .pi) * log(tan(.pi / 4 + latitude * .pi / 360))) / 360
        return TilePoint(x: javaScriptRound(x * scale), y: javaScriptRound(y * scale))
    }

    /// A point of the world's tile coordinates at the tile's zoom as longitude and latitude.
    static func position(_ point: TilePoint, tile: CanonicalTile) -> Position {
        let tiles = pow(2, Double(tile.z))
        let x = (point.x / extent + Double(tile.x)) / tiles
        let y = (point.y / extent + Double(tile.y)) / tiles
        return [x * 360 - 180, 360 / .pi * atan(exp((180 - y * 360) * .pi / 180)) - 90]
    }

    private static func javaScriptRound(_ x: Double) -> Double {
        let down = x.rounded(.down)
        return x - down >= 0.5 ? down + 1 : down
    }

    /// The point moved by a world's width when that brings it nearer the polygons' box.
    private static func wrapped(_ point: TilePoint, into polygonBox: BoundingBox, worldSize: Double, box: inout BoundingBox) -> TilePoint {
        var point = point
        if point.x < polygonBox.minX || point.x > polygonBox.maxX {
            let half = worldSize / 2
            var shift = point.x - polygonBox.minX > half ? -worldSize : polygonBox.minX - point.x > half ? worldSize : 0
            if shift == 0 {
                shift = point.x - polygonBox.maxX > half ? -worldSize : polygonBox.maxX - point.x > half ? worldSize : 0
            }
            point.x += shift
        }
        box.add(point)
        return point
    }

    struct BoundingBox {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity

        mutating func add(_ point: TilePoint) {
            minX = min(minX, point.x)
            minY = min(minY, point.y)
            maxX = max(maxX, point.x)
            maxY = max(maxY, point.y)
        }

        func isStrictlyInside(_ other: BoundingBox) -> Bool {
            minX > other.minX && maxX < other.maxX && minY > other.minY && maxY < other.maxY
        }
    }

    static func pointInPolygon(_ point: TilePoint, _ rings: [[TilePoint]], trueOnBoundary: Bool = false) -> Bool {
        var inside = false
        for ring in rings where ring.count > 1 {
            for index in 0..<(ring.count - 1) {
                let (a, b) = (ring[index], ring[index + 1])
                if onSegment(point, a, b) { return trueOnBoundary }
                if (a.y > point.y) != (b.y > point.y), point.x < (b.x - a.x) * (point.y - a.y) / (b.y - a.y) + a.x {
                    inside.toggle()
                }
            }
        }
        return inside
    }

    private static func onSegment(_ p: TilePoint, _ a: TilePoint, _ b: TilePoint) -> Bool {
        let (x1, y1, x2, y2) = (p.x - a.x, p.y - a.y, p.x - b.x, p.y - b.y)
        return x1 * y2 - x2 * y1 == 0 && x1 * x2 <= 0 && y1 * y2 <= 0
    }

    private static func lineInPolygon(_ line: [TilePoint], _ polygon: [[TilePoint]]) -> Bool {
        guard line.allSatisfy({ pointInPolygon($0, polygon) }) else { return false }
        for index in 0..<max(0, line.count - 1) {
            for ring in polygon where ring.count > 1 {
                for j in 0..<(ring.count - 1) where segmentsCross(line[index], line[index + 1], ring[j], ring[j + 1]) {
                    return false
                }
            }
        }
        return true
    }

    /// Whether two segments properly cross (not merely touch or overlap).
    static func segmentsCross(_ a: TilePoint, _ b: TilePoint, _ c: TilePoint, _ d: TilePoint) -> Bool {
        let p = (b.x - a.x, b.y - a.y)
        let q = (d.x - c.x, d.y - c.y)
        if q.0 * p.1 - q.1 * p.0 == 0 { return false }
        return twoSided(a, b, c, d) && twoSided(c, d, a, b)
    }

    private static func twoSided(_ p1: TilePoint, _ p2: TilePoint, _ q1: TilePoint, _ q2: TilePoint) -> Bool {
        let (x1, y1) = (p1.x - q1.x, p1.y - q1.y)
        let (x2, y2) = (p2.x - q1.x, p2.y - q1.y)
        let (x3, y3) = (q2.x - q1.x, q2.y - q1.y)
        let det1 = x1 * y3 - x3 * y1
        let det2 = x2 * y3 - x3 * y2
        return (det1 > 0 && det2 < 0) || (det1 < 0 && det2 > 0)
    }
}
