import MapSimJSON
import MapSimStyle

/// The load sequence of a map as a pure state machine: style → sprite → source metadata → tiles
/// (→ glyphs), following the Mapbox/MapLibre rules (README, "How the simulated map behaves").
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
        /// The most tiles one source may need for one view; a cover past it is refused.
        var maximumTilesPerSource = 10_000
        var mode = MapMode.continuous
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
    private(set) var styleURL: String?
    /// Everything the current style's load owns; a new style starts a new one.
    var load = StyleLoad()
    /// Images added at run time outlive style loads, as in the SDKs.
    var runtimeImages: Set<String> = []
    var nextRequest = 0
    var actions: [MapAction] = []

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

    /// Where the style's load is.
    var phase: Phase { load.phase }

    /// The parsed style, once loaded.
    var style: Style? { load.style }

    /// Whether the style, its sprite and every source's metadata are loaded.
    var isStyleLoaded: Bool { load.isStyleLoaded }

    /// The names of the images the loaded sprite sheets hold.
    var spriteImageNames: Set<String> { load.sprite.imageNames }

    /// The camera as the map applies it to this view.
    var effectiveCamera: Camera { camera.constrained(to: viewport) }

    // MARK: - API calls

    mutating func setStyleURL(_ url: String) {
        reset()
        let normalized = options.mapbox.style(url)
        styleURL = normalized
        let id = startRequest(.style, .style(normalized))
        load.phase = .loadingStyle(id)
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
        guard load.phase == .parsed else { throw LoadingError.invalidCall("cannot add source \"\(spec.id)\": no style is loaded yet") }
        guard !load.sources.contains(where: { $0.spec.id == spec.id }) else { throw LoadingError.invalidCall("source \"\(spec.id)\" already exists") }
        load.style?.sources.append(spec)
        actions.append(.emit(.sourceAdded(id: spec.id)))
        loadMetadata(of: spec)
        actions.append(.invalidate)
    }

    mutating func removeSource(id: String) throws(LoadingError) {
        guard let index = load.sources.firstIndex(where: { $0.spec.id == id }) else { throw LoadingError.invalidCall("source \"\(id)\" does not exist") }
        if let layer = load.style?.layers.first(where: { $0.source == id }) {
            throw LoadingError.invalidCall("source \"\(id)\" is in use by layer \"\(layer.id)\"")
        }
        let removed = load.sources.remove(at: index)
        load.style?.sources.removeAll { $0.id == id }
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
        guard let purpose = load.requests[id] else { return }
        if final { load.requests[id] = nil }
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

    mutating func receiveStyle(_ response: Response, id: RequestID) {
        guard load.phase == .loadingStyle(id) else { return }
        if response.error != nil { cancel(id) }
        if let error = response.error {
            fail("failed to load the style \(styleURL ?? ""): \(error.message)")
        } else if let data = response.data {
            parseStyle(data)
        } else {
            fail("failed to load the style \(styleURL ?? ""): the response has no content")
        }
    }

    mutating func fail(_ message: String) {
        load.phase = .failed(message)
        actions.append(.emit(.mapLoadingError(MapLoadingError(type: .style, message: message))))
    }

    mutating func parseStyle(_ data: [UInt8]) {
        let parsed: Style
        do {
            parsed = try Style.parse(data)
        } catch {
            fail("failed to parse the style \(styleURL ?? "JSON"): \(error)")
            return
        }
        load.style = parsed
        load.phase = .parsed
        actions.append(.emit(.styleDataLoaded(StyleDataLoaded(type: .style))))
        let styleCamera = CameraOptions(center: parsed.center, zoom: parsed.zoom, bearing: parsed.bearing, pitch: parsed.pitch)
        let defaultCamera = styleCamera.merged(with: userCamera).applied(to: camera)
        if defaultCamera != camera {
            camera = defaultCamera
            actions.append(.emit(.cameraChanged))
        }
        actions.append(.invalidate)

        load.sprite = SpriteState(sources: parsed.sprites)
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

    // MARK: - Requests

    /// A request id no other request of the map has.
    mutating func allocateRequestID() -> RequestID {
        defer { nextRequest += 1 }
        return RequestID(value: nextRequest)
    }

    @discardableResult
    mutating func startRequest(_ purpose: StyleLoad.RequestPurpose, _ resource: Resource) -> RequestID {
        let id = allocateRequestID()
        load.requests[id] = purpose
        actions.append(.request(id, resource))
        return id
    }

    mutating func cancel(_ id: RequestID) {
        guard load.requests.removeValue(forKey: id) != nil else { return }
        actions.append(.cancelRequest(id))
    }

    mutating func reset() {
        for id in load.requests.keys.sorted() { actions.append(.cancelRequest(id)) }
        load = StyleLoad()
    }

    func resolve(_ url: String) -> String {
        URLResolver.resolve(url, against: styleURL)
    }
}
