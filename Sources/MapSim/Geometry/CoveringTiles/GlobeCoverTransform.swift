import Foundation

/// GL JS's `VerticalPerspectiveTransform` as far as a cover needs it: the globe as the unit sphere,
/// its model-view-projection matrix, the horizon (clipping) plane, the frustum built from the
/// inverse matrix rounded to float32 — as GL JS's `mat4.clone` into a `Float32Array` leaves it, which
/// widens the frustum by up to a pixel — with its far face fitted to the horizon, and the Mercator
/// point below the camera.
struct GlobeCoverTransform: CoverTransform {
    let camera: CoverCamera
    let details = GlobeCoverDetails()
    let frustum: Frustum
    let horizon: Plane?
    let cameraPoint: Vector3

    init(camera: CoverCamera) {
        self.camera = camera
        let c = camera
        let latitude = GLJSMercator.radians(c.latitude)
        let longitude = GLJSMercator.radians(c.longitude)
        // The globe's radius in pixels: the scale at the centre equals Mercator's there.
        let radius = c.worldSize / (2 * Double.pi) / cos(latitude)
        let ctcd = c.cameraToCenterDistance
        let matrix = Matrix4.perspective(fieldOfView: c.fieldOfView, aspect: c.width / c.height, near: 0.5, far: ctcd + 2 * radius)
            .translated(0, 0, -ctcd)
            .rotatedX(-c.pitchRadians)
            .rotatedZ(c.bearingRadians)
            .translated(0, 0, -radius)
            .rotatedX(latitude)
            .rotatedY(-longitude)
            .scaled(radius, radius, radius)
        let inverse = matrix.inverted ?? .identity
        let position = (Vector3(0, 0, ctcd / radius).rotatedX(c.pitchRadians).rotatedZ(-c.bearingRadians) + Vector3(0, 0, 1))
            .rotatedX(-latitude).rotatedY(longitude)
        let plane = Self.clippingPlane(camera: c, radius: radius)
        horizon = plane
        frustum = Frustum(inverseProjection: inverse.roundedToFloat32.scaled(1, 1, -1), worldSize: 1, horizon: plane, flipped: true)
        let ground = Self.unproject(c.cameraScreenPoint, camera: c, inverse: inverse, position: position, horizon: plane)
        cameraPoint = Vector3(ground.x, ground.y, c.centerPoint.z + c.cameraHeight)
    }

    /// `_computeClippingPlane`: a surface point p is in front of the horizon when n·p ≥ 1/|camera|.
    private static func clippingPlane(camera c: CoverCamera, radius: Double) -> Plane {
        let o = c.cameraToCenterDistance / radius
        let a = sin(c.pitchRadians) * o
        let b = cos(c.pitchRadians) * o + 1
        let s = 1 / (a * a + b * b).squareRoot()
        let (n, l) = (-a, b)
        let length = (n * n + l * l).squareRoot()
        let normal = Vector3(0, n / length, l / length)
            .rotatedZ(-c.bearingRadians).rotatedX(-GLJSMercator.radians(c.latitude)).rotatedY(GLJSMercator.radians(c.longitude))
        let u = 1 / normal.length
        return Plane(normal * u, -s * u)
    }

    /// The Mercator point (x, y) of a screen point on the globe: where the ray from the camera
    /// meets the sphere, or, when it misses, the horizon point nearest to where it meets the
    /// horizon plane (or to its point 2 units out, projected onto that plane).
    private static func unproject(_ point: (x: Double, y: Double), camera c: CoverCamera, inverse: Matrix4, position: Vector3,
                                  horizon plane: Plane) -> (x: Double, y: Double) {
        let v = inverse.transform(point.x / c.width * 2 - 1, -1 * (point.y / c.height * 2 - 1), 1, 1)
        let direction = (Vector3(v.x / v.w, v.y / v.w, v.z / v.w) - position).normalized
        let o = position.dot(direction)
        let closest = position - direction * o
        let discriminant = 1 - closest.dot(closest)
        let surface: Vector3
        if discriminant >= 0 {
            let n = position.dot(position) - 1
            let l = -o + (o < 0 ? 1 : -1) * discriminant.squareRoot()
            surface = (position + direction * min(n / l, l)).normalized
        } else {
            let s = plane.normal.dot(direction)
            let t = -plane.distance(to: position) / s
            let onPlane: Vector3
            if t > 0 {
                onPlane = position + direction * t
            } else {
                let e = position + direction * 2
                onPlane = e - plane.normal * plane.distance(to: e)
            }
            let center = plane.normal * -plane.d
            let circleRadius = (1 - plane.d * plane.d).squareRoot()
            let offset = onPlane - center
            surface = center + offset * (circleRadius / offset.length)
        }
        let latitude = asin(surface.y) / Double.pi * 180
        let q = (surface.x * surface.x + surface.z * surface.z).squareRoot()
        var longitude = 0.0
        if q > 1e-6 {
            let angle = acos(surface.z / q)
            longitude = (surface.x / q > 0 ? angle : -angle) / Double.pi * 180
        }
        return (GLJSMercator.x(longitude: longitude), GLJSMercator.y(latitude: latitude))
    }
}
