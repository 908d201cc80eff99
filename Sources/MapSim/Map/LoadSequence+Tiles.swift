import MapSimJSON
import MapSimStyle

/// Tiles and their glyphs: the render update's requests and cancellations, tile data, glyph ranges.
extension LoadSequence {
    /// Brings every source's tiles in line with the view: requests new tiles nearest first, cancels
    /// requests for tiles that left the view. Runs at the start of each frame, as the SDKs' render update does.
    mutating func updateTiles() {
        guard load.phase == .parsed, let style = load.style else { return }
        let camera = effectiveCamera
        for index in load.sources.indices where load.sources[index].metadata == .loaded {
            let id = load.sources[index].spec.id
            let used = style.layers.contains { $0.source == id && $0.isShown(atZoom: camera.zoom) }
            // The same view needs the same tiles: a frame that moved nothing costs nothing here.
            let view = SourceState.View(camera: camera, viewport: viewport, used: used)
            guard load.sources[index].lastView != view else { continue }
            load.sources[index].lastView = view
            var wanted: [CanonicalTileID] = []
            if used, let pyramid = load.sources[index].pyramid, coverIsBounded(source: index, pyramid: pyramid, camera: camera) {
                var seen = Set<CanonicalTileID>()
                for tile in pyramid.visibleTiles(camera: camera, viewport: viewport) where seen.insert(tile.canonical).inserted {
                    wanted.append(tile.canonical)
                }
            }
            let wantedSet = Set(wanted)
            let abandoned = load.sources[index].tiles.filter { tile, state in
                if case .loading = state.status { return !wantedSet.contains(tile) }
                return false
            }.sorted { $0.value.requestOrder < $1.value.requestOrder }
            for (tile, state) in abandoned {
                if case .loading(let request) = state.status { cancel(request) }
                load.sources[index].tiles[tile] = nil
            }
            load.sources[index].setVisible(wanted)
            for tile in wanted where load.sources[index].tiles[tile] == nil {
                if let content = load.sources[index].geoJSONContent {
                    load.sources[index].tiles[tile] = TileState(status: .parsing, content: content)
                    settleContent(source: index, tile: tile)
                } else if let template = load.sources[index].template {
                    let resource = Resource.tile(template, id: tile, pixelRatio: viewport.pixelRatio)
                    load.sources[index].tiles[tile] = TileState(status: .loading(startRequest(.tile(id, tile), resource)))
                }
            }
        }
    }

    /// Whether the view's cover of a source is within the limit; the first cover past it is
    /// reported (map-loading-error {type: source}) and nothing is requested for the source.
    private mutating func coverIsBounded(source index: Int, pyramid: TilePyramid, camera: Camera) -> Bool {
        let (zoom, count) = pyramid.visibleTileCount(camera: camera, viewport: viewport)
        guard count > options.maximumTilesPerSource else {
            load.sources[index].coverRefused = false
            return true
        }
        if !load.sources[index].coverRefused {
            load.sources[index].coverRefused = true
            let id = load.sources[index].spec.id
            let message = "source \"\(id)\": the view needs \(count) tiles at zoom \(zoom), more than the limit of \(options.maximumTilesPerSource) per source; no tile of it is loaded"
            actions.append(.emit(.mapLoadingError(MapLoadingError(type: .source, message: message, sourceID: id))))
        }
        return false
    }

    mutating func receiveTile(_ response: Response, source id: String, tile: CanonicalTileID) {
        guard let index = load.sources.firstIndex(where: { $0.spec.id == id }), let state = load.sources[index].tiles[tile] else { return }
        // A failed refresh keeps the data already shown.
        if response.error != nil && state.status == .loaded { return }
        let kind = load.sources[index].spec.kind
        if response.noContent || response.notModified && response.data == nil {
            load.sources[index].tiles[tile]?.content = TileContent(layersWithFeatures: [], featureProperties: [:])
            settleContent(source: index, tile: tile)
            return
        }
        var failure: String?
        if let error = response.error {
            failure = error.message
        } else if let data = response.data {
            switch kind {
            case .vector:
                do {
                    load.sources[index].tiles[tile]?.content = TileContent(try VectorTile.decode(data))
                } catch {
                    failure = "invalid vector tile \(tile) of source \"\(id)\": \(error)"
                }
            default:
                if ImageSignature.isImage(data) {
                    load.sources[index].tiles[tile]?.content = .opaque
                } else {
                    failure = "tile \(tile) of source \"\(id)\" is not a PNG, JPEG or WebP image"
                }
            }
        }
        if let failure {
            load.sources[index].setStatus(.failed, of: tile)
            actions.append(.emit(.mapLoadingError(MapLoadingError(type: .tile, message: failure, sourceID: id, tileID: tile))))
            actions.append(.invalidate)
            return
        }
        settleContent(source: index, tile: tile)
    }

    /// Requests the glyph ranges a tile's text needs, or completes the tile when it needs none.
    mutating func settleContent(source index: Int, tile: CanonicalTileID) {
        let needed = glyphRanges(source: index, tile: tile)
        var waiting = Set<GlyphRangeKey>()
        for key in needed {
            switch load.glyphs[key] {
            case .some(.some):
                continue
            case .some(.none):
                waiting.insert(key)
            case .none:
                guard let template = glyphTemplate() else { continue }
                load.glyphs[key] = .some(nil)
                startRequest(.glyphs(key), .glyphs(template: template, fontStack: key.fontStack, rangeStart: key.start))
                waiting.insert(key)
            }
        }
        if waiting.isEmpty {
            complete(source: index, tile: tile)
        } else {
            load.sources[index].setStatus(.waitingForGlyphs(waiting), of: tile)
        }
    }

    /// The style's glyphs URL template, resolved; reports once that a style drawing text has none.
    mutating func glyphTemplate() -> String? {
        guard let template = load.style?.glyphs else {
            if !load.glyphURLMissingReported {
                load.glyphURLMissingReported = true
                actions.append(.emit(.mapLoadingError(MapLoadingError(type: .glyphs, message: "the style draws text but has no \"glyphs\" URL"))))
            }
            return nil
        }
        return resolve(options.mapbox.glyphs(template))
    }

    func glyphRanges(source index: Int, tile: CanonicalTileID) -> [GlyphRangeKey] {
        guard let style = load.style, let content = load.sources[index].tiles[tile]?.content else { return [] }
        var keys = Set<GlyphRangeKey>()
        for layer in style.layers where layer.kind == .symbol && layer.source == load.sources[index].spec.id && layer.isVisible && layer.hasText {
            guard content.hasFeatures(in: layer.sourceLayer) else { continue }
            var starts = Set<Int>()
            if let field = layer.textField {
                for properties in content.properties(in: layer.sourceLayer) {
                    for scalar in TextField.resolve(field, properties: properties).unicodeScalars { starts.insert(Int(scalar.value) / 256 * 256) }
                }
            } else {
                starts.insert(0)
            }
            for start in starts { keys.insert(GlyphRangeKey(fontStack: layer.textFont, start: start)) }
        }
        return keys.sorted()
    }

    mutating func receiveGlyphs(_ response: Response, key: GlyphRangeKey, id: RequestID) {
        guard load.glyphs[key] == .some(nil) else { return }
        if response.error != nil { cancel(id) }
        var loaded = true
        let url = glyphTemplate().map { Resource.glyphs(template: $0, fontStack: key.fontStack, rangeStart: key.start).url } ?? ""
        if let error = response.error {
            loaded = false
            actions.append(.emit(.mapLoadingError(MapLoadingError(type: .glyphs, message: "failed to load glyphs \(url): \(error.message)"))))
        } else if let data = response.data {
            do {
                _ = try GlyphSet.decode(data)
            } catch {
                loaded = false
                actions.append(.emit(.mapLoadingError(MapLoadingError(type: .glyphs, message: "invalid glyphs \(url): \(error)"))))
            }
        }
        load.glyphs[key] = .some(loaded)
        for index in load.sources.indices {
            for (tile, state) in load.sources[index].tiles.sorted(by: { $0.key < $1.key }) {
                guard case .waitingForGlyphs(var waiting) = state.status, waiting.remove(key) != nil else { continue }
                if waiting.isEmpty {
                    complete(source: index, tile: tile)
                } else {
                    load.sources[index].setStatus(.waitingForGlyphs(waiting), of: tile)
                }
            }
        }
    }

    mutating func complete(source index: Int, tile: CanonicalTileID) {
        load.sources[index].setStatus(.loaded, of: tile)
        let source = load.sources[index]
        actions.append(.emit(.sourceDataLoaded(SourceDataLoaded(id: source.spec.id, type: .tile, loaded: source.isViewComplete, tileID: tile))))
        actions.append(.invalidate)
    }
}
