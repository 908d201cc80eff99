/// A box given by its corner points and its six face planes (GL JS's `OrientedBoundingBox`): a
/// globe tile's volume on the unit sphere. A tile touching a pole has six points, not eight.
struct OrientedBox: TileVolume {
    var points: [Vector3]
    var corners: [Vector3] { points }
    var planes: [Plane]

    /// The box from `min` to `max` along the axes, in GL JS's corner and face order.
    init(min: Vector3, max: Vector3) {
        points = (0..<8).map { i in
            Vector3(i & 1 == 0 ? min.x : max.x, (i >> 1) & 1 == 1 ? max.y : min.y, (i >> 2) & 1 == 1 ? max.z : min.z)
        }
        planes = [Plane(Vector3(-1, 0, 0), max.x), Plane(Vector3(1, 0, 0), -min.x), Plane(Vector3(0, -1, 0), max.y),
                  Plane(Vector3(0, 1, 0), -min.y), Plane(Vector3(0, 0, -1), max.z), Plane(Vector3(0, 0, 1), -min.z)]
    }

    /// The box with these corner points and face planes.
    init(points: [Vector3], planes: [Plane]) {
        self.points = points
        self.planes = planes
    }

    /// Outside when one frustum plane has no corner inside; inside when every plane has all of
    /// them; else outside when one face of the box has no frustum corner on its inside.
    func intersection(with frustum: Frustum) -> VolumeIntersection {
        var fullyInside = true
        for plane in frustum.planes {
            let count = insideCount(of: plane)
            if count == 0 { return .outside }
            if count < points.count { fullyInside = false }
        }
        if fullyInside { return .inside }
        for face in planes where !frustum.points.contains(where: { face.distance(to: $0) >= 0 }) {
            return .outside
        }
        return .partial
    }

    /// Inside when every corner is, outside when none is.
    func intersection(with plane: Plane) -> VolumeIntersection {
        let count = insideCount(of: plane)
        return count == points.count ? .inside : (count == 0 ? .outside : .partial)
    }

    private func insideCount(of plane: Plane) -> Int {
        points.reduce(0) { $0 + (plane.distance(to: $1) >= 0 ? 1 : 0) }
    }
}
