import MapSim
import MapSimStyle

/// An offline region download as a pure state machine over the request pipeline: each resource is
/// asked of the cache alone first (a usable copy is pinned without a request), then of the network
/// alone — under the pipeline's 20-in-flight limit and retry schedule, its response stored before
/// it is delivered. The style comes first; its sprites, glyph ranges and TileJSONs follow, and each
/// TileJSON adds its tiles of the region.
///
/// Time is virtual, as in a map run against the real network: retry back-offs pass at once when
/// nothing else is in flight, so a download never sleeps. `RegionDownloader` executes the actions.
struct RegionDownload: Sendable {
    /// What the executor must do.
    enum Effect: Sendable, Equatable {
        /// Load an attempt from a backend; its answer comes back through `answer`.
        case load(RequestID, AttemptID, RequestPipeline.Backend, Resource)
        /// Write a network response to the cache.
        case store(Resource, Response)
        /// A 304 confirmed the cached copy.
        case refresh(Resource, Response)
        /// Pin a delivered resource to the region.
        case pin(Resource)
    }

    private enum Stage: Sendable {
        case cache, network
    }

    private struct Wanted: Sendable {
        var resource: Resource
        var stage: Stage
        var failures = 0
    }

    let region: RegionDefinition
    let styleURL: String
    let mapbox: MapboxURL
    /// Failures of one resource that are retried (on the pipeline's schedule) before it counts as failed.
    let retries: Int
    private(set) var progress = RegionProgress(requiredResources: 1)
    /// Why the style could not be downloaded or parsed, once that is known.
    private(set) var styleFailure: String?
    private var pipeline: RequestPipeline
    private var timers = Scheduler<RequestID>()
    private var wanted: [RequestID: Wanted] = [:]
    private var sources: [StyleSource] = []
    private var nextRequest = 0
    private var effects: [Effect] = []

    init(region: RegionDefinition, mapbox: MapboxURL, maximumConcurrentRequests: Int, retries: Int) {
        self.region = region
        self.mapbox = mapbox
        self.retries = max(0, retries)
        styleURL = mapbox.style(region.styleURL)
        pipeline = RequestPipeline(configuration: .init(maximumConcurrentRequests: maximumConcurrentRequests, usesCache: true))
    }

    /// Whether a timer is waiting (a retry).
    var hasTimers: Bool { !timers.isEmpty }

    /// Starts with the style.
    mutating func start() {
        request(.style(styleURL))
    }

    /// The effects produced since the last call, in order.
    mutating func takeEffects() -> [Effect] {
        defer { effects = [] }
        return effects
    }

    /// A backend answered an attempt.
    mutating func answer(_ response: Response, for id: RequestID, attempt: AttemptID, from backend: RequestPipeline.Backend) {
        pipeline.answer(response, for: id, attempt: attempt, from: backend, at: timers.now)
        route(pipeline.takeActions())
    }

    /// Nothing is in flight: jumps to the next retry. Returns false when none is waiting.
    mutating func fireNextTimer() -> Bool {
        guard let (time, id) = timers.popNext(notAfter: SimTime(microseconds: .max)) else { return false }
        pipeline.timerFired(for: id, at: time)
        route(pipeline.takeActions())
        return true
    }

    // MARK: - Internals

    private mutating func request(_ resource: Resource, stage: Stage = .cache) {
        let id = RequestID(value: nextRequest)
        nextRequest += 1
        wanted[id] = Wanted(resource: resource, stage: stage)
        pipeline.request(id, resource.loading(from: stage == .cache ? .cache : .network), at: timers.now)
        route(pipeline.takeActions())
    }

    private mutating func route(_ actions: [MapAction]) {
        for action in actions {
            switch action {
            case .load(let request, let attempt, let backend, let resource):
                effects.append(.load(request, attempt, backend, resource))
            case .store(let resource, let response):
                effects.append(.store(resource, response))
            case .refreshCache(let resource, let response):
                effects.append(.refresh(resource, response))
            case .scheduleTimer(let id, let time):
                timers.schedule(id, at: time)
            case .deliver(let id, let response, let final):
                receive(response, for: id, final: final)
            case .cancelLoad, .emit, .request, .cancelRequest, .invalidate, .scheduleFrame, .scheduleGeoJSONUpdate, .fetched:
                // A load is only cancelled once it was answered here; events are for maps.
                continue
            }
        }
    }

    private mutating func receive(_ response: Response, for id: RequestID, final: Bool) {
        guard var entry = wanted[id] else { return }
        if response.error == nil {
            settle(id)
            effects.append(.pin(entry.resource))
            done(entry.resource, response)
        } else if entry.stage == .cache {
            settle(id)
            request(entry.resource, stage: .network)
        } else if !final && entry.failures < retries {
            entry.failures += 1
            wanted[id] = entry
        } else {
            settle(id)
            failed(entry.resource, response)
        }
    }

    /// The requester has what it wanted: the pipeline forgets the request (and any expiry refresh).
    private mutating func settle(_ id: RequestID) {
        wanted[id] = nil
        pipeline.cancel(id, at: timers.now)
        route(pipeline.takeActions())
    }

    private mutating func failed(_ resource: Resource, _ response: Response) {
        // A glyph range the server does not have is no failure: fonts cover only some ranges.
        if resource.kind == .glyphs && response.error?.reason == .notFound {
            progress.completedResources += 1
            return
        }
        let message = response.error?.message ?? "failed"
        if resource.kind == .style {
            styleFailure = "cannot download the style \(resource.url): \(message)"
            return
        }
        progress.failures.append("\(resource.url): \(message)")
    }

    private mutating func done(_ resource: Resource, _ response: Response) {
        let style: Style?
        if resource.kind == .style {
            do {
                style = try Style.parse(response.data ?? [])
            } catch {
                styleFailure = "cannot parse the style \(styleURL): \(error)"
                return
            }
        } else {
            style = nil
        }
        progress.completedResources += 1
        progress.completedBytes += response.size
        switch resource.kind {
        case .style:
            if let style { load(style) }
        case .source:
            guard let data = response.data, let index = sources.firstIndex(where: { resolve(mapbox.source($0.url ?? "")) == resource.url }) else { return }
            let source = sources.remove(at: index)
            guard let metadata = try? TileJSON.parse(data).overridden(by: source) else { return }
            requestAll(tiles(of: source, metadata: metadata, templateBase: resource.url))
        default:
            break
        }
    }

    private mutating func load(_ style: Style) {
        sources = style.sources.filter { $0.url != nil && $0.isTiled && $0.kind != .geojson }
        requestAll(styleResources(style) + sources.map { .source(resolve(mapbox.source($0.url ?? ""))) })
    }

    private mutating func requestAll(_ resources: [Resource]) {
        progress.requiredResources += resources.count
        for resource in resources { request(resource) }
    }

    /// The sprites, glyph ranges and inline tiles of a style.
    private func styleResources(_ style: Style) -> [Resource] {
        var resources: [Resource] = []
        for sheet in style.sprites {
            let base = resolve(mapbox.sprite(sheet.url))
            resources += [.spriteJSON(base: base, pixelRatio: region.pixelRatio), .spriteImage(base: base, pixelRatio: region.pixelRatio)]
        }
        if let glyphs = style.glyphs {
            let template = resolve(mapbox.glyphs(glyphs))
            var stacks: [[String]] = []
            for layer in style.layers where layer.kind == .symbol && layer.hasText && !stacks.contains(layer.textFont) {
                stacks.append(layer.textFont)
            }
            for stack in stacks {
                for start in stride(from: 0, to: 65_536, by: 256) {
                    resources.append(.glyphs(template: template, fontStack: stack, rangeStart: start))
                }
            }
        }
        for source in style.sources where source.url == nil && source.tiles != nil {
            let metadata = TileJSON(tiles: source.tiles ?? []).overridden(by: source)
            resources += tiles(of: source, metadata: metadata, templateBase: styleURL)
        }
        return resources
    }

    /// Every tile of the region's pyramid that the source has.
    private func tiles(of source: StyleSource, metadata: TileJSON, templateBase: String) -> [Resource] {
        guard let first = metadata.tiles.first else { return [] }
        let template = TileURLTemplate(URLResolver.resolve(mapbox.tile(first), against: templateBase), scheme: metadata.scheme)
        let low = max(region.minZoom, metadata.minZoom)
        let high = min(region.maxZoom, metadata.maxZoom)
        guard low <= high else { return [] }
        var resources: [Resource] = []
        for z in low...high {
            let n = Double(1 << z)
            let minX = Int(WebMercator.x(longitude: region.bounds.west) * n)
            let maxX = min(Int(WebMercator.x(longitude: region.bounds.east) * n), (1 << z) - 1)
            let minY = Int(WebMercator.y(latitude: region.bounds.north) * n)
            let maxY = min(Int(WebMercator.y(latitude: region.bounds.south) * n), (1 << z) - 1)
            guard minX <= maxX, minY <= maxY else { continue }
            for x in max(minX, 0)...maxX {
                for y in max(minY, 0)...maxY {
                    let id = CanonicalTileID(z: z, x: x, y: y)
                    guard metadata.bounds.intersects(id) else { continue }
                    resources.append(.tile(template, id: id, pixelRatio: region.pixelRatio))
                }
            }
        }
        return resources
    }

    private func resolve(_ url: String) -> String {
        URLResolver.resolve(url, against: styleURL)
    }
}
