import MapSimStyle

/// Where the map looks: centre, zoom, bearing (degrees clockwise from north) and pitch (degrees from
/// looking straight down).
public struct Camera: Sendable, Hashable {
    /// The geographic centre of the view.
    public var center: LngLat
    /// The zoom level; the world is 512·2^zoom pixels wide.
    public var zoom: Double
    /// Degrees clockwise from north of the view's up direction.
    public var bearing: Double
    /// Degrees of tilt away from looking straight down, 0...maximumPitch.
    public var pitch: Double
    /// The largest pitch this camera takes (the map's `maxPitch`): `Camera.maximumPitch` unless
    /// asked for more, at most `Camera.steepestPitch`.
    public var maximumPitch: Double

    /// The largest pitch the simulated map accepts unless asked for more, as in MapLibre Native and
    /// GL JS's default `maxPitch`.
    public static let maximumPitch = Style.maximumPitch
    /// The steepest pitch a camera may be allowed: 85°, the `maxPitch` MapLibre GL JS's covers were
    /// recorded with (GL JS accepts up to 180, and draws nothing sensible past the horizon).
    public static let steepestPitch = 85.0
    /// The largest zoom the simulated map accepts.
    public static let maximumZoom = Style.maximumZoom

    /// A camera; zoom is clamped to 0...25.5 and pitch to 0...`maximumPitch` (60 unless a larger one,
    /// at most `steepestPitch`, is given), bearing is normalized to -180..<180, latitude clamped to
    /// -90...90; values that are not finite count as 0.
    public init(center: LngLat, zoom: Double, bearing: Double = 0, pitch: Double = 0, maximumPitch: Double = Camera.maximumPitch) {
        func finite(_ value: Double) -> Double { value.isFinite ? value : 0 }
        self.center = LngLat(longitude: finite(center.longitude), latitude: min(max(finite(center.latitude), -90), 90))
        self.zoom = min(max(finite(zoom), 0), Self.maximumZoom)
        var b = finite(bearing).truncatingRemainder(dividingBy: 360)
        if b >= 180 { b -= 360 }
        if b < -180 { b += 360 }
        self.bearing = b
        self.maximumPitch = min(max(finite(maximumPitch), 0), Self.steepestPitch)
        self.pitch = min(max(finite(pitch), 0), self.maximumPitch)
    }
}
