import MapSim

/// Downloads an offline region into a cache, as MapLibre's offline download does: the style, its
/// sprites, the glyph ranges its text can use, every source's TileJSON and every tile of the
/// region's pyramid — each pinned to the region so that it is never evicted. Entries already in the
/// cache are pinned without a request. Requests go through the request pipeline, with its limit on
/// requests in flight and its retry schedule (`RegionDownload`).
public struct RegionDownloader: Sendable {
    /// The cache to fill.
    public var cache: SQLiteCache
    /// Answers `file://` and `asset://` URLs.
    public var file: any ResourceLoader
    /// The network.
    public var network: any ResourceLoader
    /// How `mapbox://` URLs are normalized.
    public var mapbox: MapboxURL
    /// The most requests in flight at once.
    public var maximumConcurrentRequests: Int
    /// How many failures of one resource are retried, on the pipeline's schedule, before it counts as failed.
    public var retries: Int

    /// A downloader.
    public init(cache: SQLiteCache, file: any ResourceLoader, network: any ResourceLoader, mapbox: MapboxURL = MapboxURL(),
                maximumConcurrentRequests: Int = 20, retries: Int = 3) {
        self.cache = cache
        self.file = file
        self.network = network
        self.mapbox = mapbox
        self.maximumConcurrentRequests = max(1, maximumConcurrentRequests)
        self.retries = max(0, retries)
    }

    /// Downloads `region`, calling `progress` after every resource; returns the region's id and the
    /// final progress. A style that cannot be loaded or parsed is an error.
    public func download(_ region: RegionDefinition, progress: @escaping @Sendable (RegionProgress) -> Void = { _ in }) async throws(CacheError) -> (id: Int64, progress: RegionProgress) {
        let id = try cache.createRegion(definition: region.json)
        var run = RegionDownload(region: region, mapbox: mapbox, maximumConcurrentRequests: maximumConcurrentRequests, retries: retries)
        let backends = ResourceBackends(file: file, cache: cache, network: network)
        typealias Answer = (request: RequestID, attempt: AttemptID, backend: RequestPipeline.Backend, response: Response)
        run.start()
        await withTaskGroup(of: Answer.self) { group in
            while true {
                for effect in run.takeEffects() {
                    switch effect {
                    case .load(let request, let attempt, let backend, let resource):
                        let load = backends.loader(for: backend, resource: resource)
                        group.addTask { (request, attempt, backend, await load()) }
                    case .store(let resource, let response):
                        cache.store(resource, response)
                    case .refresh(let resource, let response):
                        cache.refresh(resource, response)
                    case .pin(let resource):
                        try? cache.pin(resource, to: id)
                    }
                }
                if let answer = await group.next() {
                    run.answer(answer.response, for: answer.request, attempt: answer.attempt, from: answer.backend)
                    progress(run.progress)
                } else if !run.fireNextTimer() {
                    break
                }
            }
        }
        await cache.flush()
        if let failure = run.styleFailure { throw CacheError(.downloadFailed, path: region.styleURL, failure) }
        return (id, run.progress)
    }
}
