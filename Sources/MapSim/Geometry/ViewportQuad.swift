import Foundation

/// The four corners of the view projected onto the ground, in world fractions (0...1 is one world),
/// with bearing and pitch applied, as the camera of MapLibre Native sees it; a view that reaches
/// past the horizon ends at it.
public struct ViewportQuad: Sendable, Equatable {
    /// Corners in the order top-left, top-right, bottom-right, bottom-left (screen order).
    public var corners: [(x: Double, y: Double)]
    /// The view's centre in world fractions.
    public var center: (x: Double, y: Double)

    /// The vertical field of view of MapLibre Native, in radians (2·atan(1/3), about 36.87°).
    public static let fieldOfView = 2 * atan(1.0 / 3.0)

    /// The quad seen by `camera` through `viewport`.
    public init(camera: Camera, viewport: Viewport) {
        let worldPixels = 512 * pow(2, camera.zoom)
        let centerX = WebMercator.x(longitude: camera.center.longitude)
        let centerY = WebMercator.y(latitude: camera.center.latitude)
        let halfWidth = Double(viewport.width) / 2
        let halfHeight = Double(viewport.height) / 2
        let distance = halfHeight / tan(Self.fieldOfView / 2)
        let pitch = camera.pitch * .pi / 180
        let bearing = camera.bearing * .pi / 180
        let screenOffsets = [(-halfWidth, -halfHeight), (halfWidth, -halfHeight), (halfWidth, halfHeight), (-halfWidth, halfHeight)]
        // A ray past the horizon meets no ground: above the row seen at GL JS's steepest angle
        // from straight down (89.25°; a pitch past 71.6° at this field of view) the view is
        // clamped to that row, so the quad ends there instead of turning behind the camera.
        let steepest = MercatorCoverTransform.maximumHorizonAngle * .pi / 180
        let highestRow = -distance * tan(steepest - pitch)
        corners = screenOffsets.map { dx, rawDY in
            let dy = max(rawDY, highestRow)
            // Ray from the camera through the screen point, in a frame with x to the right,
            // y forward along the ground and z up; the camera looks at the origin.
            let cameraY = -distance * sin(pitch)
            let cameraZ = distance * cos(pitch)
            let rayY = distance * sin(pitch) - dy * cos(pitch)
            let rayZ = -distance * cos(pitch) - dy * sin(pitch)
            let t = cameraZ / -rayZ
            let groundX = t * dx
            let groundY = cameraY + t * rayY
            // Rotate the ground offset by the bearing; world y grows south.
            let east = groundX * cos(bearing) + groundY * sin(bearing)
            let south = groundX * sin(bearing) - groundY * cos(bearing)
            return (centerX + east / worldPixels, centerY + south / worldPixels)
        }
        center = (centerX, centerY)
    }

    public static func == (lhs: ViewportQuad, rhs: ViewportQuad) -> Bool {
        lhs.center == rhs.center && lhs.corners.count == rhs.corners.count
            && zip(lhs.corners, rhs.corners).allSatisfy { $0 == $1 }
    }
}
