import MapSimStyle

/// Decodes the geometry column of an MLT feature table into each feature's geometry type and lines
/// or rings of points, as the MVT decoder gives them: a MultiPoint is a point feature with one line
/// per point, a MultiLineString a line feature with several lines, a Polygon or MultiPolygon a
/// polygon feature with all its rings, each closed by repeating its first point.
///
/// The first stream holds each feature's MLT geometry type (0 Point, 1 LineString, 2 Polygon,
/// 3 MultiPoint, 4 MultiLineString, 5 MultiPolygon). Count streams give the rest of the topology,
/// only where a count is not implied: the geometry counts of the Multi types, the ring counts of
/// polygons, the vertex counts of rings, and those of lines — in the ring stream when the column has
/// one, else in the part stream. The vertices follow in order, or through offsets into a vertex
/// dictionary. Pre-tessellated polygons also carry triangles and an index buffer, which drawing
/// from the outlines does not need.
struct MLTGeometryColumn {
    /// Each feature's geometry type.
    let types: [VectorTile.Feature.GeometryType]
    /// Each feature's lines or rings.
    let shapes: [[[TilePoint]]]

    /// Decodes the column's streams.
    static func decode(_ streams: [MLTStream], _ budget: inout MLTBudget) throws(MLTFault) -> MLTGeometryColumn {
        guard let typeStream = streams.first else { throw MLTFault("has no streams") }
        let codes = try typeStream.unsigned32(&budget)
        var geometries: MLTStream?
        var parts: MLTStream?
        var rings: MLTStream?
        var offsets: MLTStream?
        var vertices: MLTStream?
        for stream in streams.dropFirst() {
            switch stream.kind {
            case .length(.geometries): try place(stream, in: &geometries)
            case .length(.parts): try place(stream, in: &parts)
            case .length(.rings): try place(stream, in: &rings)
            case .offset(.vertex): try place(stream, in: &offsets)
            case .data(.vertex), .data(.morton): try place(stream, in: &vertices)
            case .length(.triangles), .offset(.index), .present: continue
            default: throw stream.fault("is not a stream a geometry column has")
            }
        }
        var walker = Walker(geometries: Counts(try geometries?.unsigned32(&budget), name: "geometry counts"),
                            parts: Counts(try parts?.unsigned32(&budget), name: "part counts"),
                            rings: Counts(try rings?.unsigned32(&budget), name: "ring counts"),
                            linesInRings: rings != nil, vertices: try vertices?.vertices(&budget) ?? [],
                            offsets: try offsets?.unsigned32(&budget))
        var types: [VectorTile.Feature.GeometryType] = []
        var shapes: [[[TilePoint]]] = []
        types.reserveCapacity(codes.count)
        shapes.reserveCapacity(codes.count)
        for (feature, code) in codes.enumerated() {
            do throws(MLTFault) {
                let (type, shape) = try walker.shape(of: code)
                types.append(type)
                shapes.append(shape)
            } catch {
                throw MLTFault("feature \(feature) \(error.message)")
            }
        }
        return MLTGeometryColumn(types: types, shapes: shapes)
    }

    private static func place(_ stream: MLTStream, in slot: inout MLTStream?) throws(MLTFault) {
        guard slot == nil else { throw stream.fault("repeats a stream the geometry column already has") }
        slot = stream
    }

    /// The values of a count stream, taken one at a time.
    private struct Counts {
        let values: [UInt32]?
        let name: String
        var used = 0

        init(_ values: [UInt32]?, name: String) {
            self.values = values
            self.name = name
        }

        var remaining: Int { (values?.count ?? 0) - used }

        /// The next count, which must not be more than `limit` (what is left of what it counts).
        mutating func next(atMost limit: Int) throws(MLTFault) -> Int {
            guard let values else { throw MLTFault("needs \(name) the geometry column lacks") }
            guard used < values.count else { throw MLTFault("needs more \(name) than the geometry column has") }
            let count = Int(values[used])
            used += 1
            guard count <= limit else { throw MLTFault("has a count of \(count) where only \(limit) are left") }
            return count
        }
    }

    /// Walks the topology feature by feature, each taking the counts and vertices its type uses.
    private struct Walker {
        var geometries: Counts
        var parts: Counts
        var rings: Counts
        let linesInRings: Bool
        /// Interleaved x, y coordinates.
        let vertices: [Int32]
        let offsets: [UInt32]?
        var nextVertex = 0

        var remainingVertices: Int { (offsets?.count ?? vertices.count / 2) - nextVertex }

        mutating func shape(of code: UInt32) throws(MLTFault) -> (VectorTile.Feature.GeometryType, [[TilePoint]]) {
            switch code {
            case 0:
                return (.point, [[try point()]])
            case 1:
                return (.lineString, [try line()])
            case 2:
                return (.polygon, try polygon())
            case 3:
                let count = try geometries.next(atMost: remainingVertices)
                var points: [[TilePoint]] = []
                for _ in 0..<count { points.append([try point()]) }
                return (.point, points)
            case 4:
                let count = try geometries.next(atMost: linesInRings ? rings.remaining : parts.remaining)
                var lines: [[TilePoint]] = []
                for _ in 0..<count { lines.append(try line()) }
                return (.lineString, lines)
            case 5:
                let count = try geometries.next(atMost: parts.remaining)
                var rings: [[TilePoint]] = []
                for _ in 0..<count { rings += try polygon() }
                return (.polygon, rings)
            default:
                throw MLTFault("has unknown geometry type \(code)")
            }
        }

        private mutating func point() throws(MLTFault) -> TilePoint {
            guard remainingVertices > 0 else { throw MLTFault("needs more vertices than the geometry column has") }
            var vertex = nextVertex
            if let offsets {
                vertex = Int(offsets[nextVertex])
                guard vertex < vertices.count / 2 else { throw MLTFault("refers to vertex \(vertex) of a dictionary of \(vertices.count / 2)") }
            }
            nextVertex += 1
            return TilePoint(x: Double(vertices[2 * vertex]), y: Double(vertices[2 * vertex + 1]))
        }

        private mutating func points(_ count: Int) throws(MLTFault) -> [TilePoint] {
            var points: [TilePoint] = []
            points.reserveCapacity(count)
            for _ in 0..<count { points.append(try point()) }
            return points
        }

        private mutating func line() throws(MLTFault) -> [TilePoint] {
            let count = linesInRings ? try rings.next(atMost: remainingVertices) : try parts.next(atMost: remainingVertices)
            return try points(count)
        }

        private mutating func polygon() throws(MLTFault) -> [[TilePoint]] {
            let count = try parts.next(atMost: rings.remaining)
            var polygon: [[TilePoint]] = []
            for _ in 0..<count {
                var ring = try points(try rings.next(atMost: remainingVertices))
                if let first = ring.first { ring.append(first) }
                polygon.append(ring)
            }
            return polygon
        }
    }
}
