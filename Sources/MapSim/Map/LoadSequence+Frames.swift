import MapSimJSON
import MapSimStyle

/// What a frame draws: full or partial, transitions and fades, missing and unused images.
extension LoadSequence {
    /// Marks what this frame draws and reports what it means for the frame: full or partial, placement,
    /// animations, with the style-image-missing and style-image-remove-unused events the SDKs send while rendering.
    mutating func renderFrame(at now: SimTime, afterFirstIdle: Bool) -> (FrameState, [Action]) {
        guard load.phase == .parsed, let style = load.style else { return (FrameState(isFull: false, placementChanged: false, animationEnd: nil), []) }
        load.silentlyMissingTileSources = []
        load.silentlyFailedTileSources = []
        if !load.layersRendered {
            load.layersRendered = true
            if style.transition.duration > 0 && options.engine.animatesFirstTransition {
                extendAnimation(to: now + .milliseconds(style.transition.delay + style.transition.duration))
            }
        }
        var placementChanged = false
        var usedImages = Set<String>()
        let zoom = effectiveCamera.zoom
        let images = availableImages
        let fadesSymbols = afterFirstIdle || options.engine.fadesSymbolsBeforeFirstIdle
        let fadesRaster = options.engine.fadesRasterOverTerrain || terrainSourceIndex == nil
        // What a frame must look at: every visible tile when the images changed (their layouts may
        // change), else only the tiles due a first draw and those that use images — so a frame
        // costs what changed, not every tile of the view.
        let everyTile = load.lastFrameImages != images
        load.lastFrameImages = images
        for index in load.sources.indices {
            let layers = style.layers.filter { $0.source == load.sources[index].spec.id && $0.isShown(atZoom: zoom) }
            let candidates = everyTile ? load.sources[index].visible
                : load.sources[index].undrawn.union(load.sources[index].withImages).filter(load.sources[index].isVisible)
            for tile in candidates {
                guard let state = load.sources[index].tiles[tile], state.status == .loaded, let content = state.content else { continue }
                let firstDraw = !state.rendered
                load.sources[index].markDrawn(tile)
                // Images that arrived since the tile was laid out may change what it uses (coalesce, image).
                let layout = state.layoutImages == images ? state.layout : layOut(source: index, tile: tile)
                usedImages.formUnion(layout?.images ?? [])
                for layer in layers where content.hasFeatures(in: layer.sourceLayer) {
                    switch layer.kind {
                    case .symbol:
                        if firstDraw {
                            placementChanged = true
                            if fadesSymbols { extendAnimation(to: now + options.symbolFadeDuration) }
                        }
                    case .raster where firstDraw && fadesRaster && layer.rasterFadeDuration > 0:
                        extendAnimation(to: now + .milliseconds(layer.rasterFadeDuration))
                    default:
                        break
                    }
                }
            }
        }
        // A playing video is drawn anew every frame: the map repaints and never goes idle.
        if load.sources.contains(where: \.videoPlays) { extendAnimation(to: now + RenderModel.tick(1)) }
        var actions: [Action] = []
        for image in usedImages.sorted() where !load.sprite.imageNames.contains(image) && !runtimeImages.contains(image) && load.sprite.isSettled {
            if load.reportedMissingImages.insert(image).inserted {
                actions.append(.emit(.styleImageMissing(id: image)))
            }
        }
        let usedRuntime = usedImages.intersection(runtimeImages)
        for image in load.usedRuntimeImages.subtracting(usedRuntime).sorted() {
            actions.append(.emit(.styleImageRemoveUnused(id: image)))
        }
        load.usedRuntimeImages = usedRuntime
        let isFull = load.isStyleLoaded && load.pendingModels == 0 && load.sources.allSatisfy { isSettled($0) && $0.isViewComplete && $0.updates.isIdle }
        return (FrameState(isFull: isFull, placementChanged: placementChanged, animationEnd: load.animationEnd.flatMap { $0 > now ? $0 : nil },
                           holdsIdle: !load.glyphFailedGeoJSONSources.isEmpty), actions)
    }

    /// Keeps frames coming until `end`; a still image has no animation.
    mutating func extendAnimation(to end: SimTime) {
        guard options.mode == .continuous else { return }
        load.animationEnd = max(load.animationEnd ?? end, end)
    }
}
