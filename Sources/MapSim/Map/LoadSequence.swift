import MapSimJSON
import MapSimStyle

/// The load sequence of a map as a pure state machine: style → sprite → source metadata → tiles
/// (→ glyphs), following the Mapbox/MapLibre rules in DESIGN.md.
///
/// It performs no I/O. Inputs are API calls, responses and frame updates; outputs are `MapAction`s
/// collected in order and taken with `takeActions()`: requests for the pipeline, events, invalidations.
struct LoadSequence: Sendable {
    enum Phase: Sendable, Equatable {
        case empty
        case loadingStyle(RequestID)
        case failed(String)
        case parsed
    }

    struct Options: Sendable {
        var mapbox = MapboxURL()
        var symbolFadeDuration = SimTime.milliseconds(300)
    }

    /// A frame's view of the load: what is drawn and what animates.
    struct FrameState: Sendable, Equatable {
        var isFull: Bool
        var placementChanged: Bool
        /// The latest end of a transition or fade started or running; nil when nothing animates.
        var animationEnd: SimTime?
    }

    let options: Options
    private(set) var camera: Camera
    private(set) var viewport: Viewport
    /// The camera fields set through the API; the style's default camera fills in the others.
    private(set) var userCamera = CameraOptions()
    private(set) var phase: Phase = .empty
    private(set) var style: Style?
    private(set) var styleURL: String?
    private(set) var isStyleLoaded = false
    private var sprite = SpriteState(sources: [])
    private var sources: [SourceState] = []
    private var glyphs: [GlyphRangeKey: Bool?] = [:]
    private var requests: [RequestID: RequestPurpose] = [:]
    private var nextRequest = 0
    private var sourcesEventSent = false
    private var glyphURLMissingReported = false
    /// The end of the latest layer transition or fade started so far.
    private var animationEnd: SimTime?
    private var layersRendered = false
    private var reportedMissingImages: Set<String> = []
    private var runtimeImages: Set<String> = []
    private var usedRuntimeImages: Set<String> = []
    private var actions: [MapAction] = []

    enum RequestPurpose: Sendable, Equatable {
        case style
        case spriteJSON(Int)
        case spriteImage(Int)
        case metadata(String)
        case tile(String, CanonicalTileID)
        case glyphs(GlyphRangeKey)
    }

    init(camera: Camera, viewport: Viewport, options: Options = Options()) {
        self.camera = camera
        self.viewport = viewport
        self.options = options
    }

    /// The actions produced since the last call, in order.
    mutating func takeActions() -> [MapAction] {
        defer { actions = [] }
        return actions
    }

    /// The names of the images the loaded sprite sheets hold.
    var spriteImageNames: Set<String> { sprite.imageNames }

    /// The camera as the map applies it to this view.
    var effectiveCamera: Camera { camera.constrained(to: viewport) }

    // MARK: - API calls

    mutating func setStyleURL(_ url: String) {
        reset()
        let normalized = options.mapbox.style(url)
        styleURL = normalized
        let id = startRequest(.style, .style(normalized))
        phase = .loadingStyle(id)
    }

    mutating func setStyleJSON(_ json: [UInt8], baseURL: String? = nil) {
        reset()
        styleURL = baseURL
        parseStyle(json)
    }

    mutating func setCamera(_ options: CameraOptions) {
        userCamera = userCamera.merged(with: options)
        let newCamera = options.applied(to: camera)
        guard newCamera != camera else { return }
        camera = newCamera
        actions.append(.emit(.cameraChanged))
        actions.append(.invalidate)
    }

    mutating func setViewport(_ newViewport: Viewport) {
        guard newViewport != viewport else { return }
        viewport = newViewport
        actions.append(.emit(.cameraChanged))
        actions.append(.invalidate)
    }

    mutating func addSource(_ spec: StyleSource) throws(LoadingError) {
        guard phase == .parsed else { throw LoadingError.invalidCall("cannot add source \"\(spec.id)\": no style is loaded yet") }
        guard !sources.contains(where: { $0.spec.id == spec.id }) else { throw LoadingError.invalidCall("source \"\(spec.id)\" already exists") }
        style?.sources.append(spec)
        actions.append(.emit(.sourceAdded(id: spec.id)))
        loadMetadata(of: spec)
        actions.append(.invalidate)
    }

    mutating func removeSource(id: String) throws(LoadingError) {
        guard let index = sources.firstIndex(where: { $0.spec.id == id }) else { throw LoadingError.invalidCall("source \"\(id)\" does not exist") }
        if let layer = style?.layers.first(where: { $0.source == id }) {
            throw LoadingError.invalidCall("source \"\(id)\" is in use by layer \"\(layer.id)\"")
        }
        let removed = sources.remove(at: index)
        style?.sources.removeAll { $0.id == id }
        if case .pending(let request) = removed.metadata { cancel(request) }
        for tile in removed.tiles.values.sorted(by: { $0.requestOrder < $1.requestOrder }) {
            if case .loading(let request) = tile.status { cancel(request) }
        }
        actions.append(.emit(.sourceRemoved(id: id)))
        actions.append(.invalidate)
    }

    mutating func addImage(id: String) {
        runtimeImages.insert(id)
        actions.append(.invalidate)
    }

    // MARK: - Responses

    /// A response for request `id`. When `final` is false more responses may follow for the same
    /// request: a cached copy before its revalidation, or an error before a retry.
    mutating func receive(_ response: Response, for id: RequestID, final: Bool = true) {
        guard let purpose = requests[id] else { return }
        if final { requests[id] = nil }
        // A revalidation that confirmed what was delivered changes nothing.
        if response.notModified && response.data == nil && !response.noContent { return }
        switch purpose {
        case .style: receiveStyle(response, id: id)
        case .spriteJSON(let sheet): receiveSprite(response, sheet: sheet, isImage: false, id: id)
        case .spriteImage(let sheet): receiveSprite(response, sheet: sheet, isImage: true, id: id)
        case .metadata(let source): receiveMetadata(response, source: source)
        case .tile(let source, let tile): receiveTile(response, source: source, tile: tile)
        case .glyphs(let key): receiveGlyphs(response, key: key, id: id)
        }
    }

    private mutating func receiveStyle(_ response: Response, id: RequestID) {
        guard phase == .loadingStyle(id) else { return }
        if response.error != nil { cancel(id) }
        if let error = response.error {
            fail("failed to load the style \(styleURL ?? ""): \(error.message)")
        } else if let data = response.data {
            parseStyle(data)
        } else {
            fail("failed to load the style \(styleURL ?? ""): the response has no content")
        }
    }

    private mutating func fail(_ message: String) {
        phase = .failed(message)
        actions.append(.emit(.mapLoadingError(MapLoadingError(type: .style, message: message))))
    }

    private mutating func parseStyle(_ data: [UInt8]) {
        let parsed: Style
        do {
            parsed = try Style.parse(data)
        } catch {
            fail("failed to parse the style \(styleURL ?? "JSON"): \(error)")
            return
        }
        style = parsed
        phase = .parsed
        actions.append(.emit(.styleDataLoaded(StyleDataLoaded(type: .style))))
        let styleCamera = CameraOptions(center: parsed.center, zoom: parsed.zoom, bearing: parsed.bearing, pitch: parsed.pitch)
        let defaultCamera = styleCamera.merged(with: userCamera).applied(to: camera)
        if defaultCamera != camera {
            camera = defaultCamera
            actions.append(.emit(.cameraChanged))
        }
        actions.append(.invalidate)

        sprite = SpriteState(sources: parsed.sprites)
        for (index, sheet) in parsed.sprites.enumerated() {
            let base = resolve(options.mapbox.sprite(sheet.url))
            startRequest(.spriteJSON(index), .spriteJSON(base: base, pixelRatio: viewport.pixelRatio))
            startRequest(.spriteImage(index), .spriteImage(base: base, pixelRatio: viewport.pixelRatio))
        }
        if parsed.sprites.isEmpty {
            actions.append(.emit(.styleDataLoaded(StyleDataLoaded(type: .sprite))))
        }
        for source in parsed.sources { loadMetadata(of: source) }
        checkStyleLoaded()
    }

    private mutating func receiveSprite(_ response: Response, sheet index: Int, isImage: Bool, id: RequestID) {
        let part = isImage ? sprite.sheets[safe: index]?.png : sprite.sheets[safe: index]?.json
        guard sprite.sheets.indices.contains(index), part == nil, sprite.sheets[index].pendingParts > 0 else { return }
        // A sprite error is settled at once (not fatal, no retries).
        if response.error != nil { cancel(id) }
        let partName = isImage ? "image" : "JSON"
        if let error = response.error {
            sprite.sheets[index].failure = sprite.sheets[index].failure ?? "failed to load the sprite \(partName) \(responseURL(sprite: index, isImage: isImage)): \(error.message)"
        } else if let data = response.data {
            if isImage { sprite.sheets[index].png = data } else { sprite.sheets[index].json = data }
        } else {
            sprite.sheets[index].failure = sprite.sheets[index].failure ?? "the sprite \(partName) \(responseURL(sprite: index, isImage: isImage)) has no content"
        }
        sprite.sheets[index].pendingParts -= 1
        if sprite.sheets[index].pendingParts == 0 { finishSheet(index) }
        if sprite.isSettled {
            actions.append(.emit(.styleDataLoaded(StyleDataLoaded(type: .sprite))))
            actions.append(.invalidate)
            checkStyleLoaded()
        }
    }

    private func responseURL(sprite index: Int, isImage: Bool) -> String {
        let base = resolve(options.mapbox.sprite(sprite.sheets[index].source.url))
        return SpriteURL.url(base: base, part: isImage ? .png : .json, pixelRatio: viewport.pixelRatio)
    }

    private mutating func finishSheet(_ index: Int) {
        let sheet = sprite.sheets[index]
        var failure = sheet.failure
        if failure == nil, let json = sheet.json, let png = sheet.png {
            do {
                let header = try PNGHeader.read(png)
                let spriteIndex = try SpriteIndex.parse(json, sheet: header)
                let prefix = sheet.source.id == "default" ? "" : sheet.source.id + ":"
                sprite.imageNames.formUnion(spriteIndex.names.map { prefix + $0 })
                if !spriteIndex.outOfBounds.isEmpty {
                    failure = "sprite \(sheet.source.id): images outside the \(header.width)×\(header.height) sheet were dropped: \(spriteIndex.outOfBounds.joined(separator: ", "))"
                }
            } catch {
                failure = "sprite \(sheet.source.id) at \(responseURL(sprite: index, isImage: false)): \(error)"
            }
        }
        if let failure {
            actions.append(.emit(.mapLoadingError(MapLoadingError(type: .sprite, message: failure))))
        }
    }

    // MARK: - Sources

    private mutating func loadMetadata(of spec: StyleSource) {
        var state = SourceState(spec: spec, metadata: .loaded)
        switch spec.kind {
        case .vector, .raster, .rasterDEM:
            if let url = spec.url {
                let request = startRequest(.metadata(spec.id), .source(resolve(options.mapbox.source(url))))
                state.metadata = .pending(request)
            } else {
                let metadata = TileJSON(tiles: spec.tiles ?? []).overridden(by: spec)
                state.apply(metadata, resolvedAgainst: styleURL, mapbox: options.mapbox)
            }
        case .geojson:
            if let url = spec.url {
                state.metadata = .pending(startRequest(.metadata(spec.id), .source(resolve(url))))
            } else {
                state.applyGeoJSON(spec.inlineData ?? .null)
            }
        case .image:
            state.metadata = .pending(startRequest(.metadata(spec.id), .image(resolve(spec.url ?? ""))))
        case .video:
            break
        }
        sources.append(state)
        if state.metadata == .loaded {
            actions.append(.emit(.sourceDataLoaded(SourceDataLoaded(id: spec.id, type: .metadata))))
        }
    }

    private mutating func receiveMetadata(_ response: Response, source id: String) {
        guard let index = sources.firstIndex(where: { $0.spec.id == id }), sources[index].metadata != .loaded else { return }
        let spec = sources[index].spec
        let url = spec.kind == .image || spec.kind == .geojson ? resolve(spec.url ?? "") : resolve(options.mapbox.source(spec.url ?? ""))
        var failure: String?
        if let error = response.error {
            failure = "failed to load source \"\(id)\" from \(url): \(error.message)"
        } else if let data = response.data {
            switch spec.kind {
            case .vector, .raster, .rasterDEM:
                do {
                    let metadata = try TileJSON.parse(data).overridden(by: spec)
                    sources[index].apply(metadata, resolvedAgainst: url, mapbox: options.mapbox)
                } catch {
                    failure = "source \"\(id)\": invalid TileJSON at \(url): \(error)"
                }
            case .geojson:
                do {
                    sources[index].applyGeoJSON(try JSONParser.parse(data))
                } catch {
                    failure = "source \"\(id)\": invalid GeoJSON at \(url): \(error)"
                }
            case .image:
                if !ImageSignature.isImage(data) { failure = "source \"\(id)\": \(url) is not a PNG, JPEG or WebP image" }
            case .video:
                break
            }
        } else {
            failure = "source \"\(id)\": \(url) has no content"
        }
        if let failure {
            sources[index].metadata = .failed
            actions.append(.emit(.mapLoadingError(MapLoadingError(type: .source, message: failure, sourceID: id))))
            return
        }
        sources[index].metadata = .loaded
        actions.append(.emit(.sourceDataLoaded(SourceDataLoaded(id: id, type: .metadata))))
        actions.append(.invalidate)
        checkStyleLoaded()
    }

    private mutating func checkStyleLoaded() {
        guard phase == .parsed else { return }
        let allSources = sources.allSatisfy { $0.metadata == .loaded }
        if allSources && !sourcesEventSent {
            sourcesEventSent = true
            actions.append(.emit(.styleDataLoaded(StyleDataLoaded(type: .sources))))
        }
        if allSources && sprite.isSettled && !isStyleLoaded {
            isStyleLoaded = true
            actions.append(.emit(.styleLoaded))
            actions.append(.invalidate)
        }
    }

    // MARK: - Tiles

    /// Brings every source's tiles in line with the view: requests new tiles nearest first, cancels
    /// requests for tiles that left the view. Runs at the start of each frame, as the SDKs' render update does.
    mutating func updateTiles() {
        guard phase == .parsed, let style else { return }
        let camera = effectiveCamera
        for index in sources.indices where sources[index].metadata == .loaded {
            let id = sources[index].spec.id
            let used = style.layers.contains { $0.source == id && $0.isShown(atZoom: camera.zoom) }
            var wanted: [CanonicalTileID] = []
            if used, let pyramid = sources[index].pyramid {
                var seen = Set<CanonicalTileID>()
                for tile in pyramid.visibleTiles(camera: camera, viewport: viewport) where seen.insert(tile.canonical).inserted {
                    wanted.append(tile.canonical)
                }
            }
            let wantedSet = Set(wanted)
            let abandoned = sources[index].tiles.filter { tile, state in
                if case .loading = state.status { return !wantedSet.contains(tile) }
                return false
            }.sorted { $0.value.requestOrder < $1.value.requestOrder }
            for (tile, state) in abandoned {
                if case .loading(let request) = state.status { cancel(request) }
                sources[index].tiles[tile] = nil
            }
            sources[index].visible = wanted
            for tile in wanted where sources[index].tiles[tile] == nil {
                if let content = sources[index].geoJSONContent {
                    sources[index].tiles[tile] = TileState(status: .parsing, content: content)
                    settleContent(source: index, tile: tile)
                } else if let template = sources[index].template {
                    let resource = Resource.tile(template, id: tile, pixelRatio: viewport.pixelRatio)
                    sources[index].tiles[tile] = TileState(status: .loading(startRequest(.tile(id, tile), resource)))
                }
            }
        }
    }

    private mutating func receiveTile(_ response: Response, source id: String, tile: CanonicalTileID) {
        guard let index = sources.firstIndex(where: { $0.spec.id == id }), let state = sources[index].tiles[tile] else { return }
        // A failed refresh keeps the data already shown.
        if response.error != nil && state.status == .loaded { return }
        let kind = sources[index].spec.kind
        if response.noContent || response.notModified && response.data == nil {
            sources[index].tiles[tile]?.content = TileContent(layersWithFeatures: [], featureProperties: [:])
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
                    sources[index].tiles[tile]?.content = TileContent(try VectorTile.decode(data))
                } catch {
                    failure = "invalid vector tile \(tile) of source \"\(id)\": \(error)"
                }
            default:
                if ImageSignature.isImage(data) {
                    sources[index].tiles[tile]?.content = .opaque
                } else {
                    failure = "tile \(tile) of source \"\(id)\" is not a PNG, JPEG or WebP image"
                }
            }
        }
        if let failure {
            sources[index].tiles[tile]?.status = .failed
            actions.append(.emit(.mapLoadingError(MapLoadingError(type: .tile, message: failure, sourceID: id, tileID: tile))))
            actions.append(.invalidate)
            return
        }
        settleContent(source: index, tile: tile)
    }

    /// Requests the glyph ranges a tile's text needs, or completes the tile when it needs none.
    private mutating func settleContent(source index: Int, tile: CanonicalTileID) {
        let needed = glyphRanges(source: index, tile: tile)
        var waiting = Set<GlyphRangeKey>()
        for key in needed {
            switch glyphs[key] {
            case .some(.some):
                continue
            case .some(.none):
                waiting.insert(key)
            case .none:
                guard let template = glyphTemplate() else { continue }
                glyphs[key] = .some(nil)
                startRequest(.glyphs(key), .glyphs(template: template, fontStack: key.fontStack, rangeStart: key.start))
                waiting.insert(key)
            }
        }
        if waiting.isEmpty {
            complete(source: index, tile: tile)
        } else {
            sources[index].tiles[tile]?.status = .waitingForGlyphs(waiting)
        }
    }

    /// The style's glyphs URL template, resolved; reports once that a style drawing text has none.
    private mutating func glyphTemplate() -> String? {
        guard let template = style?.glyphs else {
            if !glyphURLMissingReported {
                glyphURLMissingReported = true
                actions.append(.emit(.mapLoadingError(MapLoadingError(type: .glyphs, message: "the style draws text but has no \"glyphs\" URL"))))
            }
            return nil
        }
        return resolve(options.mapbox.glyphs(template))
    }

    private func glyphRanges(source index: Int, tile: CanonicalTileID) -> [GlyphRangeKey] {
        guard let style, let content = sources[index].tiles[tile]?.content else { return [] }
        var keys = Set<GlyphRangeKey>()
        for layer in style.layers where layer.kind == .symbol && layer.source == sources[index].spec.id && layer.isVisible && layer.hasText {
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

    private mutating func receiveGlyphs(_ response: Response, key: GlyphRangeKey, id: RequestID) {
        guard glyphs[key] == .some(nil) else { return }
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
        glyphs[key] = .some(loaded)
        for index in sources.indices {
            for (tile, state) in sources[index].tiles.sorted(by: { $0.key < $1.key }) {
                guard case .waitingForGlyphs(var waiting) = state.status, waiting.remove(key) != nil else { continue }
                if waiting.isEmpty {
                    complete(source: index, tile: tile)
                } else {
                    sources[index].tiles[tile]?.status = .waitingForGlyphs(waiting)
                }
            }
        }
    }

    private mutating func complete(source index: Int, tile: CanonicalTileID) {
        sources[index].tiles[tile]?.status = .loaded
        let source = sources[index]
        actions.append(.emit(.sourceDataLoaded(SourceDataLoaded(id: source.spec.id, type: .tile, loaded: source.isViewComplete, tileID: tile))))
        actions.append(.invalidate)
    }

    // MARK: - Frames

    /// Marks what this frame draws and reports what it means for the frame: full or partial, placement,
    /// animations; emits style-image-missing and style-image-remove-unused as the SDKs do while rendering.
    mutating func renderFrame(at now: SimTime) -> FrameState {
        guard phase == .parsed, let style else { return FrameState(isFull: false, placementChanged: false, animationEnd: nil) }
        if !layersRendered {
            layersRendered = true
            if style.transition.duration > 0 {
                extendAnimation(to: now + .milliseconds(style.transition.delay + style.transition.duration))
            }
        }
        var placementChanged = false
        var usedImages = Set<String>()
        let zoom = effectiveCamera.zoom
        for index in sources.indices {
            let layers = style.layers.filter { $0.source == sources[index].spec.id && $0.isShown(atZoom: zoom) }
            for tile in sources[index].visible {
                guard let state = sources[index].tiles[tile], state.status == .loaded, let content = state.content else { continue }
                let firstDraw = !state.rendered
                sources[index].tiles[tile]?.rendered = true
                for layer in layers where content.hasFeatures(in: layer.sourceLayer) {
                    switch layer.kind {
                    case .symbol:
                        if firstDraw {
                            placementChanged = true
                            extendAnimation(to: now + options.symbolFadeDuration)
                        }
                        if let image = layer.iconImage { usedImages.insert(image) }
                    case .raster where firstDraw && layer.rasterFadeDuration > 0:
                        extendAnimation(to: now + .milliseconds(layer.rasterFadeDuration))
                    default:
                        break
                    }
                }
            }
        }
        for image in usedImages.sorted() where !sprite.imageNames.contains(image) && !runtimeImages.contains(image) && sprite.isSettled {
            if reportedMissingImages.insert(image).inserted {
                actions.append(.emit(.styleImageMissing(id: image)))
            }
        }
        let usedRuntime = usedImages.intersection(runtimeImages)
        for image in usedRuntimeImages.subtracting(usedRuntime).sorted() {
            actions.append(.emit(.styleImageRemoveUnused(id: image)))
        }
        usedRuntimeImages = usedRuntime
        let isFull = isStyleLoaded && sources.allSatisfy { $0.metadata == .loaded && $0.isViewComplete }
        return FrameState(isFull: isFull, placementChanged: placementChanged, animationEnd: animationEnd.flatMap { $0 > now ? $0 : nil })
    }

    private mutating func extendAnimation(to end: SimTime) {
        animationEnd = max(animationEnd ?? end, end)
    }

    // MARK: - Requests

    @discardableResult
    private mutating func startRequest(_ purpose: RequestPurpose, _ resource: Resource) -> RequestID {
        let id = RequestID(value: nextRequest)
        nextRequest += 1
        requests[id] = purpose
        actions.append(.request(id, resource))
        return id
    }

    private mutating func cancel(_ id: RequestID) {
        guard requests.removeValue(forKey: id) != nil else { return }
        actions.append(.cancelRequest(id))
    }

    private mutating func reset() {
        for id in requests.keys.sorted() { actions.append(.cancelRequest(id)) }
        requests = [:]
        phase = .empty
        style = nil
        isStyleLoaded = false
        sprite = SpriteState(sources: [])
        sources = []
        glyphs = [:]
        sourcesEventSent = false
        glyphURLMissingReported = false
        animationEnd = nil
        layersRendered = false
        reportedMissingImages = []
        usedRuntimeImages = []
    }

    private func resolve(_ url: String) -> String {
        URLResolver.resolve(url, against: styleURL)
    }
}

extension TileState {
    /// Tiles sort by the request that loads them, so cancellations come out in request order.
    var requestOrder: Int {
        if case .loading(let id) = status { return id.value }
        return Int.max
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
