import Foundation

/// The camera as GL JS's transform holds it for a cover: the view's numbers that the Mercator and
/// globe transforms share — centre (latitude clamped to GL JS's ±85.051129), zoom, bearing (wrapped
/// to -180...180), pitch, the view's size, the centre's elevation and the lowest elevation of the
/// tile under it (both in exaggerated metres), the 36.87° field of view.
struct CoverCamera: Sendable {
    let longitude: Double
    let latitude: Double
    let zoom: Double
    let bearing: Double
    let pitch: Double
    let width: Double
    let height: Double
    let elevation: Double
    let minimumElevation: Double
    /// The vertical field of view in radians (GL JS's default, 2·atan(1/3)).
    let fieldOfView = 0.6435011087932844
    /// The size of the world in pixels at this zoom.
    let worldSize: Double
    /// The distance in pixels from the camera to the centre (`cameraToCenterDistance`).
    let cameraToCenterDistance: Double
    let pitchRadians: Double
    let bearingRadians: Double

    /// The transform's numbers for `camera` seen through `viewport`, the centre at `elevation`.
    init(camera: Camera, viewport: Viewport, elevation: Double = 0, minimumElevation: Double = 0) {
        longitude = camera.center.longitude
        latitude = min(max(camera.center.latitude, -GLJSMercator.maximumLatitude), GLJSMercator.maximumLatitude)
        zoom = camera.zoom
        var wrapped = (camera.bearing + 180).truncatingRemainder(dividingBy: 360)
        if wrapped < 0 { wrapped += 360 }
        wrapped -= 180
        bearing = wrapped == -180 ? 180 : wrapped
        pitch = camera.pitch
        width = Double(viewport.width)
        height = Double(viewport.height)
        self.elevation = elevation
        self.minimumElevation = minimumElevation
        worldSize = 512 * pow(2, zoom)
        cameraToCenterDistance = 0.5 / tan(fieldOfView / 2) * height
        pitchRadians = GLJSMercator.radians(pitch)
        bearingRadians = GLJSMercator.radians(bearing)
    }

    /// The field of view in degrees.
    var fieldOfViewDegrees: Double { fieldOfView / Double.pi * 180 }

    /// The centre as a Mercator coordinate, z its elevation.
    var centerPoint: Vector3 {
        Vector3(GLJSMercator.x(longitude: longitude), GLJSMercator.y(latitude: latitude), GLJSMercator.z(altitude: elevation, latitude: latitude))
    }

    /// The screen point straight below the camera (`(w/2, h/2 + tan(pitch)·ctcd)`).
    var cameraScreenPoint: (x: Double, y: Double) {
        (width / 2, height / 2 + tan(pitchRadians) * cameraToCenterDistance)
    }

    /// The camera's height above the centre as a Mercator z: added to the ground point below it.
    var cameraHeight: Double { cos(pitchRadians) * cameraToCenterDistance / worldSize }
}
