/// The camera's view volume (GL JS's `Frustum.fromInvProjectionMatrix`): its eight corners, its six
/// planes (near, far, left, right, top, bottom; facing inwards) and the box around the corners.
struct Frustum: Sendable {
    var points: [Vector3]
    var planes: [Plane]
    var bounds: AxisAlignedBox

    /// The corners of clip space, near face first, in GL JS's order.
    static let clipCorners: [(Double, Double, Double)] = [(-1, 1, -1), (1, 1, -1), (1, -1, -1), (-1, -1, -1),
                                                                   (-1, 1, 1), (1, 1, 1), (1, -1, 1), (-1, -1, 1)]

    /// The frustum of the inverse view-projection `inverse`: x and y of its corners divided by
    /// `worldSize`, z as the matrix gives it. `flipped` (the globe's) has corners 0–3 on the far face
    /// and 4–7 on the near one; a `horizon` plane pulls the far corners in to the horizon.
    init(inverseProjection inverse: Matrix4, worldSize: Double, horizon: Plane? = nil, flipped: Bool = false) {
        let faces = flipped ? [[6, 5, 4], [0, 1, 2], [0, 3, 7], [2, 1, 5], [3, 2, 6], [0, 4, 5]]
                            : [[0, 1, 2], [6, 5, 4], [0, 3, 7], [2, 1, 5], [3, 2, 6], [0, 4, 5]]
        var corners = Self.clipCorners.map { c -> Vector3 in
            let r = inverse.transform(c.0, c.1, c.2, 1)
            let s = 1 / r.w / worldSize
            return Vector3(r.x * s, r.y * s, r.z * (1 / r.w))
        }
        if let horizon {
            Self.fitFarFace(&corners, toHorizon: horizon, nearFace: faces[0], flipped: flipped)
        }
        points = corners
        planes = faces.map { Plane(through: corners[$0[0]], corners[$0[1]], corners[$0[2]]) }
        bounds = AxisAlignedBox(enclosing: corners)
    }

    /// The frustum with these corners, in GL JS's order (near face 0–3, far face 4–7), as they are:
    /// Mapbox's globe scales all three of their coordinates to tile units itself.
    init(corners: [Vector3]) {
        points = corners
        planes = [[0, 1, 2], [6, 5, 4], [0, 3, 7], [2, 1, 5], [3, 2, 6], [0, 4, 5]].map { Plane(through: corners[$0[0]], corners[$0[1]], corners[$0[2]]) }
        bounds = AxisAlignedBox(enclosing: corners)
    }

    /// Pulls the far corners in to the horizon: each side edge (near corner to far corner) is cut
    /// where it meets the horizon plane, and no farther than the point of the horizon circle
    /// farthest from the near plane.
    private static func fitFarFace(_ corners: inout [Vector3], toHorizon horizon: Plane, nearFace: [Int], flipped: Bool) {
        let near = flipped ? 4 : 0
        let far = flipped ? 0 : 4
        var edges: [(direction: Vector3, length: Double)] = []
        for i in 0..<4 {
            let edge = corners[i + far] - corners[i + near]
            let length = edge.length
            edges.append((edge * (1 / length), length))
        }
        var farDistance = 0.0
        for i in 0..<4 {
            if let t = horizon.rayDistance(from: corners[i + near], along: edges[i].direction), t >= 0 {
                farDistance = max(farDistance, t)
            } else {
                farDistance = max(farDistance, edges[i].length)
            }
        }
        // The near plane through the near face's corners (its distance from the first of them).
        let normal = (corners[nearFace[0]] - corners[nearFace[1]]).cross(corners[nearFace[2]] - corners[nearFace[1]]).normalized
        let nearPlane = Plane(normal, -normal.dot(corners[nearFace[0]]))
        // The horizon circle's point farthest along the near plane's normal.
        let horizonLength = horizon.normal.length
        let unitNormal = Vector3(horizon.normal.x / horizonLength, horizon.normal.y / horizonLength, horizon.normal.z / horizonLength)
        let unitD = horizon.d / horizonLength
        let tangent = nearPlane.normal - unitNormal * (nearPlane.normal.dot(unitNormal))
        let tangentLength = tangent.length
        if tangentLength > 0 {
            let radius = (1 - unitD * unitD).squareRoot()
            let farPoint = unitNormal * -unitD + tangent * (radius / tangentLength)
            farDistance = min(farDistance, nearPlane.distance(to: farPoint) / edges[0].direction.dot(nearPlane.normal))
        }
        for i in 0..<4 {
            corners[i + far] = corners[i + near] + edges[i].direction * min(farDistance, edges[i].length)
        }
    }
}
