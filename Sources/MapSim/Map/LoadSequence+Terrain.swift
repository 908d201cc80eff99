import MapSimJSON
import MapSimStyle

/// GL JS's cover of a view: its projection (the globe below zoom 12), its 3D terrain (the terrain
/// source's DEM tiles, their heights, the camera raised to the ground), and the tiles each source
/// needs under them.
extension LoadSequence {
    /// The projection the engine covers the view with: the style's, unless the engine draws the
    /// map flat (MapLibre Native, Mapbox).
    var coverProjection: StyleProjection {
        guard let style = load.style, options.engine.cover == .frustum, options.engine.ignores[.globe] == nil else { return .mercator }
        return style.projection
    }

    /// The index of the terrain's DEM source, when the style has terrain over a `raster-dem` source
    /// and the engine draws it.
    var terrainSourceIndex: Int? {
        guard options.engine.cover == .frustum, options.engine.ignores[.terrain] == nil, let terrain = load.style?.terrain else { return nil }
        return load.sources.firstIndex { $0.spec.id == terrain.source && $0.spec.kind == .rasterDEM }
    }

    /// The terrain the covers of this frame see, nil without terrain. GL JS updates the sources
    /// before it reads the DEM tiles that arrived, and the requests it makes came out as if every
    /// DEM tile asked for had arrived by the next frame: so the heights and the camera's elevation
    /// the covers see change only once no DEM tile is loading (or the camera moved).
    ///
    /// An exaggeration that changes with the zoom and is 0 at the camera's turns the terrain off
    /// (nil), as Mapbox does: no DEM tiles, a flat cover.
    mutating func terrainForCovers(camera: Camera) -> CoverTerrain? {
        guard let index = terrainSourceIndex, let terrain = load.style?.terrain else { return nil }
        let exaggeration = terrain.exaggeration(atZoom: camera.zoom)
        guard exaggeration != 0 || !terrain.isZoomDependent else { return nil }
        guard let pyramid = load.sources[index].pyramid else {
            return CoverTerrain(exaggeration: exaggeration)
        }
        var elevation = load.terrain ?? TerrainElevation(exaggeration: exaggeration, demZoomRange: pyramid.minZoom...pyramid.maxZoom)
        elevation.exaggeration = exaggeration
        load.terrain = elevation
        if options.engine.coverWalk == .mapboxGLJS { return mapboxTerrainForCovers(camera: camera, elevation: elevation, pyramid: pyramid) }
        let loading = load.sources[index].tiles.values.contains { $0.status == .loading }
        if let seen = load.coverTerrain, seen.camera == camera, loading { return seen.terrain }
        let current = elevation.coverTerrain(for: camera)
        load.coverTerrain = (camera, current)
        return current
    }

    /// GL JS's tiles of source `index` for the view (`coveringTiles`, and for the terrain's DEM
    /// source `_addTerrainIdealTiles`), inside the source's bounds, in GL JS's order.
    func glJSTiles(source index: Int, pyramid: TilePyramid, camera: Camera, terrain: CoverTerrain?) -> [OverscaledTileID] {
        var tiles: [OverscaledTileID]
        let isDEM = terrain != nil && index == terrainSourceIndex
        if let terrain, isDEM, options.engine.coverWalk == .mapboxGLJS {
            tiles = CoveringTiles.mapboxTerrainDEMTiles(camera: camera, viewport: viewport, projection: coverProjection, source: pyramid.coverOptions,
                                                        terrain: terrain)
        } else if let terrain, isDEM {
            tiles = CoveringTiles.terrainDEMTiles(camera: camera, viewport: viewport, projection: coverProjection, source: pyramid.coverOptions,
                                                  terrain: terrain)
        } else {
            tiles = CoveringTiles.tiles(camera: camera, viewport: viewport, projection: coverProjection, source: pyramid.coverOptions,
                                        terrain: terrain, walk: options.engine.coverWalk)
        }
        if let fog = fogCulling(camera: camera) {
            tiles = cullFog(fog, from: tiles, camera: camera, terrain: terrain?.mapbox, demCover: isDEM)
        }
        return tiles.filter { pyramid.bounds.intersects($0.canonical) }
    }

    /// `tiles` without those `fog` hides, as Mapbox GL JS culls the cover of a camera: with its 3D
    /// terrain, from the camera the cover saw (the DEM's own, as it stood before this frame raised
    /// it), a tile past the fog staying when it rises above the horizon — the DEM cover's at
    /// ±10,000 m exaggerated, another's at its highest height, else the centre's altitude.
    private func cullFog(_ fog: MapboxFogCulling, from tiles: [OverscaledTileID], camera: Camera, terrain: MapboxTerrain?, demCover: Bool) -> [OverscaledTileID] {
        guard let terrain else {
            let view = CoverCamera(camera: camera, viewport: viewport)
            return tiles.filter { fog.keeps($0, camera: view) }
        }
        let view = CoverCamera(camera: camera, viewport: viewport, elevation: demCover ? terrain.demCoverAltitude : terrain.centerAltitude,
                               minimumElevation: terrain.lowestElevation)
        let transform = MercatorCoverTransform(camera: view, walk: .mapboxGLJS)
        let average = demCover ? terrain.demCoverAverageElevation : terrain.averageElevation
        let demCoverTop = terrain.rootRange(demCover: true).upperBound
        let rising = MapboxFogCulling.RisingTiles(viewProjection: transform.viewProjection, camera: view, averageElevation: average) { tile in
            if demCover { return demCoverTop }
            let c = tile.canonical
            return terrain.elevationRange(z: c.z, x: c.x, y: c.y)?.upperBound ?? terrain.centerAltitude
        }
        return tiles.filter { fog.keeps($0, camera: view, rising: rising) }
    }

    /// The terrain Mapbox GL JS 3.0.1's covers of this frame see. It reads the terrain again only
    /// after new data (its `data` event: a tile laid out, the sprite; `noteNewData`), in its order:
    /// the DEM source's cover first, from the camera as it stood; then the DEM tiles in use — each tile of that cover loaded, else its
    /// nearest loaded ancestor (10 levels up at most) and its loaded descendants (3 levels down); then,
    /// until it has one, the centre's altitude from them, which raises the camera of the other covers.
    private mutating func mapboxTerrainForCovers(camera: Camera, elevation: TerrainElevation, pyramid: TilePyramid) -> CoverTerrain {
        if let reading = load.mapboxTerrain, reading.camera == camera, reading.dataEventsSeen == load.dataEvents, !reading.averageDue {
            return reading.terrain
        }
        var reading = load.mapboxTerrain ?? MapboxTerrainReading(camera: camera, terrain: CoverTerrain())
        if reading.camera != camera {
            reading.camera = camera
            reading.centerAltitude = nil
            reading.averageElevation = nil
            reading.averageDue = false
        }
        reading.dataEventsSeen = load.dataEvents
        let altitude = reading.centerAltitude ?? 0
        var mapbox = MapboxTerrain(exaggeration: elevation.exaggeration, demZoomRange: elevation.demZoomRange, trees: [:],
                                   demCoverAltitude: altitude, centerAltitude: altitude)
        var terrain = CoverTerrain(exaggeration: elevation.exaggeration, demZoomRange: elevation.demZoomRange, elevation: altitude)
        terrain.mapbox = mapbox
        let cover = CoveringTiles.mapboxTerrainDEMTiles(camera: camera, viewport: viewport, projection: coverProjection, source: pyramid.coverOptions,
                                                        terrain: terrain).filter { pyramid.bounds.intersects($0.canonical) }
        let used = Self.demTilesInUse(cover: cover, loaded: elevation.tiles)
        for id in used where reading.trees[id] == nil {
            if let dem = elevation.tiles[id] { reading.trees[id] = MapboxDEMTree(dem) }
        }
        mapbox.trees = reading.trees.filter { used.contains($0.key) }
        mapbox.demCoverAverageElevation = reading.averageElevation ?? 0
        if reading.averageDue {
            // Sampled from the camera as it stands, raised, and the DEM tiles drawn.
            reading.averageDue = false
            let view = CoverCamera(camera: camera, viewport: viewport, elevation: altitude, minimumElevation: mapbox.lowestElevation)
            reading.averageElevation = MapboxAverageElevation.sample(MercatorCoverTransform(camera: view, walk: .mapboxGLJS)) {
                elevation.mapboxElevation(at: $0, terrain: mapbox)
            }
        }
        mapbox.averageElevation = reading.averageElevation ?? 0
        if reading.centerAltitude == nil, let sampled = elevation.mapboxElevation(at: camera.center, terrain: mapbox) {
            reading.centerAltitude = sampled
            mapbox.centerAltitude = sampled
            terrain.elevation = sampled
            // Mapbox samples the average in view, for its fog, once the DEM tiles are drawn.
            reading.averageDue = fogCulling(camera: camera) != nil
        }
        terrain.minimumElevation = mapbox.lowestElevation
        terrain.mapbox = mapbox
        reading.terrain = terrain
        load.mapboxTerrain = reading
        return terrain
    }

    /// The DEM tiles Mapbox GL JS reads heights from after covering the DEM source with `cover`
    /// (its `_tiles`): each tile of the cover that is loaded, else its nearest loaded ancestor, 10
    /// levels up at most, and its loaded descendants, 3 levels down at most.
    private static func demTilesInUse(cover: [OverscaledTileID], loaded: [CanonicalTileID: DEMTile]) -> Set<CanonicalTileID> {
        var used = Set<CanonicalTileID>()
        for tile in cover {
            let c = tile.canonical
            if loaded[c] != nil {
                used.insert(c)
                continue
            }
            let ancestors = stride(from: c.z - 1, through: max(0, c.z - 10), by: -1).lazy.map { CanonicalTileID(z: $0, x: c.x >> (c.z - $0), y: c.y >> (c.z - $0)) }
            if let ancestor = ancestors.first(where: { loaded[$0] != nil }) { used.insert(ancestor) }
            for id in loaded.keys where id.z > c.z && id.z <= c.z + 3 && id.x >> (id.z - c.z) == c.x && id.y >> (id.z - c.z) == c.y {
                used.insert(id)
            }
        }
        return used
    }

    /// Mapbox GL JS's fog culling for `camera` (`mapbox-gl-js` only): by the fog of the merged style
    /// — the root's, else the last import's in merge order — on a Mercator cover; nil when none.
    func fogCulling(camera: Camera) -> MapboxFogCulling? {
        guard options.engine.coverWalk == .mapboxGLJS,
              !CoveringTiles.coversAsGlobe(coverProjection, zoom: camera.zoom, walk: .mapboxGLJS) else { return nil }
        let fog: JSONObject?
        if load.imports.isActive {
            guard load.imports.isMerged else { return nil }
            fog = load.imports.postOrder.reversed().lazy.compactMap { self.load.imports[$0].style?.fog }.first
        } else {
            fog = load.style?.fog
        }
        guard let fog else { return nil }
        // 3.0.1 reads a fog's `["config", …]` as null, whatever the import's config, its schema's
        // default or setConfigProperty say (measured).
        return MapboxFogCulling(fog: fog, zoom: camera.zoom, pitch: camera.pitch)
    }

    /// Takes the heights of a PNG tile of the terrain's DEM source that arrived as `data`; nil when
    /// they were read, else the tile's failure, naming its URL (a DEM of another image format is
    /// drawn, but its heights are not read: the terrain does without them).
    mutating func receiveDEMTile(_ data: [UInt8], tile: TileKey, url: String) -> String? {
        guard let index = terrainSourceIndex else { return nil }
        do throws(LoadingError) {
            let dem = try DEMTile.decode(png: data, encoding: load.sources[index].spec.demEncoding)
            load.terrain?.add(dem, at: tile.canonical)
            return nil
        } catch {
            return "DEM tile \(url) of source \(StyleScope.quoted(load.sources[index].spec.id)) does not decode: \(error.message)"
        }
    }
}
