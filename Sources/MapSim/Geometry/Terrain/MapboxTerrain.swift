/// What Mapbox GL JS 3.0.1's 3D terrain tells its covers (`Terrain` as its `coveringTiles` reads
/// it), in place of MapLibre's rules in `CoverTerrain`.
///
/// - The DEM source is covered with four times its tile size (its tile size over the 128-cell grid,
///   times the 512 px of the terrain's proxy tiles), the zoom floored, every tile's volume spanning
///   ±10,000 m times the exaggeration, from the camera as it stood before this frame sampled the centre.
/// - Other sources' tiles are bounded by the quadtree of the nearest DEM tile loaded at their zoom or
///   below (`MapboxDEMTree`), times the exaggeration; a tile with none takes its parent's bounds to
///   decide whether it splits, and, when it does not, the centre's altitude alone.
/// - The centre's altitude is sampled once, from the first DEM tile that covers it, and raises the camera.
struct MapboxTerrain: Sendable, Hashable {
    /// How much heights are multiplied by.
    var exaggeration: Double
    /// The DEM source's minzoom...maxzoom.
    var demZoomRange: ClosedRange<Int>
    /// The quadtrees of the DEM tiles the terrain reads (the DEM source's tiles in use).
    var trees: [CanonicalTileID: MapboxDEMTree]
    /// The centre's altitude (exaggerated metres) the DEM cover of this frame sees: the one before
    /// this frame sampled it.
    var demCoverAltitude: Double
    /// The centre's altitude the other covers see, 0 until it is sampled.
    var centerAltitude: Double
    /// The average elevation of the ground in view the fog measures from, 0 until it is sampled.
    var averageElevation = 0.0
    /// The average elevation the DEM cover of this frame sees: the one before this frame sampled it.
    var demCoverAverageElevation = 0.0

    /// How much larger than the DEM source's tiles the tiles of its cover are.
    static let demTileScale = 4
    /// The half-height in metres, before exaggeration, of a DEM tile's volume in its cover.
    static let demVolumeHalfHeight = 10_000.0
    /// How far below the lowest height loaded the volumes reach, when that is below sea level.
    static let belowSeaLevelMargin = 30.0

    /// The DEM tile read for tile `z/x/y` (`findDEMTileFor`): the one of the same tile, else its
    /// nearest ancestor read, from the DEM maxzoom down to its minzoom; nil when none.
    func demTile(z: Int, x: Int, y: Int) -> CanonicalTileID? {
        var zoom = min(z, demZoomRange.upperBound)
        while zoom >= max(demZoomRange.lowerBound, 0) {
            let candidate = CanonicalTileID(z: zoom, x: x >> (z - zoom), y: y >> (z - zoom))
            if trees[candidate] != nil { return candidate }
            zoom -= 1
        }
        return nil
    }

    /// The exaggerated lowest...highest height under tile `z/x/y`, nil when no DEM tile is read for it.
    func elevationRange(z: Int, x: Int, y: Int) -> ClosedRange<Double>? {
        guard let id = demTile(z: z, x: x, y: y), let tree = trees[id] else { return nil }
        let range = tree.range(levels: z - id.z, x: x, y: y)
        let (low, high) = (range.lowerBound * exaggeration, range.upperBound * exaggeration)
        return min(low, high)...max(low, high)
    }

    /// The lowest elevation the volumes reach (`getMinElevationBelowMSL`): 0, or 30 m below the
    /// lowest height read when that is below sea level, exaggerated.
    var lowestElevation: Double {
        let lowest = min(0, trees.values.map(\.minimum).min() ?? 0)
        return lowest == 0 ? 0 : (lowest - Self.belowSeaLevelMargin) * exaggeration
    }

    /// The z-range of the root tiles of a cover: ±10,000 m exaggerated for the DEM's own, else from
    /// the lowest elevation to the centre's altitude.
    func rootRange(demCover: Bool) -> ClosedRange<Double> {
        if demCover {
            let half = Self.demVolumeHalfHeight * exaggeration
            return min(-half, half)...max(-half, half)
        }
        return min(lowestElevation, centerAltitude)...max(lowestElevation, centerAltitude)
    }
}
