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

    /// The largest pitch the simulated map accepts, as in MapLibre Native.
    public static let maximumPitch = Style.maximumPitch
    /// The largest zoom the simulated map accepts.
    public static let maximumZoom = Style.maximumZoom

    /// A camera; zoom is clamped to 0...25.5 and pitch to 0...60, bearing is normalized to -180..<180,
    /// latitude clamped to -90...90; values that are not finite count as 0.
    public init(center: LngLat, zoom: Double, bearing: Double = 0, pitch: Double = 0) {
        func finite(_ value: Double) -> Double { value.isFinite ? value : 0 }
        self.center = LngLat(longitude: finite(center.longitude), latitude: min(max(finite(center.latitude), -90), 90))
        self.zoom = min(max(finite(zoom), 0), Self.maximumZoom)
        var b = finite(bearing).truncatingRemainder(dividingBy: 360)
        if b >= 180 { b -= 360 }
        if b < -180 { b += 360 }
        self.bearing = b
        self.pitch = min(max(finite(pitch), 0), Self.maximumPitch)
    }
}
