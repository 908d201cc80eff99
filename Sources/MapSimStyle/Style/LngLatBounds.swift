/// A geographic rectangle given by its west, south, east and north edges in degrees.
public struct LngLatBounds: Sendable, Hashable {
    /// The western edge.
    public var west: Double
    /// The southern edge.
    public var south: Double
    /// The eastern edge.
    public var east: Double
    /// The northern edge.
    public var north: Double

    /// A rectangle with these edges.
    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// The whole world as tile sets declare it by default.
    public static let world = LngLatBounds(west: -180, south: -LngLat.maximumMercatorLatitude, east: 180, north: LngLat.maximumMercatorLatitude)
}
