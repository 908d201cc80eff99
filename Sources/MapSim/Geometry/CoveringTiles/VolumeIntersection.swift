/// How a bounding volume lies against a frustum or a plane (GL JS's `IntersectionResult`).
enum VolumeIntersection: Int, Sendable {
    /// Wholly outside.
    case outside = 0
    /// Partly inside: the children of a tile must be tested again.
    case partial = 1
    /// Wholly inside: the children of a tile need no test.
    case inside = 2
}

/// A tile's bounding volume, as a details provider builds it: tested against the camera's frustum
/// and the globe's horizon plane.
protocol TileVolume: Sendable {
    /// Its corner points.
    var corners: [Vector3] { get }
    /// How the volume lies against `frustum`.
    func intersection(with frustum: Frustum) -> VolumeIntersection
    /// How the volume lies against `plane`: inside is the side its normal points to.
    func intersection(with plane: Plane) -> VolumeIntersection
}
