import Foundation

/// A point or direction in 3-D, as gl-matrix's `vec3`: each operation evaluates in the order
/// gl-matrix (and so MapLibre GL JS) does, so that covers agree with GL JS to the last bit.
struct Vector3: Sendable, Hashable {
    var x: Double
    var y: Double
    var z: Double

    init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }

    /// The dot product.
    func dot(_ b: Vector3) -> Double { x * b.x + y * b.y + z * b.z }

    /// The cross product `self × b`.
    func cross(_ b: Vector3) -> Vector3 { Vector3(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x) }

    /// The Euclidean length.
    var length: Double { (x * x + y * y + z * z).squareRoot() }

    /// This direction with length 1; the zero vector stays zero.
    var normalized: Vector3 {
        var s = x * x + y * y + z * z
        if s > 0 { s = 1 / s.squareRoot() }
        return self * s
    }

    /// Rotated about the x axis through the origin by `angle` radians.
    func rotatedX(_ angle: Double) -> Vector3 {
        let (c, s) = (cos(angle), sin(angle))
        return Vector3(x, y * c - z * s, y * s + z * c)
    }

    /// Rotated about the y axis through the origin by `angle` radians.
    func rotatedY(_ angle: Double) -> Vector3 {
        let (c, s) = (cos(angle), sin(angle))
        return Vector3(z * s + x * c, y, z * c - x * s)
    }

    /// Rotated about the z axis through the origin by `angle` radians.
    func rotatedZ(_ angle: Double) -> Vector3 {
        let (c, s) = (cos(angle), sin(angle))
        return Vector3(x * c - y * s, x * s + y * c, z)
    }
}
