import MapSim
import MapSimStyle

/// An offline region download as a pure state machine, as MapLibre Native's `OfflineDownload`: the
/// style first; then the sources' TileJSON, the sprites, glyph ranges, GeoJSON documents and images;
/// then every tile of the region. Each resource is looked up in the database first — a usable row
/// there is linked to the region without a request, so an interrupted download resumes with only
/// what is missing — then asked of the network under the pipeline's cap on requests in flight and
/// its retry schedule. Answers are written to the region (a tile the server lacks is stored as no
/// content, as MapLibre does); a resource the server lacks is skipped; other failures are retried,
/// then reported once. The `mapbox://` tile count limit stops the download with MapLibre's error.
///
/// Tiles are made as the window of resources under way allows, so a download of millions of tiles
/// takes no more memory than one of a few. With `glyphs: .needed` the glyph ranges come last: only
/// those the region's vector tiles lay out need.
///
/// For an engine that loads Mapbox `imports` (the plan's `followsImports`), each style the style
/// imports is requested as that engine requests it, and its sources, tiles, sprites, glyph ranges
/// and models join the download as it arrives, then its own imports; a resource two styles share
/// is downloaded once. An import that cannot be downloaded or read is a failure named by its chain
/// of imports; the download goes on without it.
struct RegionDownload: DrivenMachine {
    /// Which glyph ranges are downloaded.
    enum GlyphChoice: Sendable, Equatable {
        /// Every range of every font stack, as MapLibre Native downloads (less the ideographs unless
        /// the region includes them).
        case all
        /// Only the ranges the text of the region's tiles needs.
        case needed
    }

    /// What happens to the download.
    enum Input: Sendable {
        /// Begin with the style.
        case start
        /// A backend answered an attempt.
        case answer(LoadAnswer)
        /// A retry of a request is due.
        case timer(RequestID)
        /// What the database holds of a batch of resources, in its order.
        case lookedUp(batch: Int, [OfflineDatabase.RegionLookup])
    }

    /// What the downloader performs.
    enum Output: Sendable {
        /// Look the resources up in the database, with the bodies where `bodies` says so; the answer
        /// is `Input.lookedUp`.
        case lookUp(batch: Int, [Resource], bodies: [Bool])
        /// Store a network answer as part of the region (its body packed as stored).
        case store(Resource, Response, StoredBody)
        /// The resource is stored already: make it part of the region.
        case link(Resource)
        /// An event for the region's observer.
        case report(OfflineRegionEvent)
        /// Attempt `attempt` (1 for the first) of a resource failed, and the pipeline will try it
        /// again on its retry schedule, `after` this long: what a download that waits is waiting for.
        case retrying(Resource, Response.Failure, attempt: Int, after: SimTime?)
    }

    /// How the download ended.
    enum Outcome: Sendable, Equatable {
        /// Every resource is stored.
        case complete
        /// Some resources could not be downloaded (listed in `failures`).
        case incomplete
        /// The style could not be downloaded or read.
        case styleFailed(String)
        /// The `mapbox://` tile count limit was reached.
        case tileLimitExceeded(Int)
        /// A resource needs what the download was not given — a Mapbox access token — so nothing
        /// more is asked for; the message names what to set.
        case refused(String)
    }

    /// Resources looked up or requested and not yet done, at most; refilled when half of it is done.
    static let window = 512
    /// Resources looked up at a time.
    static let lookupBatch = 256

    let region: Int64
    let plan: RegionPlan
    let glyphChoice: GlyphChoice
    /// The engine whose glyph rules decide which ranges the tiles need.
    let engine: Engine
    /// The time rows must be usable at (not expired if they must be revalidated), in seconds.
    let usableAt: Int64
    /// Bodies packed for storage as they arrived, for `answered` to take.
    let packed: PackedBodies
    /// The `mapbox://` tile count limit.
    let mapboxTileLimit: Int
    /// The Mapbox API, when no access token was given for it (`RequestPipeline.Configuration`).
    let tokenlessMapboxAPI: MapboxURL?
    /// `mapbox://` tiles the regions hold, counted as the download adds them.
    private var mapboxTiles: Int
    /// `mapbox://` tiles asked of the network and not yet answered.
    private var mapboxTilesInFlight = 0
    /// `mapbox://` tiles waiting for those in flight: past the limit they are never asked for.
    private var parked: [Resource] = []
    private(set) var status = OfflineRegionStatus()
    /// Resources that could not be downloaded, each with why.
    private(set) var failures: [String] = []
    /// What the server does not have (404): MapLibre skips it; the region is not complete without it.
    private(set) var absent: [Resource] = []
    /// How the download ended, once it has.
    private(set) var outcome: Outcome?
    /// Glyph ranges the region's tiles need (with `glyphs: .needed`), by the style whose tiles need
    /// them; how many were queued; and the ranges MapLibre would download.
    private(set) var neededGlyphs: [StyleScope: Set<GlyphRangeKey>] = [:]
    private(set) var neededGlyphRangeCount = 0
    /// Whether the region holds styles the style imports (or its models): a Mapbox engine's region
    /// of a style with `imports`.
    private(set) var followsImports = false
    private(set) var allGlyphRangeCount = 0

    private var pipeline: RequestPipeline
    /// The styles of the region arrived so far: the root first, then its imports.
    private var members: [RegionPlan.Member] = []
    /// The import styles still to come, by URL.
    private var awaitedImports: [String: RegionPlan.PendingImport] = [:]
    /// With imports: the URLs of the styles, TileJSON and other resources queued (tile sets by
    /// template), as the database keys them, so that what two styles share is downloaded once —
    /// a Mapbox API URL and its `mapbox://` form are one.
    private var queuedURLs: Set<String> = []
    private var queue: [Resource] = []
    private var queueHead = 0
    private var tileSets: [RegionPlan.TileSet] = []
    /// Every tile set, by URL template, to lay tiles out by.
    private var setsByTemplate: [String: RegionPlan.TileSet] = [:]
    private var tiles: RegionPlan.TileSetIterator?
    /// The TileJSON documents still to come, by URL, with their source and its style.
    private var awaitedTileJSON: [String: (source: StyleSource, scope: StyleScope)] = [:]
    private var outstanding = 0
    private var lookups: [Int: [Resource]] = [:]
    private var nextBatch = 0
    private var requests: [RequestID: Resource] = [:]
    /// The failed attempts of requests under way that will be tried again.
    private var failedAttempts: [RequestID: Int] = [:]
    private var nextRequest = 0
    /// Whether every tile was laid out and the glyph ranges they need (`neededGlyphs`) were queued.
    private(set) var glyphsQueued = false

    /// A download of `plan`'s region `region`, through a pipeline like `loading` but on the network
    /// alone and with `retries` retries of each resource.
    init(region: Int64, plan: RegionPlan, glyphs: GlyphChoice, usableAt: Int64, mapboxTiles: Int, mapboxTileLimit: Int,
         loading: RequestPipeline.Configuration, retries: Int, engine: Engine = .maplibreNative, packed: PackedBodies = PackedBodies()) {
        self.region = region
        self.packed = packed
        self.engine = engine
        self.plan = plan
        glyphChoice = glyphs
        self.usableAt = usableAt
        self.mapboxTiles = mapboxTiles
        self.mapboxTileLimit = mapboxTileLimit
        tokenlessMapboxAPI = loading.tokenlessMapboxAPI
        var configuration = RequestPipeline.Configuration(maximumConcurrentRequests: loading.maximumConcurrentRequests, usesCache: false,
                                                          wallClock: loading.wallClock, maximumRetries: max(0, retries))
        configuration.reportsRequests = false
        pipeline = RequestPipeline(configuration: configuration)
    }

    static func input(for answer: LoadAnswer) -> Input { .answer(answer) }

    mutating func handle(_ input: Input, at now: SimTime) -> [Action] {
        guard outcome == nil || { if case .start = input { true } else { false } }() else { return [] }
        var actions: [Action] = []
        switch input {
        case .start:
            outcome = nil
            status = OfflineRegionStatus(downloadState: .active, requiredResourceCount: 1)
            actions += report()
            outstanding = 1
            actions += lookUp([plan.style])
        case .lookedUp(let batch, let found):
            for (resource, lookup) in zip(lookups.removeValue(forKey: batch) ?? [], found) {
                guard outcome == nil else { break }
                if let size = lookup.storedSize {
                    actions.append(.output(.link(resource)))
                    if isMapboxTile(resource) && !lookup.isInRegion { mapboxTiles += 1 }
                    actions += done(resource, size: size, body: lookup.body, at: now)
                } else {
                    actions += request(resource, at: now)
                }
            }
        case .answer(let answer):
            actions += route(pipeline.handle(.answer(answer), at: now), at: now)
        case .timer(let id):
            actions += route(pipeline.handle(.timer(id), at: now), at: now)
        }
        if outcome == nil { actions += advance(at: now) }
        return actions
    }

    // MARK: - Internals

    private func report() -> [Action] {
        [.output(.report(.statusChanged(region: region, status)))]
    }

    /// Whether `resource` is a tile of a `mapbox://` template, which the tile count limit counts.
    private func isMapboxTile(_ resource: Resource) -> Bool {
        guard let tile = resource.tileData else { return false }
        return MapboxURL.isMapbox(plan.resources.mapbox.canonical(tile.urlTemplate))
    }

    private mutating func lookUp(_ resources: [Resource]) -> [Action] {
        guard !resources.isEmpty else { return [] }
        let batch = nextBatch
        nextBatch += 1
        lookups[batch] = resources
        let bodies = resources.map { resource in
            resource.kind == .style || awaitedTileJSON[resource.url] != nil || (glyphChoice == .needed && resource.tileData != nil)
        }
        return [.output(.lookUp(batch: batch, resources, bodies: bodies))]
    }

    /// Asks the network for a resource the database lacks. A `mapbox://` tile is asked for only while
    /// the tiles held and in flight stay under the limit; at the limit the download stops.
    private mutating func request(_ resource: Resource, at now: SimTime) -> [Action] {
        // Without a token the Mapbox API answers nothing: the first of its URLs stops the download,
        // rather than fail each of its resources in turn.
        if let refusal = tokenlessMapboxAPI?.tokenRefusal(of: resource.url) {
            return stop(.refused(refusal), at: now)
        }
        if isMapboxTile(resource) {
            if mapboxTiles >= mapboxTileLimit {
                return [.output(.report(.tileLimitExceeded(region: region, limit: mapboxTileLimit)))] + stop(.tileLimitExceeded(mapboxTileLimit), at: now)
            }
            if mapboxTiles + mapboxTilesInFlight >= mapboxTileLimit {
                parked.append(resource)
                return []
            }
            mapboxTilesInFlight += 1
        }
        let id = RequestID(value: nextRequest)
        nextRequest += 1
        requests[id] = resource
        var low = resource.loading(from: .network)
        low.priority = .low
        return route(pipeline.handle(.request(id, low), at: now), at: now)
    }

    private mutating func route(_ pipelineActions: [RequestPipeline.Action], at now: SimTime) -> [Action] {
        var actions: [Action] = []
        for action in pipelineActions {
            switch action {
            case .load(let order): actions.append(.load(order))
            case .cancelLoad(let attempt): actions.append(.cancelLoad(attempt))
            // A download keeps no request once it is answered: the expiry refresh the pipeline
            // schedules for a response with max-age never comes (nothing waits for it).
            case .scheduleTimer(let id, let time) where requests[id] != nil: actions.append(.schedule(.timer(id), at: time))
            case .scheduleTimer: continue
            case .deliver(let id, let response, let final) where final: actions += answered(id, response, at: now)
            // A retried failure is only noted: the resource waits for its last answer.
            case .deliver(let id, let response, _):
                guard let failure = response.error, let resource = requests[id] else { continue }
                let attempt = failedAttempts[id, default: 0] + 1
                failedAttempts[id] = attempt
                let retry = pipelineActions.lazy.compactMap { action -> SimTime? in
                    guard case .scheduleTimer(let timer, let time) = action, timer == id else { return nil }
                    return time - now
                }.first
                actions.append(.output(.retrying(resource, failure, attempt: attempt, after: retry)))
            // A download is always online, writes its answers itself, and sends no map events (its
            // pipeline makes none).
            case .store, .refreshCache, .scheduleConnectivity, .emit: continue
            }
        }
        return actions
    }

    private mutating func answered(_ id: RequestID, _ response: Response, at now: SimTime) -> [Action] {
        guard let resource = requests.removeValue(forKey: id) else { return [] }
        failedAttempts[id] = nil
        let mapboxTile = isMapboxTile(resource)
        if mapboxTile { mapboxTilesInFlight -= 1 }
        // The pipeline forgets the request (and would-be expiry refreshes).
        var actions = route(pipeline.handle(.cancel(id), at: now), at: now)
        guard outcome == nil else { return actions }
        guard let failure = response.error else {
            let body = response.data.map { packed.take($0, zlib: response.zlibData, of: resource) } ?? StoredBody(data: nil, compressed: false)
            actions.append(.output(.store(resource, response, body)))
            if mapboxTile { mapboxTiles += 1 }
            return actions + done(resource, size: body.data?.count ?? 0, body: response.data, at: now)
        }
        actions.append(.output(.report(.responseError(region: region, url: resource.url, kind: resource.kind, failure))))
        outstanding -= 1
        let pendingImport = resource.kind == .style ? awaitedImports.removeValue(forKey: resource.url) : nil
        if resource.kind == .style && pendingImport == nil {
            actions += stop(.styleFailed("cannot download the style \(resource.url): \(failure.message)"), at: now)
        } else if failure.reason == .notFound {
            // MapLibre skips what the server does not have: its download no longer counts it (the
            // region's status, worked out from the database, still does).
            absent.append(resource)
            status.requiredResourceCount -= 1
            awaitedTileJSON[resource.url] = nil
            actions += report()
        } else if let pendingImport {
            failures.append("import \(pendingImport.scope.chain): cannot download its style \(resource.url): \(failure.message)")
        } else {
            failures.append("\(resource.url): \(failure.message)")
        }
        return actions
    }

    private mutating func done(_ resource: Resource, size: Int, body: [UInt8]?, at now: SimTime) -> [Action] {
        outstanding -= 1
        status.completedResourceCount += 1
        status.completedResourceSize += size
        if resource.tileData != nil {
            status.completedTileCount += 1
            status.completedTileSize += size
            if glyphChoice == .needed, let body { layOut(resource, body) }
        }
        if resource.kind == .style, let pending = awaitedImports.removeValue(forKey: resource.url) {
            do {
                load(try plan.member(pending, bytes: body ?? []))
            } catch {
                failures.append("import \(pending.scope.chain): cannot read its style \(resource.url): \(error)")
            }
            notePrecision()
        } else if resource.kind == .style {
            guard let body else { return stop(.styleFailed("the style \(resource.url) has no content"), at: now) }
            do {
                let style = try Style.parse(body, flavor: plan.followsImports ? .mapbox : .maplibre)
                _ = isFirstQueued(resource.url)
                followsImports = plan.followsImports
                    && (style.declaresImports || style.loadsAsImport || !style.models.isEmpty || style.sources.contains { $0.kind == .model })
                load(plan.root(style))
                notePrecision()
            } catch {
                return stop(.styleFailed("cannot read the style \(resource.url): \(error)"), at: now)
            }
        } else if let awaited = awaitedTileJSON.removeValue(forKey: resource.url) {
            tileJSONArrived(awaited.source, scope: awaited.scope, url: resource.url, body: body)
        }
        return report()
    }

    /// Queues what a style of the region names: its TileJSON first (their tiles are the bulk of
    /// the work), its tile sets, its other resources; then its imports — an inline one loaded at
    /// once, another requested. With imports, what an earlier style queued is not queued again.
    private mutating func load(_ member: RegionPlan.Member) {
        members.append(member)
        let shared = followsImports
        for source in plan.tiledSources(member.style) {
            if let metadata = plan.tileJSON(of: source, in: member) {
                guard !shared || isFirstQueued(metadata.url) else { continue }
                status.requiredResourceCount += 1
                awaitedTileJSON[metadata.url] = (source, member.scope)
                queue.insert(metadata, at: queueHead)
            } else if let set = plan.tileSet(of: source, tileJSON: TileJSON(tiles: source.tiles ?? []), base: member.resources.styleURL, scope: member.scope) {
                add(set)
            }
        }
        allGlyphRangeCount = shared ? plan.glyphRangeCount(members) : plan.glyphRangeCount(member.style)
        let named = plan.styleResources(member, glyphs: glyphChoice == .all).filter { !shared || isFirstQueued($0.url) }
        status.requiredResourceCount += named.count
        queue += named
        for pending in plan.imports(of: member) {
            switch pending.style {
            case .inline:
                do {
                    load(try plan.member(pending))
                } catch {
                    failures.append("import \(pending.scope.chain): cannot read its style: \(error)")
                }
            case .url(let url):
                guard isFirstQueued(url) else { continue }
                status.requiredResourceCount += 1
                awaitedImports[url] = pending
                queue.insert(.style(url), at: queueHead)
            }
        }
    }

    /// The required count is precise once no style or TileJSON it depends on is awaited.
    private mutating func notePrecision() {
        status.requiredResourceCountIsPrecise = awaitedTileJSON.isEmpty && awaitedImports.isEmpty
    }

    private mutating func tileJSONArrived(_ source: StyleSource, scope: StyleScope, url: String, body: [UInt8]?) {
        do {
            if let set = plan.tileSet(of: source, tileJSON: try TileJSON.parse(body ?? []), base: url, scope: scope) { add(set) }
        } catch {
            failures.append("\(url): cannot read the TileJSON: \(error)")
        }
        notePrecision()
    }

    /// Notes `url` as queued; false when it, or a URL the database keys as it, was queued before.
    private mutating func isFirstQueued(_ url: String) -> Bool {
        queuedURLs.insert(plan.resources.mapbox.canonical(url)).inserted
    }

    private mutating func add(_ set: RegionPlan.TileSet) {
        guard !followsImports || isFirstQueued(set.template.template) else { return }
        let count = set.count
        status.requiredResourceCount += count
        status.requiredTileCount += count
        tileSets.append(set)
        setsByTemplate[set.template.template] = set
    }

    /// Notes the glyph ranges a vector tile's text needs, at each zoom it is shown at in the region.
    private mutating func layOut(_ resource: Resource, _ body: [UInt8]) {
        guard let tile = resource.tileData, let set = setsByTemplate[tile.urlTemplate],
              let style = members.first(where: { $0.scope == set.scope })?.style else { return }
        for zoom in set.layoutZooms(of: tile.id) {
            guard let needs = try? TileRequirements(vectorTile: body, style: style, source: set.source, tile: tile.id, zoom: zoom, engine: engine, encoding: set.encoding) else { return }
            neededGlyphs[set.scope, default: []].formUnion(needs.glyphs)
        }
    }

    /// Looks up the next resources while the window has room; when nothing is left, queues the glyph
    /// ranges the tiles needed (with `glyphs: .needed`), or ends the download.
    private mutating func advance(at now: SimTime) -> [Action] {
        var actions: [Action] = []
        while !parked.isEmpty && outcome == nil && (mapboxTiles >= mapboxTileLimit || mapboxTiles + mapboxTilesInFlight < mapboxTileLimit) {
            actions += request(parked.removeFirst(), at: now)
        }
        guard outcome == nil else { return actions }
        var batch: [Resource] = []
        // The window is refilled a batch at a time: one lookup for many resources, not one for each.
        let refill = outstanding <= Self.window - Self.lookupBatch
        while refill && outstanding < Self.window, let next = nextResource() {
            outstanding += 1
            batch.append(next)
            if batch.count == Self.lookupBatch {
                actions += lookUp(batch)
                batch = []
            }
        }
        actions += lookUp(batch)
        guard outstanding == 0, awaitedTileJSON.isEmpty, awaitedImports.isEmpty, !members.isEmpty else { return actions }
        if glyphChoice == .needed && !glyphsQueued {
            glyphsQueued = true
            let ranges = members.flatMap { plan.glyphRanges($0, needed: neededGlyphs[$0.scope] ?? []) }
                .filter { !followsImports || isFirstQueued($0.url) }
            neededGlyphRangeCount = ranges.count
            status.requiredResourceCount += ranges.count
            queue += ranges
            if !ranges.isEmpty { return actions + advance(at: now) }
        }
        return actions + stop(failures.isEmpty ? .complete : .incomplete, at: now)
    }

    /// The next resource to look up: queued ones first, then tiles, one set after another.
    private mutating func nextResource() -> Resource? {
        if queueHead < queue.count {
            defer {
                queueHead += 1
                if queueHead > 1_024 && queueHead * 2 > queue.count {
                    queue.removeFirst(queueHead)
                    queueHead = 0
                }
            }
            return queue[queueHead]
        }
        while true {
            if var current = tiles {
                if let id = current.next() {
                    tiles = current
                    return current.set.resource(id)
                }
                tiles = nil
            }
            guard !tileSets.isEmpty else { return nil }
            tiles = tileSets.removeFirst().makeIterator()
        }
    }

    private mutating func stop(_ outcome: Outcome, at now: SimTime) -> [Action] {
        self.outcome = outcome
        status.downloadState = .inactive
        var actions = report()
        let stopped = requests.keys.sorted()
        requests = [:]
        failedAttempts = [:]
        for id in stopped { actions += route(pipeline.handle(.cancel(id), at: now), at: now) }
        return actions
    }
}
