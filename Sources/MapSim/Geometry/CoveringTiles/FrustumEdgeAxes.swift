/// The axes across a frustum's edges on which Mapbox GL JS tests a tile once more before it takes
/// it (its frustum's `projections`, used by `intersectsPrecise`): for each of six edges — two of the
/// near face and the four from the near face to the far one — the axis perpendicular to the edge and
/// to x, and the one perpendicular to the edge and to y, each with the span of the frustum's corners
/// along it. A volume whose corners all lie beyond one span misses the frustum, though no plane of
/// the frustum leaves it wholly outside (near the corners of a rotated or pitched view).
struct FrustumEdgeAxes: Sendable {
    private struct Axis: Sendable {
        var direction: Vector3
        var low: Double
        var high: Double
    }

    private let origin: Vector3
    private let axes: [Axis]

    /// The axes of `frustum`, its corners in GL JS's order (near face 0–3, far face 4–7).
    init(_ frustum: Frustum) {
        let p = frustum.points
        let origin = p[0]
        let edges = [p[2] - p[3], p[0] - p[3], p[4] - p[0], p[5] - p[1], p[6] - p[2], p[7] - p[3]]
        var axes: [Axis] = []
        for edge in edges {
            for direction in [Vector3(0, -edge.z, edge.y), Vector3(edge.z, 0, -edge.x)] {
                let span = Self.span(of: p, from: origin, along: direction)
                axes.append(Axis(direction: direction, low: span.low, high: span.high))
            }
        }
        self.origin = origin
        self.axes = axes
    }

    /// Whether one axis has `corners` wholly apart from the frustum.
    func separates(_ corners: [Vector3]) -> Bool {
        axes.contains { axis in
            let span = Self.span(of: corners, from: origin, along: axis.direction)
            return axis.high < span.low || axis.low > span.high
        }
    }

    /// The lowest and highest of `points` measured from `origin` along `direction`.
    private static func span(of points: [Vector3], from origin: Vector3, along direction: Vector3) -> (low: Double, high: Double) {
        var low = Double.infinity
        var high = -Double.infinity
        for point in points {
            let value = (point - origin).dot(direction)
            low = min(low, value)
            high = max(high, value)
        }
        return (low, high)
    }
}
