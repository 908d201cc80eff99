import MapSimJSON
import MapSimStyle

/// Tiles and their glyphs: the render update's requests and cancellations, tile data, glyph ranges.
extension LoadSequence {
    /// Brings every source's tiles in line with the view: requests new tiles nearest first, cancels
    /// requests for tiles that left the view. Runs at the start of each frame, as the SDKs' render update does.
    mutating func updateTiles() -> [Action] {
        guard load.phase == .parsed, let style = load.style else { return [] }
        let camera = effectiveCamera
        let terrain = terrainForCovers(camera: camera)
        var actions: [Action] = []
        for index in load.sources.indices where load.sources[index].metadata == .loaded {
            let id = load.sources[index].spec.id
            let used = style.layers.contains { $0.source == id && $0.isShown(atZoom: camera.zoom) }
                || (index == terrainSourceIndex && terrain != nil)
            // The same view needs the same tiles: a frame that moved nothing costs nothing here.
            let view = SourceState.View(camera: camera, viewport: viewport, used: used, terrain: terrain)
            guard load.sources[index].lastView != view else { continue }
            load.sources[index].lastView = view
            var wanted: [TileKey] = []
            var zooms: [TileKey: Int] = [:]
            if used, let pyramid = load.sources[index].pyramid, let cover = cover(source: index, pyramid: pyramid, camera: camera, view: view, actions: &actions) {
                for tile in cover {
                    let key = TileKey(canonical: tile.canonical, wrap: tile.wrap)
                    guard zooms[key] == nil else { continue }
                    zooms[key] = tile.overscaledZ
                    wanted.append(key)
                }
            }
            if let pyramid = load.sources[index].pyramid {
                // The walk for a tile without data goes down to the source's minzoom, or (GL JS) so
                // many levels below the covering zoom.
                let first = options.engine.fallback.countsFromFirstCoverTile ? wanted.first.flatMap { zooms[$0] } : nil
                let covering = first ?? pyramid.coveringZoom(forCameraZoom: camera.zoom)
                let lowest = options.engine.fallback.levelsBelowCoveringZoom.map { max(covering - $0, pyramid.minZoom) } ?? pyramid.minZoom
                addFallbackParents(to: &wanted, zooms: &zooms, source: index, lowestZoom: lowest)
            }
            let wantedSet = Set(wanted)
            let abandoned = load.sources[index].tiles.filter { tile, state in
                state.status == .loading && !wantedSet.contains(tile)
            }.sorted { $0.value.requestOrder < $1.value.requestOrder }
            for (tile, _) in abandoned {
                actions.append(.cancel(.tile(id, tile)))
                load.sources[index].tiles[tile] = nil
            }
            load.sources[index].setVisible(wanted)
            for tile in wanted where load.sources[index].tiles[tile] == nil {
                let zoom = zooms[tile] ?? tile.canonical.z
                if let geoJSON = load.sources[index].geoJSON {
                    load.sources[index].tiles[tile] = TileState(status: .parsing, zoom: zoom, content: .geoJSON(geoJSON.features(in: tile.canonical)))
                    actions += settleContent(source: index, tile: tile)
                } else if let template = load.sources[index].template {
                    let image = load.sources[index].spec.kind == .raster || load.sources[index].spec.kind == .rasterDEM
                    var resource = Resource.tile(template, id: tile.canonical, pixelRatio: viewport.pixelRatio, image: image)
                    resource.scope = StyleScope.split(id).scope
                    actions.append(.request(.tile(id, tile), resource))
                    load.sources[index].tiles[tile] = TileState(status: .loading, requestOrder: load.tileRequests, zoom: zoom)
                    load.tileRequests += 1
                }
            }
        }
        return actions
    }

    /// The tiles source `index` needs for `view` (its prefetch, then its ideal tiles), or nil when
    /// the cover is past the limit (reported once, in `actions`). The view's cover changes with the
    /// view only: a tile that came without data asks for its parents, not for the view to be covered
    /// again. With 3D terrain (GL JS) the covers of one camera add up: tiles an earlier frame asked
    /// for are kept, as GL JS lets their requests finish.
    private mutating func cover(source index: Int, pyramid: TilePyramid, camera: Camera, view: SourceState.View,
                                actions: inout [Action]) -> [OverscaledTileID]? {
        if let last = load.sources[index].lastCover, last.view == view { return last.tiles }
        let glJS = options.engine.cover == .frustum
        let ideal = glJS ? glJSTiles(source: index, pyramid: pyramid, camera: camera, terrain: view.terrain) : nil
        let count = ideal.map { (pyramid.coveringZoom(forCameraZoom: camera.zoom), $0.count) } ?? pyramid.visibleTileCount(camera: camera, viewport: viewport)
        let (bounded, refusal) = coverIsBounded(source: index, count: count)
        actions += refusal
        guard bounded else { return nil }
        var cover = prefetchTiles(source: index, pyramid: pyramid, camera: camera)
            + (ideal ?? pyramid.visibleTiles(camera: camera, viewport: viewport))
        if view.terrain != nil, let last = load.sources[index].lastCover,
           last.view.camera == view.camera, last.view.viewport == view.viewport, last.view.used == view.used {
            let kept = Set(last.tiles)
            cover = last.tiles + cover.filter { !kept.contains($0) }
        }
        load.sources[index].lastCover = (view, cover)
        return cover
    }

    /// The tiles MapLibre Native prefetches in continuous mode, before the view's own: the view's
    /// cover at the engine's prefetch zoom below the tile zoom, when that is below the ideal zoom
    /// (`TilePyramid::update`); none for GeoJSON sources or a still image.
    private func prefetchTiles(source index: Int, pyramid: TilePyramid, camera: Camera) -> [OverscaledTileID] {
        guard options.mode == .continuous, load.sources[index].geoJSON == nil else { return [] }
        let covering = pyramid.coveringZoom(forCameraZoom: camera.zoom)
        guard covering >= pyramid.minZoom,
              let zoom = options.engine.prefetchZoom(tileZoom: pyramid.tileZoom(forCameraZoom: camera.zoom), minZoom: pyramid.minZoom),
              zoom < min(pyramid.maxZoom, covering) else { return [] }
        return pyramid.coverTiles(atZoom: zoom, camera: camera, viewport: viewport)
    }

    /// Adds, for each tile that arrived without anything to draw, its parent, and the parent's parent
    /// when that has nothing either, down to `lowestZoom`: one level per round trip, as the SDKs look
    /// for a tile to show in place of a missing raster tile — and, in GL JS, in place of any tile
    /// that failed.
    private func addFallbackParents(to wanted: inout [TileKey], zooms: inout [TileKey: Int], source index: Int, lowestZoom: Int) {
        let includesFailed = options.engine.fallback.includesFailedTiles
        var position = 0
        while position < wanted.count {
            let tile = wanted[position]
            position += 1
            guard let state = load.sources[index].tiles[tile], state.isComplete, !state.isRenderable || (includesFailed && state.status == .failed),
                  let parent = tile.parent, parent.canonical.z >= lowestZoom, zooms[parent] == nil else { continue }
            zooms[parent] = parent.canonical.z
            wanted.append(parent)
        }
    }

    /// Whether the view's cover of a source (`count` tiles at a zoom) is within the limit; the first
    /// cover past it is reported (map-loading-error {type: source}, in the actions) and nothing is
    /// requested for the source.
    private mutating func coverIsBounded(source index: Int, count cover: (zoom: Int, count: Int)) -> (Bool, [Action]) {
        let (zoom, count) = cover
        guard count > options.maximumTilesPerSource else {
            load.sources[index].coverRefused = false
            return (true, [])
        }
        guard !load.sources[index].coverRefused else { return (false, []) }
        load.sources[index].coverRefused = true
        let id = load.sources[index].spec.id
        let message = "source \(StyleScope.quoted(id)): the view needs \(count) tiles at zoom \(zoom), more than the limit of \(options.maximumTilesPerSource) per source; no tile of it is loaded"
        return (false, [.emit(.mapLoadingError(MapLoadingError(type: .source, message: message, sourceID: id)))])
    }

    mutating func receiveTile(_ response: Response, source id: String, tile: TileKey, url: String) -> [Action] {
        guard let index = load.sources.firstIndex(where: { $0.spec.id == id }), let state = load.sources[index].tiles[tile] else { return [] }
        // A failed refresh keeps the data already shown.
        if response.error != nil && state.status == .loaded { return [] }
        let kind = load.sources[index].spec.kind
        // A tile file that is not there is no content, as a 404 is (MapLibre's tile loader takes
        // a not-found error of any file source so).
        let missingFile = response.error?.reason == .notFound && response.source == .localFile
        let isImage = kind == .raster || kind == .rasterDEM
        let emptyImage = isImage && response.noContent && !response.notFound ? options.engine.noContentImageTile : .loadsParent
        if emptyImage != .fails, response.noContent || missingFile || response.notModified && response.data == nil {
            load.sources[index].tiles[tile]?.content = .empty
            if isImage && emptyImage == .loadsParent {
                // An image tile without an image cannot be drawn: its parent is loaded in its place.
                load.sources[index].tiles[tile]?.isRenderable = false
                load.sources[index].lastView = nil
                if (response.notFound || missingFile) && !options.engine.notFoundImageTileRedraws {
                    // No event and no frame (both GL JS): the source is updated at once, and only
                    // a frame something else asks for can find the map idle.
                    load.sources[index].setStatus(.loaded, of: tile)
                    load.silentlyMissingTileSources.insert(id)
                    return updateTiles()
                }
            }
            return settleContent(source: index, tile: tile)
        }
        var failure: String?
        if emptyImage == .fails {
            failure = "tile \(tile.canonical) of source \(StyleScope.quoted(id)) came with no content (HTTP 204): \(options.engine) cannot decode it as an image"
        } else if let error = response.error {
            failure = error.message
        } else if let data = response.data {
            switch kind {
            case .vector:
                do {
                    let spec = load.sources[index].spec
                    let decoded = try VectorTile.decode(data, encoding: load.sources[index].tileEncoding)
                    load.sources[index].tiles[tile]?.content = .vector(Self.promotingIDs(decoded, source: spec))
                } catch {
                    failure = "invalid vector tile \(tile.canonical) of source \(StyleScope.quoted(id)): \(error)"
                }
            default:
                switch ImageSignature.format(of: data) {
                case "png"? where index == terrainSourceIndex:
                    failure = receiveDEMTile(data, tile: tile, url: url)
                    if failure == nil { load.sources[index].tiles[tile]?.content = .image }
                case "png"?:
                    do throws(LoadingError) {
                        _ = try PNGImage.validate(data)
                        load.sources[index].tiles[tile]?.content = .image
                    } catch {
                        failure = "tile \(tile.canonical) of source \(StyleScope.quoted(id)) does not decode: \(error)"
                    }
                case .some:
                    load.sources[index].tiles[tile]?.content = .image
                case nil:
                    failure = "tile \(tile.canonical) of source \(StyleScope.quoted(id)) is not a PNG, JPEG or WebP image"
                }
            }
        }
        if let failure {
            load.sources[index].setStatus(.failed, of: tile)
            // An engine that loads parents in place of failed tiles does so at its next update.
            if options.engine.fallback.includesFailedTiles { load.failedTilesAwaitUpdate = true }
            let error = Action.emit(.mapLoadingError(MapLoadingError(type: .tile, message: failure, sourceID: id, tileID: tile.canonical)))
            // A still image is not drawn with a tile missing: the load stops, as MapLibre's still
            // mode fails the render on a tile's error (a 404 is no content, not an error).
            if options.mode == .still {
                load.phase = .failed("tile \(tile.canonical) of source \(StyleScope.quoted(id)): \(failure)")
                return [error]
            }
            guard options.engine.failedTileRedraws else {
                // The error event alone (MapLibre GL JS): only a frame something else asks for can
                // find the map idle.
                load.silentlyFailedTileSources.insert(id)
                return [error]
            }
            return [error, .invalidate]
        }
        return settleContent(source: index, tile: tile)
    }

    /// A vector tile whose features take their id from the source's `promoteId` property.
    private static func promotingIDs(_ tile: VectorTile, source: StyleSource) -> VectorTile {
        guard source.promoteID != nil else { return tile }
        var promoted = tile
        for index in promoted.layers.indices {
            guard let property = source.promotedProperty(in: promoted.layers[index].name) else { continue }
            for feature in promoted.layers[index].features.indices {
                promoted.layers[index].features[feature].id = promoted.layers[index].features[feature].properties[property]
            }
        }
        return promoted
    }

    /// The images the style has now: its sprites' and those added at run time.
    var availableImages: Set<String> {
        load.sprite.imageNames.union(runtimeImages)
    }

    /// Lays the tile out and requests the glyph ranges its text needs, or completes the tile when
    /// it needs none.
    mutating func settleContent(source index: Int, tile: TileKey) -> [Action] {
        if waitsForImports(source: index) {
            load.sources[index].setStatus(.parsing, of: tile)
            return []
        }
        guard let layout = layOut(source: index, tile: tile) else { return complete(source: index, tile: tile) }
        var actions: [Action] = []
        var waiting = Set<GlyphRangeKey>()
        for key in layout.glyphs.sorted() {
            switch load.glyphs[key] {
            case .some(.some):
                // A glyph the engine rejects keeps the tile from ever being drawn (GL JS throws on it).
                if let rejected = load.rejectedGlyphs[key], !rejected.isDisjoint(with: layout.codePoints[key] ?? []) { waiting.insert(key) }
            case .some(.none):
                waiting.insert(key)
            case .none:
                let scope = StyleScope.split(load.sources[index].spec.id).scope
                let (template, missing) = glyphTemplate(scope: scope)
                actions += missing
                guard let template else { continue }
                load.glyphs[key] = .some(nil)
                var resource = Resource.glyphs(template: template, fontStack: key.fontStack, rangeStart: key.start, keepingCommas: options.engine.glyphs.keepsCommas)
                resource.scope = scope
                actions.append(.request(.glyphs(key), resource))
                waiting.insert(key)
            }
        }
        if waiting.isEmpty { return actions + complete(source: index, tile: tile) }
        load.sources[index].setStatus(.waitingForGlyphs(waiting), of: tile)
        return actions
    }

    /// Whether a tile of source `index` waits for the imports before it is laid out: Mapbox GL JS
    /// 3.0.1 gives its workers the root style's layers only once every import has loaded (and a
    /// vector or GeoJSON tile, which a worker lays out, `rootLayoutDelay` later), so a tile of the
    /// root's own sources is laid out then (with an import failed, never: its worker throws on it,
    /// nothing of it is asked for, and it never finishes).
    private func waitsForImports(source index: Int) -> Bool {
        guard options.engine.imports?.failedImportBlocks == true, load.imports.isActive,
              StyleScope.split(load.sources[index].spec.id).scope.isRoot else { return false }
        let kind = load.sources[index].spec.kind
        return !load.imports.isMerged || (load.rootLayoutToken != nil && (kind == .vector || kind == .geojson))
    }

    /// The root's layers reached the workers: its tiles that waited are laid out (a token of an
    /// earlier style load does nothing).
    mutating func layOutRootTiles(token: Int) -> [Action] {
        guard load.rootLayoutToken == token else { return [] }
        load.rootLayoutToken = nil
        return settleTilesThatWaitedForImports() + [.invalidate]
    }

    /// Lays out the tiles of the root's own sources that waited for the imports (`waitsForImports`).
    mutating func settleTilesThatWaitedForImports() -> [Action] {
        var actions: [Action] = []
        for index in load.sources.indices where StyleScope.split(load.sources[index].spec.id).scope.isRoot {
            let waiting = load.sources[index].tiles.filter { $0.value.status == .parsing && $0.value.content != nil }
                .sorted { ($0.value.requestOrder, $0.key) < ($1.value.requestOrder, $1.key) }
            for (tile, _) in waiting { actions += settleContent(source: index, tile: tile) }
        }
        return actions
    }

    /// The names of `scope`'s images among `images` (which are named in their scopes), as its
    /// layers name them.
    private static func images(of scope: StyleScope, in images: Set<String>) -> Set<String> {
        Set(images.compactMap { image in
            let (name, imageScope) = StyleScope.split(image)
            return imageScope == scope ? name : nil
        })
    }

    /// The glyphs URL template of the style `scope` (the root's, or an import's), resolved: each
    /// import uses its own, or Mapbox's default fonts when it names none — never its parent's; so
    /// does a root style with imports (Mapbox GL JS's `GLYPHS_URL`).
    /// The first time a style drawing text has none, the actions report it (an engine that draws
    /// such text locally says nothing).
    mutating func glyphTemplate(scope: StyleScope = .root) -> (String?, [Action]) {
        if !scope.isRoot, let node = load.imports.index(of: scope) {
            let template = load.imports[node].style?.glyphs ?? Engine.mapboxDefaultGlyphs
            return (load.imports[node].resources.glyphTemplate(template), [])
        }
        if let template = load.style?.glyphs { return (resources.glyphTemplate(template), []) }
        // A Mapbox engine draws a style that names no glyphs with Mapbox's fonts.
        if options.engine.imports != nil { return (resources.glyphTemplate(Engine.mapboxDefaultGlyphs), []) }
        guard !load.glyphURLMissingReported && !options.engine.glyphs.drawsWithoutGlyphsURL else { return (nil, []) }
        load.glyphURLMissingReported = true
        return (nil, [.emit(.mapLoadingError(MapLoadingError(type: .glyphs, message: "the style draws text but has no \"glyphs\" URL")))])
    }

    /// Works out (again) what the tile's layers need, with the images the style has now.
    @discardableResult
    mutating func layOut(source index: Int, tile: TileKey) -> TileLayout? {
        guard let style = load.style, let state = load.sources[index].tiles[tile], let content = state.content else { return nil }
        let id = load.sources[index].spec.id
        let images = availableImages
        let scope = StyleScope.split(id).scope
        let layout = TileLayout(content: content, layers: style.layers.filter { $0.source == id }, zoom: state.zoom, tile: tile.canonical,
                                globalState: globalState,
                                availableImages: scope.isRoot ? images : Self.images(of: scope, in: images), glyphRules: options.engine.glyphs,
                                scope: scope, config: config(of: scope), configInFilters: options.engine.imports?.readsConfigEverywhere ?? true)
        load.sources[index].setLayout(layout, images: images, of: tile)
        return layout
    }

    mutating func receiveGlyphs(_ response: Response, key: GlyphRangeKey, url: String) -> [Action] {
        guard load.glyphs[key] == .some(nil) else { return [] }
        var actions: [Action] = response.error != nil ? [.cancel(.glyphs(key))] : []
        let rules = options.engine.glyphs
        var failure: String?
        if let error = response.error {
            failure = "failed to load glyphs \(url): \(error.message)"
        } else if let data = response.data {
            do {
                let set = try GlyphSet.decode(data)
                if rules.rejectsGlyphsWithoutSize, let first = set.unsized.first {
                    load.rejectedGlyphs[key] = Set(set.unsized.map(\.codePoint))
                    let more = set.unsized.count > 1 ? " (and \(set.unsized.count - 1) more)" : ""
                    actions.append(.emit(.mapLoadingError(MapLoadingError(type: .glyphs, message:
                        "glyph range \(url): glyph \(first.codePoint)\(more) has \(first.reason): \(options.engine) fails every tile that draws it (\(first.glJSMessage ?? first.reason))"))))
                }
                if rules.drawsFailedRangesLocally, let mismatch = set.mismatchedBitmaps.first {
                    // GL JS cannot parse the range and draws all of it with a local font.
                    failure = "invalid glyphs \(url): glyph \(mismatch.codePoint): \(mismatch.glJSMessage ?? mismatch.reason)"
                }
            } catch {
                failure = "invalid glyphs \(url): \(error)"
            }
        }
        // GL JS draws a range it cannot load with a local font, says nothing and asks no more.
        if let failure, !rules.drawsFailedRangesLocally {
            actions.append(.emit(.mapLoadingError(MapLoadingError(type: .glyphs, message: failure))))
            // A still image cannot be drawn without its glyphs: the load stops, as in MapLibre's still mode.
            if options.mode == .still {
                load.phase = .failed(failure)
                return actions
            }
        }
        let waitingTiles = load.sources.indices.flatMap { index in
            load.sources[index].tiles.sorted { $0.key < $1.key }.compactMap { tile, state -> (source: Int, tile: TileKey, state: TileState)? in
                guard case .waitingForGlyphs(let waiting) = state.status, waiting.contains(key) else { return nil }
                return (index, tile, state)
            }
        }
        // Mapbox GL JS forgets a range it could not load (its glyph manager keeps only the ranges
        // that came), so whatever is laid out later — the parents loaded in place of the GeoJSON
        // tiles it fails — asks again. (Its vector tiles waiting for it, laid out together, asked once.)
        let failsGeoJSONTiles = response.error != nil && rules.failedRangeFailsGeoJSONTiles
        load.glyphs[key] = failsGeoJSONTiles ? nil : .some(failure == nil || rules.drawsFailedRangesLocally)
        for (index, tile, state) in waitingTiles {
            guard case .waitingForGlyphs(var waiting) = state.status else { continue }
            if failsGeoJSONTiles, load.sources[index].geoJSON != nil, let error = response.error {
                actions += failOnGlyphs(source: index, tile: tile, url: url, error: error)
                continue
            }
            let draws = state.layout?.codePoints[key] ?? []
            if let rejected = load.rejectedGlyphs[key], !rejected.isDisjoint(with: draws) { continue }
            waiting.remove(key)
            if waiting.isEmpty {
                actions += complete(source: index, tile: tile)
            } else {
                load.sources[index].setStatus(.waitingForGlyphs(waiting), of: tile)
            }
        }
        return actions
    }

    /// A GeoJSON tile whose text needs a range that could not be loaded fails, and the map never
    /// goes idle (`GlyphRules.failedRangeFailsGeoJSONTiles`). Its parent is looked for at once when
    /// the range was not found (GL JS updates the source on a 404) — for an overscaled tile, the
    /// same tile one level less overscaled —, else at the next update, after the tile's error.
    private mutating func failOnGlyphs(source index: Int, tile: TileKey, url: String, error: Response.Failure) -> [Action] {
        let id = load.sources[index].spec.id
        load.glyphFailedGeoJSONSources.insert(id)
        // An overscaled tile's parent is the same tile one level less overscaled: GL JS lays it out,
        // and it asks, again.
        if error.reason == .notFound, let zoom = load.sources[index].tiles[tile]?.zoom, zoom > tile.canonical.z {
            load.sources[index].tiles[tile]?.zoom = zoom - 1
            load.sources[index].setStatus(.parsing, of: tile)
            return settleContent(source: index, tile: tile)
        }
        load.sources[index].setStatus(.failed, of: tile)
        if error.reason == .notFound {
            load.sources[index].lastView = nil
            return [.invalidate]
        }
        load.failedTilesAwaitUpdate = true
        let message = "failed to load glyphs \(url): \(error.message)"
        return [.emit(.mapLoadingError(MapLoadingError(type: .tile, message: message, sourceID: id, tileID: tile.canonical))), .invalidate]
    }

    mutating func complete(source index: Int, tile: TileKey) -> [Action] {
        noteNewData()
        load.sources[index].setStatus(.loaded, of: tile)
        let source = load.sources[index]
        return [.emit(.sourceDataLoaded(SourceDataLoaded(id: source.spec.id, type: .tile, loaded: source.isViewComplete, tileID: tile.canonical))), .invalidate]
    }

    /// New data arrived (a tile, the sprite): GL JS updates its sources on such an event, and only
    /// then looks for the parents of tiles that failed since.
    mutating func noteNewData() {
        load.dataEvents += 1
        guard load.failedTilesAwaitUpdate else { return }
        load.failedTilesAwaitUpdate = false
        for index in load.sources.indices { load.sources[index].lastView = nil }
    }
}
