/// A geographic position in degrees: longitude east of Greenwich, latitude north of the equator.
public struct LngLat: Sendable, Hashable, CustomStringConvertible {
    /// Degrees east, usually in -180...180.
    public var longitude: Double
    /// Degrees north, in -90...90.
    public var latitude: Double

    /// A position at `longitude`, `latitude` degrees.
    public init(longitude: Double, latitude: Double) {
        self.longitude = longitude
        self.latitude = latitude
    }

    /// The latitude at which the square world of web mercator ends, about 85.0511°: the edge of every tile set.
    public static let maximumMercatorLatitude = 85.051128779806604

    public var description: String { "\(longitude),\(latitude)" }
}
