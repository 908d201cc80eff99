import MapSimStyle

extension CoveringTiles {
    /// The tiles the terrain's own DEM source needs (`TileManager.update` with `usedForTerrain`): its
    /// cover with twice its tile size and the zoom floored, then, for each tile above the source's
    /// minzoom, its parent and its ancestor at zoom 5 or its own when lower (at least the minzoom) —
    /// `_addTerrainIdealTiles` — each tile once, in that order.
    public static func terrainDEMTiles(camera: Camera, viewport: Viewport, projection: StyleProjection = .mercator, source: SourceOptions,
                                       terrain: CoverTerrain) -> [OverscaledTileID] {
        let cover = tiles(camera: camera, viewport: viewport, projection: projection, source: source.forTerrainDEM, terrain: terrain)
        var extra: [OverscaledTileID] = []
        for tile in cover where tile.canonical.z > source.minZoom {
            let c = tile.canonical
            extra.append(OverscaledTileID(overscaledZ: c.z - 1, wrap: tile.wrap, canonical: CanonicalTileID(z: c.z - 1, x: c.x >> 1, y: c.y >> 1)))
            let ancestor = max(source.minZoom, min(c.z, 5))
            let levels = c.z - ancestor
            extra.append(OverscaledTileID(overscaledZ: ancestor, wrap: tile.wrap, canonical: CanonicalTileID(z: ancestor, x: c.x >> levels, y: c.y >> levels)))
        }
        var seen = Set<OverscaledTileID>()
        return (cover + extra).filter { seen.insert($0).inserted }
    }
}
