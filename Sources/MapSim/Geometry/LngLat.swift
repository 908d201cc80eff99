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

    public var description: String { "\(longitude),\(latitude)" }
}

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
    public static let world = LngLatBounds(west: -180, south: -WebMercator.maximumLatitude, east: 180, north: WebMercator.maximumLatitude)

    /// Whether the canonical tile `id` overlaps these bounds (touching edges do not count).
    public func intersects(_ id: CanonicalTileID) -> Bool {
        let tiles = Double(1 << id.z)
        let minX = WebMercator.x(longitude: west) * tiles
        let maxX = WebMercator.x(longitude: east) * tiles
        let minY = WebMercator.y(latitude: north) * tiles
        let maxY = WebMercator.y(latitude: south) * tiles
        let x = Double(id.x)
        let y = Double(id.y)
        return x + 1 > minX && x < maxX && y + 1 > minY && y < maxY
    }
}
