import Foundation

/// A 4×4 matrix as gl-matrix's `mat4`: 16 values, column-major, applied to column vectors. Each
/// operation is gl-matrix's, term for term, so that the frustums built from it are GL JS's.
struct Matrix4: Sendable, Hashable {
    var m: [Double]

    static let identity = Matrix4(m: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])

    /// `mat4.perspective`: a vertical field of view of `fieldOfView` radians, with a near and far plane.
    static func perspective(fieldOfView: Double, aspect: Double, near: Double, far: Double) -> Matrix4 {
        let f = 1 / tan(fieldOfView / 2)
        var m = [Double](repeating: 0, count: 16)
        m[0] = f / aspect
        m[5] = f
        m[11] = -1
        let nf = 1 / (near - far)
        m[10] = (far + near) * nf
        m[14] = 2 * far * near * nf
        return Matrix4(m: m)
    }

    /// `self · other` (`mat4.multiply(out, self, other)`).
    func multiplied(by other: Matrix4) -> Matrix4 {
        let a = m
        var out = [Double](repeating: 0, count: 16)
        for column in 0..<4 {
            let (b0, b1, b2, b3) = (other.m[column * 4], other.m[column * 4 + 1], other.m[column * 4 + 2], other.m[column * 4 + 3])
            for row in 0..<4 {
                out[column * 4 + row] = b0 * a[row] + b1 * a[4 + row] + b2 * a[8 + row] + b3 * a[12 + row]
            }
        }
        return Matrix4(m: out)
    }

    /// `mat4.translate`.
    func translated(_ x: Double, _ y: Double, _ z: Double) -> Matrix4 {
        var out = m
        for row in 0..<4 {
            out[12 + row] = m[row] * x + m[4 + row] * y + m[8 + row] * z + m[12 + row]
        }
        return Matrix4(m: out)
    }

    /// `mat4.scale`.
    func scaled(_ x: Double, _ y: Double, _ z: Double) -> Matrix4 {
        var out = m
        for row in 0..<4 {
            out[row] = m[row] * x
            out[4 + row] = m[4 + row] * y
            out[8 + row] = m[8 + row] * z
        }
        return Matrix4(m: out)
    }

    /// `mat4.rotateX` by `angle` radians.
    func rotatedX(_ angle: Double) -> Matrix4 { rotated(angle, first: 4, second: 8) }

    /// `mat4.rotateY` by `angle` radians.
    func rotatedY(_ angle: Double) -> Matrix4 {
        let (s, c) = (sin(angle), cos(angle))
        var out = m
        for row in 0..<4 {
            out[row] = m[row] * c - m[8 + row] * s
            out[8 + row] = m[row] * s + m[8 + row] * c
        }
        return Matrix4(m: out)
    }

    /// `mat4.rotateZ` by `angle` radians.
    func rotatedZ(_ angle: Double) -> Matrix4 { rotated(angle, first: 0, second: 4) }

    /// The rotation of rotateX and rotateZ: columns `first` and `second` turned into each other.
    private func rotated(_ angle: Double, first: Int, second: Int) -> Matrix4 {
        let (s, c) = (sin(angle), cos(angle))
        var out = m
        for row in 0..<4 {
            out[first + row] = m[first + row] * c + m[second + row] * s
            out[second + row] = m[second + row] * c - m[first + row] * s
        }
        return Matrix4(m: out)
    }

    /// `mat4.invert`; nil when the matrix is singular.
    var inverted: Matrix4? {
        let (a00, a01, a02, a03) = (m[0], m[1], m[2], m[3])
        let (a10, a11, a12, a13) = (m[4], m[5], m[6], m[7])
        let (a20, a21, a22, a23) = (m[8], m[9], m[10], m[11])
        let (a30, a31, a32, a33) = (m[12], m[13], m[14], m[15])
        let b00 = a00 * a11 - a01 * a10
        let b01 = a00 * a12 - a02 * a10
        let b02 = a00 * a13 - a03 * a10
        let b03 = a01 * a12 - a02 * a11
        let b04 = a01 * a13 - a03 * a11
        let b05 = a02 * a13 - a03 * a12
        let b06 = a20 * a31 - a21 * a30
        let b07 = a20 * a32 - a22 * a30
        let b08 = a20 * a33 - a23 * a30
        let b09 = a21 * a32 - a22 * a31
        let b10 = a21 * a33 - a23 * a31
        let b11 = a22 * a33 - a23 * a32
        let determinant = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06
        guard determinant != 0 else { return nil }
        let det = 1 / determinant
        return Matrix4(m: [
            (a11 * b11 - a12 * b10 + a13 * b09) * det,
            (a02 * b10 - a01 * b11 - a03 * b09) * det,
            (a31 * b05 - a32 * b04 + a33 * b03) * det,
            (a22 * b04 - a21 * b05 - a23 * b03) * det,
            (a12 * b08 - a10 * b11 - a13 * b07) * det,
            (a00 * b11 - a02 * b08 + a03 * b07) * det,
            (a32 * b02 - a30 * b05 - a33 * b01) * det,
            (a20 * b05 - a22 * b02 + a23 * b01) * det,
            (a10 * b10 - a11 * b08 + a13 * b06) * det,
            (a01 * b08 - a00 * b10 - a03 * b06) * det,
            (a30 * b04 - a31 * b02 + a33 * b00) * det,
            (a21 * b02 - a20 * b04 - a23 * b00) * det,
            (a11 * b07 - a10 * b09 - a12 * b06) * det,
            (a00 * b09 - a01 * b07 + a02 * b06) * det,
            (a31 * b01 - a30 * b03 - a32 * b00) * det,
            (a20 * b03 - a21 * b01 + a22 * b00) * det,
        ])
    }

    /// Every value rounded to the nearest `Float`: what `mat4.clone` into a `Float32Array` keeps.
    var roundedToFloat32: Matrix4 { Matrix4(m: m.map { Double(Float($0)) }) }

    /// `vec4.transformMat4`: the matrix applied to `(x, y, z, w)`.
    func transform(_ x: Double, _ y: Double, _ z: Double, _ w: Double) -> (x: Double, y: Double, z: Double, w: Double) {
        (m[0] * x + m[4] * y + m[8] * z + m[12] * w,
         m[1] * x + m[5] * y + m[9] * z + m[13] * w,
         m[2] * x + m[6] * y + m[10] * z + m[14] * w,
         m[3] * x + m[7] * y + m[11] * z + m[15] * w)
    }
}
