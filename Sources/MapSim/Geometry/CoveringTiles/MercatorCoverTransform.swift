import Foundation

/// GL JS's `MercatorTransform` as far as a cover needs it (`_calcMatrices`,
/// `_calculateNearFarZIfNeeded`, `getCameraFrustum`): the near and far planes, the view-projection
/// matrix with the centre's elevation, the frustum, and the ground point below the camera. World
/// units are pixels, z is metres.
struct MercatorCoverTransform: CoverTransform {
    let camera: CoverCamera
    let details = MercatorCoverDetails()
    let frustum: Frustum
    /// The view-projection matrix, from world pixels (z in metres, the camera raised by the centre's
    /// elevation) to clip space.
    let viewProjection: Matrix4
    let horizon: Plane? = nil
    let cameraPoint: Vector3

    /// The angle in degrees past which GL JS draws no more of the ground (`maxMercatorHorizonAngle`).
    static let maximumHorizonAngle = 89.25

    /// The transform of `camera` as the GL JS whose `walk` it is sets it up: they differ in the far
    /// plane only.
    init(camera: CoverCamera, walk: CoveringTiles.Walk = .maplibreGLJS) {
        self.camera = camera
        let c = camera
        let worldSize = c.worldSize
        let ctcd = c.cameraToCenterDistance
        let x = GLJSMercator.x(longitude: c.longitude) * worldSize
        let y = GLJSMercator.y(latitude: c.latitude) * worldSize
        let pixelsPerMetre = GLJSMercator.z(altitude: 1, latitude: c.latitude) * worldSize
        let horizonPitch = GLJSMercator.radians(min(c.pitch, Self.maximumHorizonAngle))
        let s = max(ctcd / 2, ctcd + c.elevation * pixelsPerMetre / cos(horizonPitch))
        // _calculateNearFarZIfNeeded, without padding or roll.
        let cameraAltitude = cos(c.pitchRadians) * ctcd / pixelsPerMetre + c.elevation
        let lowest = min(c.elevation, c.minimumElevation, cameraAltitude - 100)
        let distance = lowest < 0 ? s - lowest * pixelsPerMetre / cos(horizonPitch) : s
        let n = Double.pi / 2 + c.pitchRadians
        // GL JS's field of view weighed by the roll (none) and the centre's offset (none), in its order.
        let halfFieldOfView = c.fieldOfView * c.height / c.height * 0.5
        func clampedSin(_ angle: Double) -> Double { sin(min(max(Double.pi - n - angle, 0.01), Double.pi - 0.01)) }
        let bottomDistance = sin(halfFieldOfView) * distance / clampedSin(halfFieldOfView)
        let horizon = ctcd * min(0.85 * tan(GLJSMercator.radians(90 - c.pitch)), tan(GLJSMercator.radians(Self.maximumHorizonAngle - c.pitch)))
        let horizonAngle = atan(horizon / ctcd)
        let minimumAngle = GLJSMercator.radians(0.75)
        let topAngle = horizonAngle > minimumAngle ? 2 * horizonAngle * 0.5 : minimumAngle
        let topDistance = sin(topAngle) * distance / clampedSin(topAngle)
        let farZ = walk == .mapboxGLJS ? Self.mapboxFarZ(camera: c, pixelsPerMetre: pixelsPerMetre)
            : 1.01 * (cos(Double.pi / 2 - horizonPitch) * min(bottomDistance, topDistance) + distance)
        let nearZ = c.height / 50

        var matrix = Matrix4.perspective(fieldOfView: c.fieldOfView, aspect: c.width / c.height, near: nearZ, far: farZ)
            .scaled(1, -1, 1)
            .translated(0, 0, -ctcd)
            .rotatedX(c.pitchRadians)
            .rotatedZ(-c.bearingRadians)
            .translated(-x, -y, 0)
            .scaled(1, 1, pixelsPerMetre)
        let clipToPixels = Matrix4.identity.scaled(c.width / 2, -c.height / 2, 1).translated(1, -1, 0)
        let pixelMatrix = clipToPixels.multiplied(by: matrix)
        matrix = matrix.translated(0, 0, -c.elevation)
        viewProjection = matrix
        frustum = Frustum(inverseProjection: matrix.inverted ?? .identity, worldSize: worldSize)
        // cameraMercatorCoordinate: the point below the camera, unprojected onto the plane of the
        // pixel matrix (the centre's elevation).
        let ground = Self.unproject(c.cameraScreenPoint, inverse: pixelMatrix.inverted ?? .identity, worldSize: worldSize)
        cameraPoint = Vector3(ground.x, ground.y, c.centerPoint.z + c.cameraHeight)
    }

    /// Mapbox GL JS 3.0.1's far plane (`farthestPixelDistance` in Mercator): 1% past the ground
    /// point seen along the top of the view from the camera's altitude above the lowest ground, and
    /// no farther than ten times that altitude's slant distance (its horizon shift of 0.1) — farther
    /// than MapLibre's at steep pitches, which stops at the horizon it draws.
    private static func mapboxFarZ(camera c: CoverCamera, pixelsPerMetre: Double) -> Double {
        let aboveCenter = c.fieldOfView / 2
        let altitude = cos(c.pitchRadians) * c.cameraToCenterDistance + (c.elevation - min(0, c.minimumElevation)) * pixelsPerMetre
        let slant = altitude / cos(c.pitchRadians)
        let top = sin(aboveCenter) * slant / sin(max(Double.pi / 2 - c.pitchRadians - aboveCenter, 0.01))
        let horizonShift = 0.1
        return min(1.01 * (sin(c.pitchRadians) * top + slant), slant / horizonShift)
    }

    /// The world point (fractions) of a screen point on the plane z = 0 of the pixel matrix.
    private static func unproject(_ point: (x: Double, y: Double), inverse: Matrix4, worldSize: Double) -> (x: Double, y: Double) {
        let a = inverse.transform(point.x, point.y, 0, 1)
        let b = inverse.transform(point.x, point.y, 1, 1)
        let (za, zb) = (a.z / a.w, b.z / b.w)
        let t = za == zb ? 0 : (0 - za) / (zb - za)
        func lerp(_ p: Double, _ q: Double) -> Double { p * (1 - t) + q * t }
        return (lerp(a.x / a.w, b.x / b.w) / worldSize, lerp(a.y / a.w, b.y / b.w) / worldSize)
    }
}
