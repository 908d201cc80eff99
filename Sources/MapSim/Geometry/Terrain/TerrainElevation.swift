import Foundation
import MapSimStyle

/// The heights 3D terrain knows: the DEM tiles of the terrain source loaded so far, and what GL JS
/// reads of them for a cover (`CoverTerrain`) — each loaded tile's lowest and highest height, the
/// elevation under the camera's centre and the lowest elevation of the tile under it.
public struct TerrainElevation: Sendable {
    /// How much heights are multiplied by.
    public var exaggeration: Double
    /// The terrain source's minzoom...maxzoom.
    public var demZoomRange: ClosedRange<Int>
    /// The DEM tiles loaded.
    public private(set) var tiles: [CanonicalTileID: DEMTile] = [:]

    /// A tile's extent in GL JS's tile units.
    private static let extent = 8192.0

    /// Terrain with no DEM tile loaded yet.
    public init(exaggeration: Double = 1, demZoomRange: ClosedRange<Int> = 0...22) {
        self.exaggeration = exaggeration
        self.demZoomRange = demZoomRange
    }

    /// Adds a loaded DEM tile.
    public mutating func add(_ tile: DEMTile, at id: CanonicalTileID) {
        tiles[id] = tile
    }

    /// What a cover of `camera`'s view reads: the loaded tiles' heights, and the centre's elevation
    /// and minimum elevation at the camera's tile zoom (its zoom floored), as GL JS sets them on the
    /// transform after each frame's covers (`centerClampedToGround`).
    public func coverTerrain(for camera: Camera) -> CoverTerrain {
        var terrain = CoverTerrain(exaggeration: exaggeration, demZoomRange: demZoomRange,
                                   demTileHeights: tiles.mapValues { $0.minimum...$0.maximum })
        let tileZoom = max(0, Int(floor(camera.zoom)))
        terrain.elevation = elevation(at: camera.center, tileZoom: tileZoom, terrain: terrain)
        terrain.minimumElevation = minimumElevation(at: camera.center, tileZoom: tileZoom, terrain: terrain)
        return terrain
    }

    /// The exaggerated elevation at `location` (`getElevationForLngLatZoom`): bilinear between the
    /// four pixels around it of the DEM tile for the zoom-`tileZoom` tile holding it, pixel (u, v) at
    /// (u/dim, v/dim) of the tile; 0 when no DEM tile for it is loaded.
    func elevation(at location: LngLat, tileZoom: Int, terrain: CoverTerrain) -> Double {
        elevation(at: location, tileZoom: tileZoom) { terrain.demTile(forTileZ: tileZoom, x: $0, y: $1) } ?? 0
    }

    /// The exaggerated elevation at `location` as Mapbox GL JS 3.0.1 samples the centre
    /// (`getAtPoint`): in the DEM tile read for the DEM maxzoom's tile holding it; nil when none is.
    func mapboxElevation(at location: LngLat, terrain: MapboxTerrain) -> Double? {
        let zoom = terrain.demZoomRange.upperBound
        return elevation(at: location, tileZoom: zoom) { terrain.demTile(z: zoom, x: $0, y: $1) }
    }

    /// The exaggerated elevation at `location` in the DEM tile `demTile` picks for the zoom-`tileZoom`
    /// tile (x, y) holding it; nil when it picks none.
    private func elevation(at location: LngLat, tileZoom: Int, demTile: (Int, Int) -> CanonicalTileID?) -> Double? {
        guard let (x, y, position) = tilePosition(of: location, zoom: tileZoom),
              let id = demTile(x, y), let dem = tiles[id] else { return nil }
        let levels = tileZoom - id.z
        let offsetX = Double(x - ((x >> levels) << levels))
        let offsetY = Double(y - ((y >> levels) << levels))
        let scale = Self.extent * Double(1 << levels)
        let fractionX = (position.x + offsetX * Self.extent) / scale
        let fractionY = (position.y + offsetY * Self.extent) / scale
        let hx = fractionX * Double(dem.dimension)
        let hy = fractionY * Double(dem.dimension)
        let (u, v) = (floor(hx), floor(hy))
        let (fx, fy) = (hx - u, hy - v)
        let (i, j) = (Int(u), Int(v))
        let e = height(id, i, j) * (1 - fx) * (1 - fy) + height(id, i + 1, j) * fx * (1 - fy)
            + height(id, i, j + 1) * (1 - fx) * fy + height(id, i + 1, j + 1) * fx * fy
        return e * exaggeration
    }

    /// The exaggerated lowest elevation of the zoom-`tileZoom` tile holding `location`
    /// (`getMinTileElevationForLngLatZoom`); 0 when no DEM tile for it is loaded.
    func minimumElevation(at location: LngLat, tileZoom: Int, terrain: CoverTerrain) -> Double {
        guard let (x, y, _) = tilePosition(of: location, zoom: tileZoom) else { return 0 }
        return terrain.elevationRange(forTileZ: tileZoom, x: x, y: y)?.lowerBound ?? 0
    }

    /// The zoom-`zoom` tile holding `location` (its longitude wrapped into -180...180), and the position within it in
    /// tile units; nil off the Mercator world's top or bottom.
    private func tilePosition(of location: LngLat, zoom: Int) -> (x: Int, y: Int, position: (x: Double, y: Double))? {
        var longitude = location.longitude
        if !(-180...180).contains(longitude) {
            longitude = (longitude + 180).truncatingRemainder(dividingBy: 360)
            if longitude < 0 { longitude += 360 }
            longitude -= 180
        }
        let n = Double(1 << zoom)
        let mx = GLJSMercator.x(longitude: longitude) * n * Self.extent
        let my = GLJSMercator.y(latitude: location.latitude) * n * Self.extent
        let (x, y) = (floor(mx / Self.extent), floor(my / Self.extent))
        guard x >= 0, x < n, y >= 0, y < n else { return nil }
        func modulo(_ value: Double) -> Double {
            let r = value.truncatingRemainder(dividingBy: Self.extent)
            return r < 0 ? r + Self.extent : r
        }
        return (Int(x), Int(y), (modulo(mx), modulo(my)))
    }

    /// The height of pixel (i, j) of DEM tile `id`, a pixel past its edge taken from the loaded
    /// neighbour there (as GL JS backfills a tile's border), else from the tile's own edge.
    private func height(_ id: CanonicalTileID, _ i: Int, _ j: Int) -> Double {
        let dem = tiles[id]!
        let d = dem.dimension
        let n = 1 << id.z
        var (tx, ty, ii, jj) = (id.x, id.y, i, j)
        if i < 0 { (tx, ii) = (id.x - 1, d - 1) }
        if i >= d { (tx, ii) = (id.x + 1, 0) }
        if j < 0 { (ty, jj) = (id.y - 1, d - 1) }
        if j >= d { (ty, jj) = (id.y + 1, 0) }
        if (tx, ty) != (id.x, id.y) {
            let wrappedX = ((tx % n) + n) % n
            if ty >= 0, ty < n, let neighbour = tiles[CanonicalTileID(z: id.z, x: wrappedX, y: ty)] {
                let last = neighbour.dimension - 1
                return neighbour.height(x: min(max(ii, 0), last), y: min(max(jj, 0), last))
            }
        }
        return dem.height(x: min(max(i, 0), d - 1), y: min(max(j, 0), d - 1))
    }
}
