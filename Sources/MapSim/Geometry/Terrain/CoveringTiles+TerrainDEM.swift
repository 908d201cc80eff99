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

extension CoveringTiles {
    /// Mapbox GL JS 3.0.1's cover of the terrain's own DEM source (`Terrain.update`): four times
    /// its tile size, the zoom floored, every tile's volume ±10,000 m exaggerated, seen from the
    /// camera raised by the centre's altitude as it stood before this frame sampled it; nothing added
    /// to it (no parents, no ancestors).
    static func mapboxTerrainDEMTiles(camera: Camera, viewport: Viewport, projection: StyleProjection, source: SourceOptions,
                                      terrain: CoverTerrain) -> [OverscaledTileID] {
        var options = source
        options.tileSize = source.tileSize * MapboxTerrain.demTileScale
        options.roundZoom = false
        guard let mapbox = terrain.mapbox, !coversAsGlobe(projection, zoom: camera.zoom, walk: .mapboxGLJS) else {
            return tiles(camera: camera, viewport: viewport, projection: projection, source: options, terrain: terrain, walk: .mapboxGLJS)
        }
        let view = CoverCamera(camera: camera, viewport: viewport, elevation: mapbox.demCoverAltitude, minimumElevation: terrain.minimumElevation)
        return tiles(transform: MercatorCoverTransform(camera: view, walk: .mapboxGLJS), source: options, terrain: terrain, walk: .mapboxGLJS,
                     demCover: true)
    }
}
