import MapSim

/// Downloads an offline region into a cache, as MapLibre's offline download does: the style, its
/// sprites, the glyph ranges its text can use, every source's TileJSON and every tile of the
/// region's pyramid — each pinned to the region so that it is never evicted. Entries already in the
/// cache are pinned without a request. Requests go through the request pipeline, with its limit on
/// requests in flight and its retry schedule (`RegionDownload`), driven by a `DriveLoop` on the
/// backends and delivery model `LoadingEnvironment` gives it.
public struct RegionDownloader: Sendable {
    /// The cache to fill.
    public var cache: SQLiteCache
    /// The backends the download loads through; their cache is `cache`.
    public var backends: ResourceBackends
    /// When answers arrive, in the download's virtual time.
    public var timing: any DeliveryTiming
    /// How `mapbox://` URLs are normalized.
    public var mapbox: MapboxURL
    /// The cap on requests in flight and the wall clock.
    public var loading: RequestPipeline.Configuration
    /// How many failures of one resource are retried, on the pipeline's schedule, before it counts as failed.
    public var retries: Int

    /// A downloader into `cache`, loading through `backends`.
    public init(cache: SQLiteCache, backends: ResourceBackends, timing: any DeliveryTiming, mapbox: MapboxURL = MapboxURL(),
                loading: RequestPipeline.Configuration = .init(), retries: Int = 3) {
        self.cache = cache
        self.backends = backends
        self.timing = timing
        self.mapbox = mapbox
        self.loading = loading
        self.retries = max(0, retries)
    }

    /// Downloads `region`, calling `progress` after every answer; returns the region's id and the
    /// final progress. A style that cannot be loaded or parsed is an error.
    public func download(_ region: RegionDefinition, progress: @escaping @Sendable (RegionProgress) -> Void = { _ in }) async throws(CacheError) -> (id: Int64, progress: RegionProgress) {
        let id = try cache.createRegion(definition: region.json)
        let loop = DriveLoop(machine: RegionDownload(region: region, mapbox: mapbox, loading: loading, retries: retries),
                             loads: BackendLoads(backends), timing: timing)
        let perform = { (output: RegionDownload.Output) -> Void in
            switch output {
            case .store(let resource, let response): cache.store(resource, response)
            case .refresh(let resource, let response): cache.refresh(resource, response)
            case .pin(let resource): try? cache.pin(resource, to: id)
            }
        }
        loop.feed(.start, perform: perform)
        while await loop.step(notAfter: .max, perform: perform) {
            progress(loop.machine.progress)
        }
        await cache.flush()
        if let failure = loop.machine.styleFailure { throw CacheError(.downloadFailed, path: region.styleURL, failure) }
        return (id, loop.machine.progress)
    }
}
