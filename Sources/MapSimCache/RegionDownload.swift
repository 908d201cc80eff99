import MapSim
import MapSimStyle

/// An offline region download as a pure state machine over the request pipeline: each resource is
/// asked of the cache alone first (a usable copy is pinned without a request), then of the network
/// alone — under the pipeline's 20-in-flight limit and retry schedule, its response stored before
/// it is delivered. The style comes first; its sprites, glyph ranges and TileJSONs follow, and each
/// TileJSON adds its tiles of the region.
///
/// A `DriveLoop` runs it on a virtual clock of its own, as a map's; retry back-offs pass in virtual
/// time, so a download never sleeps. `RegionDownloader` performs its outputs.
struct RegionDownload: DrivenMachine {
    /// What happens to the download.
    enum Input: Sendable {
        /// Begin with the style.
        case start
        /// A backend answered an attempt.
        case answer(LoadAnswer)
        /// A retry of a request is due.
        case timer(RequestID)
    }

    /// What the downloader performs.
    enum Output: Sendable, Equatable {
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
    /// The style's URLs, resolved and normalized.
    let resources: StyleResources
    /// Failures of one resource that are retried (on the pipeline's schedule) before it counts as failed.
    let retries: Int
    private(set) var progress = RegionProgress(requiredResources: 1)
    /// Why the style could not be downloaded or parsed, once that is known.
    private(set) var styleFailure: String?
    private var pipeline: RequestPipeline
    private var wanted: [RequestID: Wanted] = [:]
    private var sources: [StyleSource] = []
    private var nextRequest = 0
    /// The actions of the input being handled.
    private var actions: [Action] = []

    init(region: RegionDefinition, mapbox: MapboxURL, loading: RequestPipeline.Configuration, retries: Int) {
        self.region = region
        self.retries = max(0, retries)
        resources = StyleResources(styleURL: mapbox.style(region.styleURL), mapbox: mapbox)
        // Always online, through the cache, with the download's own retry count.
        pipeline = RequestPipeline(configuration: .init(maximumConcurrentRequests: loading.maximumConcurrentRequests, usesCache: true,
                                                        wallClock: loading.wallClock))
    }

    static func input(for answer: LoadAnswer) -> Input { .answer(answer) }

    mutating func handle(_ input: Input, at now: SimTime) -> [Action] {
        switch input {
        case .start: request(resources.style, at: now)
        case .answer(let answer): route(pipeline.handle(.answer(answer), at: now), at: now)
        case .timer(let id): route(pipeline.handle(.timer(id), at: now), at: now)
        }
        defer { actions = [] }
        return actions
    }

    // MARK: - Internals

    private mutating func request(_ resource: Resource, stage: Stage = .cache, at now: SimTime) {
        let id = RequestID(value: nextRequest)
        nextRequest += 1
        wanted[id] = Wanted(resource: resource, stage: stage)
        route(pipeline.handle(.request(id, resource.loading(from: stage == .cache ? .cache : .network)), at: now), at: now)
    }

    private mutating func route(_ pipelineActions: [RequestPipeline.Action], at now: SimTime) {
        for action in pipelineActions {
            switch action {
            case .load(let order): actions.append(.load(order))
            case .cancelLoad(let attempt): actions.append(.cancelLoad(attempt))
            case .store(let resource, let response): actions.append(.output(.store(resource, response)))
            case .refreshCache(let resource, let response): actions.append(.output(.refresh(resource, response)))
            case .scheduleTimer(let id, let time): actions.append(.schedule(.timer(id), at: time))
            case .deliver(let id, let response, let final): receive(response, for: id, final: final, at: now)
            // A download is always online, and its events are for maps.
            case .scheduleConnectivity, .emit: continue
            }
        }
    }

    private mutating func receive(_ response: Response, for id: RequestID, final: Bool, at now: SimTime) {
        guard var entry = wanted[id] else { return }
        if response.error == nil {
            settle(id, at: now)
            actions.append(.output(.pin(entry.resource)))
            done(entry.resource, response, at: now)
        } else if entry.stage == .cache {
            settle(id, at: now)
            request(entry.resource, stage: .network, at: now)
        } else if !final && entry.failures < retries {
            entry.failures += 1
            wanted[id] = entry
        } else {
            settle(id, at: now)
            failed(entry.resource, response)
        }
    }

    /// The requester has what it wanted: the pipeline forgets the request (and any expiry refresh).
    private mutating func settle(_ id: RequestID, at now: SimTime) {
        wanted[id] = nil
        route(pipeline.handle(.cancel(id), at: now), at: now)
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

    private mutating func done(_ resource: Resource, _ response: Response, at now: SimTime) {
        let style: Style?
        if resource.kind == .style {
            do {
                style = try Style.parse(response.data ?? [])
            } catch {
                styleFailure = "cannot parse the style \(resource.url): \(error)"
                return
            }
        } else {
            style = nil
        }
        progress.completedResources += 1
        progress.completedBytes += response.size
        switch resource.kind {
        case .style:
            if let style { load(style, at: now) }
        case .source:
            guard let data = response.data, let index = sources.firstIndex(where: { resources.metadata(of: $0)?.url == resource.url }) else { return }
            let source = sources.remove(at: index)
            guard let metadata = try? TileJSON.parse(data).overridden(by: source) else { return }
            requestAll(tiles(of: source, metadata: metadata, templateBase: resource.url), at: now)
        default:
            break
        }
    }

    private mutating func load(_ style: Style, at now: SimTime) {
        sources = style.sources.filter { $0.url != nil && $0.isTiled && $0.kind != .geojson }
        requestAll(styleResources(style) + sources.compactMap { resources.metadata(of: $0) }, at: now)
    }

    private mutating func requestAll(_ wanted: [Resource], at now: SimTime) {
        progress.requiredResources += wanted.count
        for resource in wanted { request(resource, at: now) }
    }

    /// The sprites, glyph ranges and inline tiles of a style.
    private func styleResources(_ style: Style) -> [Resource] {
        var resources: [Resource] = []
        for sheet in style.sprites {
            resources += [self.resources.spriteJSON(sheet, pixelRatio: region.pixelRatio), self.resources.spriteImage(sheet, pixelRatio: region.pixelRatio)]
        }
        if let glyphs = style.glyphs {
            let template = self.resources.glyphTemplate(glyphs)
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
            resources += tiles(of: source, metadata: metadata, templateBase: self.resources.styleURL)
        }
        return resources
    }

    /// Every tile of the region's pyramid that the source has.
    private func tiles(of source: StyleSource, metadata: TileJSON, templateBase: String?) -> [Resource] {
        guard let template = resources.tileTemplate(metadata, base: templateBase) else { return [] }
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
}
