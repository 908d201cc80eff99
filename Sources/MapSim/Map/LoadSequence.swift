import MapSimJSON
import MapSimStyle

/// The load sequence of a map as a pure state machine: style → sprite → source metadata → tiles
/// (→ glyphs), following the Mapbox/MapLibre rules (README, "How the simulated map behaves").
///
/// It performs no I/O and knows no request ids: it asks for resources by what they are for
/// (`RequestPurpose`), and `MapMachine` numbers them, sends them through the pipeline and hands each
/// answer back with the resource it answers.
struct LoadSequence: StateMachine {
    enum Phase: Sendable, Equatable {
        case empty
        case loadingStyle
        case failed(String)
        case parsed
    }

    /// What happens to the load sequence.
    enum Input: Sendable {
        case setStyleURL(String)
        case setStyleJSON([UInt8], baseURL: String?)
        case setCamera(CameraOptions)
        case setViewport(Viewport)
        case addSource(StyleSource)
        case removeSource(String)
        /// Add a layer at run time, below the layer `before` names (on top when nil).
        case addLayer(StyleLayer, before: String?)
        /// Remove a layer.
        case removeLayer(String)
        case addImage(String)
        /// Set global state `name` (nil: back to the style's default).
        case setGlobalState(String, JSONValue?)
        /// Set config `name` of the import `importID` ("" for the root style; nil: back to the default).
        case setConfig(importID: String, name: String, value: JSONValue?)
        /// Change features of a GeoJSON source; applied when the worker is done with the change.
        case updateGeoJSON(source: String, diff: GeoJSONSourceDiff, dataID: String?)
        /// The worker finished an update of a GeoJSON source.
        case finishGeoJSONUpdate(source: String, token: Int)
        /// The root's layers reached the workers, after the imports loaded: its tiles are laid out.
        case layOutRootTiles(token: Int)
        /// A response to a request for `purpose`; when `final` is false more may follow: a cached
        /// copy before its revalidation, or an error before a retry.
        case receive(RequestPurpose, Resource, Response, final: Bool)
        /// The render update at the start of a frame: bring every source's tiles in line with the view.
        case updateTiles
        /// The frame draws what is loaded; `afterFirstIdle` once the map has been idle.
        case drawFrame(afterFirstIdle: Bool)
    }

    /// What the load sequence asks for.
    enum Action: Sendable, Equatable {
        /// Load `Resource` for `RequestPurpose`.
        case request(RequestPurpose, Resource)
        /// The request for this purpose is no longer wanted.
        case cancel(RequestPurpose)
        /// Every request of the style load is no longer wanted (a new style).
        case cancelStyleLoad
        /// Send this event.
        case emit(MapEventPayload)
        /// Something visible changed: a frame is needed.
        case invalidate
        /// Feed `Input.finishGeoJSONUpdate` at this time: the worker is done with an update.
        case scheduleGeoJSONUpdate(source: String, token: Int, at: SimTime)
        /// Feed `Input.layOutRootTiles` this long from now.
        case scheduleRootLayout(token: Int, after: SimTime)
        /// The call cannot be made now, for this reason.
        case refuse(LoadingError)
        /// What the frame drew.
        case drew(FrameState)
    }

    /// A frame's view of the load: what is drawn and what animates.
    struct FrameState: Sendable, Equatable {
        var isFull: Bool
        var placementChanged: Bool
        /// The latest end of a transition or fade started or running; nil when nothing animates.
        var animationEnd: SimTime?
        /// Something keeps the map from going idle however complete it is (Mapbox GL JS after a
        /// GeoJSON tile failed on its glyphs).
        var holdsIdle = false
    }

    let options: Map.Options
    private(set) var camera: Camera
    private(set) var viewport: Viewport
    /// The camera fields set through the API; the style's default camera fills in the others.
    private(set) var userCamera = CameraOptions()
    /// The style's URLs, resolved and normalized.
    private(set) var resources: StyleResources
    /// Everything the current style's load owns; a new style starts a new one.
    var load = StyleLoad()
    /// Images added at run time outlive style loads, as in the SDKs.
    var runtimeImages: Set<String> = []
    /// Global state values set through the API, over the style's defaults; they outlive style loads.
    var globalStateValues = JSONObject()
    /// Config values set through the API, by top-level import id ("" for the root style), over
    /// the imports' config and their schema's defaults; they outlive style loads.
    var configValues: [String: JSONObject] = [:]
    var nextUpdateToken = 0

    init(camera: Camera, viewport: Viewport, options: Map.Options = Map.Options()) {
        self.camera = Camera(center: camera.center, zoom: camera.zoom, bearing: camera.bearing, pitch: camera.pitch, maximumPitch: options.maximumPitch)
        self.viewport = viewport
        var options = options
        // A browser asks for a TileJSON `secure` only over https.
        if options.engine.name == .mapboxGLJS { options.mapbox.marksPlainHTTPTileJSONSecure = false }
        self.options = options
        resources = StyleResources(styleURL: nil, mapbox: options.mapbox)
    }

    mutating func handle(_ input: Input, at now: SimTime) -> [Action] {
        switch input {
        case .setStyleURL(let url): return setStyleURL(url)
        case .setStyleJSON(let json, let baseURL): return setStyleJSON(json, baseURL: baseURL)
        case .setCamera(let options): return setCamera(options)
        case .setViewport(let viewport): return setViewport(viewport)
        case .addSource(let spec): return addSource(spec)
        case .removeSource(let id): return removeSource(id: id)
        case .addLayer(let layer, let before): return addLayer(layer, before: before)
        case .removeLayer(let id): return removeLayer(id: id)
        case .addImage(let id): return addImage(id: id)
        case .setGlobalState(let name, let value): return setGlobalState(name, to: value)
        case .setConfig(let importID, let name, let value): return setConfig(importID: importID, name: name, to: value)
        case .updateGeoJSON(let source, let diff, let dataID): return updateGeoJSON(source: source, diff: diff, dataID: dataID, at: now)
        case .finishGeoJSONUpdate(let source, let token): return finishGeoJSONUpdate(source: source, token: token, at: now)
        case .layOutRootTiles(let token): return layOutRootTiles(token: token)
        case .receive(let purpose, let resource, let response, _): return receive(response, for: purpose, resource: resource)
        case .updateTiles: return updateTiles()
        case .drawFrame(let afterFirstIdle):
            let (frame, actions) = renderFrame(at: now, afterFirstIdle: afterFirstIdle)
            return actions + [.drew(frame)]
        }
    }

    /// Where the style's load is.
    var phase: Phase { load.phase }

    /// The parsed style, once loaded.
    var style: Style? { load.style }

    /// The style's URL, once one was set.
    var styleURL: String? { resources.styleURL }

    /// Whether the style, its sprite and every source's metadata are loaded.
    var isStyleLoaded: Bool { load.isStyleLoaded }

    /// The names of the images the loaded sprite sheets hold.
    var spriteImageNames: Set<String> { load.sprite.imageNames }

    /// The camera as the map applies it to this view.
    var effectiveCamera: Camera { camera.constrained(to: viewport) }

    // MARK: - API calls

    private mutating func setStyleURL(_ url: String) -> [Action] {
        var actions = reset()
        resources.styleURL = normalizedStyleURL(url)
        actions.append(.request(.style, resources.style))
        load.phase = .loadingStyle
        return actions
    }

    private mutating func setStyleJSON(_ json: [UInt8], baseURL: String? = nil) -> [Action] {
        let actions = reset()
        resources.styleURL = baseURL
        load.isGivenAsJSON = true
        return actions + parseStyle(json)
    }

    private mutating func setCamera(_ options: CameraOptions) -> [Action] {
        userCamera = userCamera.merged(with: options)
        let newCamera = options.applied(to: camera)
        guard newCamera != camera else { return [] }
        camera = newCamera
        return [.emit(.cameraChanged), .invalidate]
    }

    private mutating func setViewport(_ newViewport: Viewport) -> [Action] {
        guard newViewport != viewport else { return [] }
        viewport = newViewport
        return [.emit(.cameraChanged), .invalidate]
    }

    private mutating func addSource(_ spec: StyleSource) -> [Action] {
        guard load.phase == .parsed else { return refuse("cannot add source \"\(spec.id)\": no style is loaded yet") }
        guard !load.sources.contains(where: { $0.spec.id == spec.id }) else { return refuse("source \"\(spec.id)\" already exists") }
        load.style?.sources.append(spec)
        return [.emit(.sourceAdded(id: spec.id))] + loadMetadata(of: spec) + [.invalidate]
    }

    private mutating func removeSource(id: String) -> [Action] {
        guard let index = load.sources.firstIndex(where: { $0.spec.id == id }) else { return refuse("source \"\(id)\" does not exist") }
        if let layer = load.style?.layers.first(where: { $0.source == id }) {
            return refuse("source \"\(id)\" is in use by layer \"\(layer.id)\"")
        }
        let removed = load.sources.remove(at: index)
        load.style?.sources.removeAll { $0.id == id }
        var actions: [Action] = []
        if removed.metadata == .pending { actions.append(.cancel(.metadata(id))) }
        for (tile, state) in removed.tiles.sorted(by: { $0.value.requestOrder < $1.value.requestOrder }) where state.status == .loading {
            actions.append(.cancel(.tile(id, tile)))
        }
        return actions + [.emit(.sourceRemoved(id: id)), .invalidate]
    }

    private mutating func addLayer(_ layer: StyleLayer, before: String?) -> [Action] {
        guard load.phase == .parsed, let style = load.style else { return refuse("cannot add layer \"\(layer.id)\": no style is loaded yet") }
        guard !style.layers.contains(where: { $0.id == layer.id }) else { return refuse("layer \"\(layer.id)\" already exists") }
        if let source = layer.source, !load.sources.contains(where: { $0.spec.id == source }) {
            return refuse("cannot add layer \"\(layer.id)\": source \"\(source)\" does not exist")
        }
        var position = style.layers.count
        if let before {
            guard let index = style.layers.firstIndex(where: { $0.id == before }) else {
                return refuse("cannot add layer \"\(layer.id)\" before \"\(before)\", which does not exist")
            }
            position = index
        }
        let resolved = layer.resolvingVisibility(globalState: globalState)
        load.style?.layers.insert(resolved, at: position)
        return layOutAgain(source: layer.source)
    }

    private mutating func removeLayer(id: String) -> [Action] {
        guard let index = load.style?.layers.firstIndex(where: { $0.id == id }) else { return refuse("layer \"\(id)\" does not exist") }
        let removed = load.style?.layers.remove(at: index)
        return layOutAgain(source: removed?.source)
    }

    /// A layer of `source` came or went: its loaded tiles are laid out again (their symbols placed
    /// again), so what they need follows the layers, as a worker re-parses a tile after a layer change.
    mutating func layOutAgain(source id: String?) -> [Action] {
        var actions: [Action] = []
        if let id, let index = load.sources.firstIndex(where: { $0.spec.id == id }) {
            for (tile, state) in load.sources[index].tiles.sorted(by: { $0.key < $1.key }) where state.content != nil {
                load.sources[index].markUndrawn(tile)
                actions += settleContent(source: index, tile: tile)
            }
        }
        return actions + [.invalidate]
    }

    private mutating func addImage(id: String) -> [Action] {
        runtimeImages.insert(id)
        return [.invalidate]
    }

    func refuse(_ message: String) -> [Action] {
        [.refuse(LoadingError.invalidCall(message))]
    }

    // MARK: - Responses

    private mutating func receive(_ response: Response, for purpose: RequestPurpose, resource: Resource) -> [Action] {
        // A revalidation that confirmed what was delivered changes nothing.
        if response.notModified && response.data == nil && !response.noContent { return [] }
        switch purpose {
        case .style: return receiveStyle(response)
        case .importedStyle(let node): return receiveImportedStyle(response, node: node, url: resource.url)
        case .model(let source, let scope, let index): return receiveModel(response, source: source, scope: scope, index: index, url: resource.url)
        case .spriteJSON(let sheet): return receiveSprite(response, sheet: sheet, isImage: false, url: resource.url)
        case .spriteImage(let sheet): return receiveSprite(response, sheet: sheet, isImage: true, url: resource.url)
        case .metadata(let source): return receiveMetadata(response, source: source, url: resource.url)
        case .tile(let source, let tile): return receiveTile(response, source: source, tile: tile, url: resource.url)
        case .glyphs(let key): return receiveGlyphs(response, key: key, url: resource.url)
        case .fetch, .archiveRead: return []
        }
    }

    private mutating func receiveStyle(_ response: Response) -> [Action] {
        guard load.phase == .loadingStyle else { return [] }
        if let error = response.error {
            return [.cancel(.style)] + fail("failed to load the style \(styleURL ?? ""): \(error.message)")
        } else if let data = response.data {
            return parseStyle(data)
        } else {
            return fail("failed to load the style \(styleURL ?? ""): the response has no content")
        }
    }

    /// What the engine's check of a style it loads says of `bytes` (`Engine.validatesStyles`): what
    /// it refuses, every error in the order the check finds them (nil when it loads, or when the
    /// bytes are not JSON, which the engine never gets as far as checking), and its warnings — an
    /// unknown property, for Mapbox — which the engine only logs, as `style-warning`s in `scope`.
    func validationCheck(of bytes: [UInt8], scope: StyleScope = .root) -> (refusal: String?, warnings: [Action]) {
        guard options.engine.validatesStyles else { return (nil, []) }
        let diagnostics = StyleValidator.validate(bytes, flavor: options.engine.flavor)
        let errors = diagnostics.filter { !$0.isWarning && !$0.engineLoadsAnyway && !$0.isParseError }
        let warnings = diagnostics.filter(\.engineLoadsAnyway).map { Action.emit(.styleWarning(StyleWarning(message: $0.message, scope: scope))) }
        return (errors.isEmpty ? nil : errors.map(\.message).joined(separator: "; "), warnings)
    }

    mutating func fail(_ message: String) -> [Action] {
        load.phase = .failed(message)
        return [.emit(.mapLoadingError(MapLoadingError(type: .style, message: message)))]
    }

    /// The style being parsed, as messages name it: its URL, or "JSON" when it was given as JSON.
    private var parsedStyleName: String { load.isGivenAsJSON ? "JSON" : styleURL ?? "JSON" }

    private mutating func parseStyle(_ data: [UInt8]) -> [Action] {
        // GL JS checks a style before it builds one of it: what the check refuses is what it says,
        // even where mapsim's reading of the style would stop at one of those errors.
        let check = validationCheck(of: data)
        if let refusal = check.refusal {
            return fail("the style \(parsedStyleName) does not load: \(refusal)")
        }
        var parsed: Style
        do {
            parsed = try Style.parse(data, flavor: options.engine.flavor)
        } catch {
            return fail("failed to parse the style \(parsedStyleName): \(error)")
        }
        // A Mapbox style meant to be imported loads as the import `basemap` of an empty style.
        if options.engine.imports != nil && parsed.loadsAsImport, let document = try? JSONParser.parse(data) {
            var wrapper = Style()
            wrapper.imports = [StyleImport(id: Self.wrappedRootImportID, url: "", data: document)]
            wrapper.declaresImports = true
            parsed = wrapper
        }
        load.style = parsed
        let state = globalState
        load.style?.layers = parsed.layers.map { $0.resolvingVisibility(globalState: state) }
        load.phase = .parsed
        var actions: [Action] = check.warnings + [.emit(.styleDataLoaded(StyleDataLoaded(type: .style)))]
        actions += ignoredFeatures(of: parsed).map { feature, message in
            .emit(.styleFeatureIgnored(StyleFeatureIgnored(feature: feature, engine: options.engine.description, message: message)))
        }
        let styleCamera = CameraOptions(center: parsed.center, zoom: parsed.zoom, bearing: parsed.bearing, pitch: parsed.pitch)
        if options.engine.imports?.cameraWaitsForImports == true, !parsed.imports.isEmpty {
            load.waitingCamera = styleCamera
        } else {
            actions += takeStyleCamera(styleCamera)
        }
        actions.append(.invalidate)

        load.sprite = SpriteState(sources: parsed.sprites)
        for (index, sheet) in parsed.sprites.enumerated() {
            actions.append(.request(.spriteJSON(index), resources.spriteJSON(sheet, pixelRatio: viewport.pixelRatio)))
            actions.append(.request(.spriteImage(index), resources.spriteImage(sheet, pixelRatio: viewport.pixelRatio)))
        }
        if parsed.sprites.isEmpty {
            actions.append(.emit(.styleDataLoaded(StyleDataLoaded(type: .sprite))))
        }
        for source in parsed.sources { actions += loadMetadata(of: source) }
        if options.engine.imports != nil { actions += startImportTree(root: parsed) }
        return actions + checkStyleLoaded()
    }

    /// The style's own camera, under what the user set, as the map's.
    mutating func takeStyleCamera(_ styleCamera: CameraOptions) -> [Action] {
        let defaultCamera = styleCamera.merged(with: userCamera).applied(to: camera)
        guard defaultCamera != camera else { return [] }
        camera = defaultCamera
        return [.emit(.cameraChanged)]
    }

    /// What `style` uses that the engine does not draw, with what it does instead, in the order of
    /// `StyleFeature`.
    private func ignoredFeatures(of style: Style) -> [(StyleFeature, String)] {
        let used: [StyleFeature: Bool] = [.globe: style.projection != .mercator, .terrain: style.terrain != nil,
                                          .video: style.sources.contains { $0.kind == .video }, .globalState: style.usesGlobalState,
                                          .imports: !style.imports.isEmpty]
        return StyleFeature.allCases.compactMap { feature in
            guard used[feature] == true, let message = options.engine.ignores[feature] else { return nil }
            return (feature, message)
        }
    }

    /// A new style: every request of the old one is cancelled, and its load forgotten.
    private mutating func reset() -> [Action] {
        let actions: [Action] = load.phase != .empty ? [.cancelStyleLoad] : []
        load = StyleLoad()
        return actions
    }
}
