/// What 3D terrain tells a cover (GL JS's `Terrain` as `coveringTiles` reads it): the loaded DEM tiles'
/// heights, the exaggeration, and where the camera's centre sits.
///
/// A tile's bounding volume spans the lowest to the highest height of the DEM tile one zoom above it
/// (`deltaZoom` 1; at most the DEM source's maxzoom), or of its nearest loaded ancestor down to the
/// DEM source's minzoom, times the exaggeration. With none loaded, the volume spans 0 to the centre's
/// elevation.
public struct CoverTerrain: Sendable, Hashable {
    /// How many zooms above a tile its DEM tile is (GL JS's `TerrainTileManager.deltaZoom`).
    public static let demZoomOffset = 1

    /// How much the DEM's heights are multiplied by (the style's `terrain.exaggeration`).
    public var exaggeration: Double
    /// The terrain source's minzoom...maxzoom.
    public var demZoomRange: ClosedRange<Int>
    /// The lowest...highest height, in metres as decoded (not exaggerated), of every DEM tile loaded.
    public var demTileHeights: [CanonicalTileID: ClosedRange<Double>]
    /// The elevation of the camera's centre, exaggerated (`transform.elevation`).
    public var elevation: Double
    /// The lowest elevation of the tile under the centre, exaggerated
    /// (`transform.minElevationForCurrentTile`): it moves the far plane.
    public var minimumElevation: Double
    /// Mapbox GL JS's terrain, read by its walk in place of the rules above; nil for MapLibre's.
    var mapbox: MapboxTerrain?

    /// Terrain over these loaded DEM tiles.
    public init(exaggeration: Double = 1, demZoomRange: ClosedRange<Int> = 0...22, demTileHeights: [CanonicalTileID: ClosedRange<Double>] = [:],
                elevation: Double = 0, minimumElevation: Double = 0) {
        self.exaggeration = exaggeration
        self.demZoomRange = demZoomRange
        self.demTileHeights = demTileHeights
        self.elevation = elevation
        self.minimumElevation = minimumElevation
    }

    /// The loaded DEM tile whose heights stand for tile `z/x/y` (`TerrainTileManager.getSourceTile`
    /// with its search of ancestors): the one `demZoomOffset` zooms above, at most the DEM maxzoom,
    /// else its nearest loaded ancestor; nil when none is loaded at or above the DEM minzoom.
    public func demTile(forTileZ z: Int, x: Int, y: Int) -> CanonicalTileID? {
        var zoom = min(z - Self.demZoomOffset, demZoomRange.upperBound)
        while zoom >= max(demZoomRange.lowerBound, 0) {
            let candidate = CanonicalTileID(z: zoom, x: x >> (z - zoom), y: y >> (z - zoom))
            if demTileHeights[candidate] != nil { return candidate }
            zoom -= 1
        }
        return nil
    }

    /// The exaggerated lowest...highest height under tile `z/x/y` (`getMinMaxElevation`); nil
    /// when no DEM tile for it is loaded.
    public func elevationRange(forTileZ z: Int, x: Int, y: Int) -> ClosedRange<Double>? {
        guard let tile = demTile(forTileZ: z, x: x, y: y), let heights = demTileHeights[tile] else { return nil }
        let low = heights.lowerBound * exaggeration
        let high = heights.upperBound * exaggeration
        return min(low, high)...max(low, high)
    }

    /// The z-range of a tile's bounding volume: the terrain's range under it, else 0 to the centre's
    /// elevation; 0...0 without terrain.
    static func elevationRange(of terrain: CoverTerrain?, z: Int, x: Int, y: Int, elevation: Double) -> ClosedRange<Double> {
        guard let terrain else { return 0...0 }
        return terrain.elevationRange(forTileZ: z, x: x, y: y) ?? min(0, elevation)...max(0, elevation)
    }
}
