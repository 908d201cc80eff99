/// What `CoveringTiles` asks of a projection's transform: the camera's frustum, the horizon plane
/// (the globe's), the Mercator point below the camera, and the projection's details provider.
protocol CoverTransform: Sendable {
    associatedtype Details: CoverDetailsProvider
    /// The view's numbers.
    var camera: CoverCamera { get }
    /// The projection's rules for tiles.
    var details: Details { get }
    /// The camera's view volume.
    var frustum: Frustum { get }
    /// A plane no visible tile is wholly behind (the globe's horizon); nil in Mercator.
    var horizon: Plane? { get }
    /// The Mercator point below the camera (`cameraMercatorCoordinate`), z the camera's height.
    var cameraPoint: Vector3 { get }
}

/// A projection's rules for the tiles of a cover (GL JS's `CoveringTilesDetailsProvider`): each
/// tile's bounding volume, its distance from the camera, its world copy, and whether tiles may take
/// different zooms.
protocol CoverDetailsProvider: Sendable {
    associatedtype Volume: TileVolume
    /// Whether world copies (wraps ±1...±3) are traversed.
    var allowsWorldCopies: Bool { get }
    /// Whether each tile's zoom follows its distance (`allowVariableZoom`), for a source covered at
    /// `coveringZoom`.
    func allowsVariableZoom(camera: CoverCamera, coveringZoom: Int, terrain: CoverTerrain?) -> Bool
    /// The bounding volume of tile `z/x/y` in world copy `wrap`.
    func volume(z: Int, x: Int, y: Int, wrap: Int, elevation: Double, terrain: CoverTerrain?) -> Volume
    /// The distance from the camera's ground point `(x, y)` to tile `z/x/y`, in world fractions.
    func distance(fromX x: Double, y: Double, toTileZ z: Int, x tileX: Int, y tileY: Int, volume: Volume) -> Double
    /// The world copy a tile is reported in, given the centre.
    func wrap(center: Vector3, z: Int, x: Int, wrap: Int) -> Int
}
