/// A plane `normal·p + d = 0`, as GL JS keeps one in a `vec4`; the side the normal points to is
/// the inside.
struct Plane: Sendable, Hashable {
    var normal: Vector3
    var d: Double

    init(_ normal: Vector3, _ d: Double) {
        self.normal = normal
        self.d = d
    }

    /// The plane through three points, facing along `(p0 − p1) × (p2 − p1)`.
    init(through p0: Vector3, _ p1: Vector3, _ p2: Vector3) {
        let n = (p0 - p1).cross(p2 - p1).normalized
        self.init(n, -n.dot(p1))
    }

    /// The signed distance of `point` (in units of the normal's length).
    func distance(to point: Vector3) -> Double {
        normal.x * point.x + normal.y * point.y + normal.z * point.z + d
    }

    /// How far along `direction` from `origin` the plane lies; nil when the ray is parallel to it.
    func rayDistance(from origin: Vector3, along direction: Vector3) -> Double? {
        let facing = direction.dot(normal)
        guard facing != 0 else { return nil }
        return (-origin.dot(normal) - d) / facing
    }

    /// The point where three planes meet; nil when two are parallel.
    static func intersection(_ p1: Plane, _ p2: Plane, _ p3: Plane) -> Vector3? {
        let (a, b, c) = (p1.normal, p2.normal, p3.normal)
        let determinant = a.x * (c.z * b.y - b.z * c.y) + a.y * (-c.z * b.x + b.z * c.x) + a.z * (c.y * b.x - b.y * c.x)
        guard determinant != 0 else { return nil }
        let sum = b.cross(c) * -p1.d + c.cross(a) * -p2.d + a.cross(b) * -p3.d
        return sum * (1 / determinant)
    }
}
