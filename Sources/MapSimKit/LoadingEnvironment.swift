import Foundation
import MapSim
import MapSimArchives
import MapSimCache
import MapSimHTTP

/// The one place that builds how maps load: the file, cache and network backends, the delivery
/// model, the wall clock and the starting connectivity, from options. The CLI, the scenario runner,
/// region downloads and the tests all compose their maps here.
///
/// Its rules: the real network runs on today's date and delivers answers after the time they really
/// took; a simulated network runs on a fixed date (`WallClock.simulated`), with its profile's timing,
/// offline windows and faults, so its runs repeat. Nothing is started that a run does not use: the
/// HTTP client starts with the first request, the per-user cache folder is looked up only when a run
/// uses that cache.
///
/// ```swift
/// let environment = LoadingEnvironment(LoadingEnvironment.Options(cache: .none, network: .simulated(.init(preset: .threeG))),
///                                      styleURL: "https://maps.test/style.json")
/// let map = environment.makeMap(viewport: Viewport(width: 512, height: 512))
/// ...
/// await environment.shutdown()
/// ```
public struct LoadingEnvironment: Sendable {
    /// Where cached responses live.
    public enum CacheChoice: Sendable, Equatable {
        /// No cache: every remote request goes to the network.
        case none
        /// A MapLibre offline database file, created on first use.
        case file(String)
        /// The per-user cache file (`CacheLocation.defaultPath`).
        case perUser

        /// The file chosen; nil for no cache.
        public var path: String? {
            switch self {
            case .none: nil
            case .file(let path): path
            case .perUser: CacheLocation.defaultPath
            }
        }
    }

    /// Which network answers `http(s)` URLs.
    public enum NetworkChoice: Sendable {
        /// The real network, each response delivered after the time it really took.
        case real(HTTPResourceLoader.Options = HTTPResourceLoader.Options())
        /// A simulated network on the virtual clock, serving folders.
        case simulated(SimulatedNetworkSetup)
    }

    /// A simulated network: its speed (and whether it starts offline), what it serves, how it misbehaves.
    public struct SimulatedNetworkSetup: Sendable {
        /// The named speed; `.offline` starts the map offline.
        public var preset: NetworkPreset
        /// The seed of the jitter.
        public var seed: UInt64
        /// URL prefixes served from folders.
        public var mirrors: [SimulatedNetwork.Mirror]
        /// Misbehaviour by URL pattern.
        public var faults: [FaultRule]
        /// `Cache-Control` sent with every successful answer.
        public var cacheControl: String?
        /// Spans of virtual time without a network.
        public var offlineWindows: [Range<SimTime>]

        /// A simulated network.
        public init(preset: NetworkPreset = .lan, seed: UInt64 = 0, mirrors: [SimulatedNetwork.Mirror] = [], faults: [FaultRule] = [],
                    cacheControl: String? = nil, offlineWindows: [Range<SimTime>] = []) {
            self.preset = preset
            self.seed = seed
            self.mirrors = mirrors
            self.faults = faults
            self.cacheControl = cacheControl
            self.offlineWindows = offlineWindows
        }

        /// The same network without faults or outages, for warming a cache or downloading a region.
        var faultless: SimulatedNetworkSetup {
            SimulatedNetworkSetup(preset: preset == .offline ? .lan : preset, seed: seed, mirrors: mirrors, cacheControl: cacheControl)
        }

        /// The delivery model: the preset's timing and the delays of fault rules.
        var timing: NetworkProfile {
            var profile = preset.profile(seed: seed)
            profile.delays = faults.compactMap { rule in
                if case .delay(let delay) = rule.effect { (rule.pattern, delay) } else { nil }
            }
            return profile
        }
    }

    /// What to build.
    public struct Options: Sendable {
        /// Where `asset://` URLs resolve; nil for the style's folder (or the current one).
        public var assetRoot: String?
        /// The cache.
        public var cache: CacheChoice
        /// The network.
        public var network: NetworkChoice
        /// Start offline whatever the network.
        public var startsOffline: Bool
        /// The ambient cache's maximum size in bytes (MapLibre's 50 MB by default).
        public var maximumCacheSize: Int
        /// The most `mapbox://` tiles the cache's offline regions may hold (MapLibre's 6,000 by default).
        public var mapboxTileCountLimit = OfflineDatabase.Options.defaultMapboxTileCountLimit
        /// Map settings: `mapbox://` normalization, the cap on requests in flight, retries. The wall
        /// clock, the offline windows and the starting connectivity are the environment's to set.
        public var map: Map.Options

        /// Options; by default the real network and the per-user cache.
        public init(assetRoot: String? = nil, cache: CacheChoice = .perUser, network: NetworkChoice = .real(),
                    startsOffline: Bool = false, maximumCacheSize: Int = OfflineDatabase.Options.defaultMaximumAmbientCacheSize,
                    map: Map.Options = Map.Options()) {
            self.assetRoot = assetRoot
            self.cache = cache
            self.network = network
            self.startsOffline = startsOffline
            self.maximumCacheSize = maximumCacheSize
            self.map = map
        }
    }

    /// What was asked for.
    public let options: Options
    /// The options every map of this environment gets: the map settings asked for, with the wall
    /// clock, offline windows and starting connectivity of this environment's network.
    public let mapOptions: Map.Options
    /// The backends every map of this environment loads through.
    public let backends: ResourceBackends
    /// The cache — MapLibre's offline database — when one is used and could be opened.
    public let cache: OfflineDatabase?
    /// What went wrong while composing (a cache set aside, the per-user cache unusable), for the user.
    public let warnings: [String]
    /// Why the cache file asked for (`CacheChoice.file`) could not be opened: the command fails
    /// with it, as it fails when another file it was asked to write cannot be.
    public let cacheError: CacheError?
    private let file: FileResourceLoader
    private let timing: any DeliveryTiming
    private let http: HTTPResourceLoader?

    /// Builds the environment for loading the style at `styleURL`.
    public init(_ options: Options, styleURL: String) {
        var warnings: [String] = []
        var cache: OfflineDatabase?
        var cacheError: CacheError?
        if let path = options.cache.path {
            do {
                // mapsim makes its own per-user cache's folder (when the first write makes the
                // file); any other file goes in a folder that exists.
                let opened = try Self.openCache(at: path, maximumSize: options.maximumCacheSize, mapbox: options.map.mapbox,
                                                tileLimit: options.mapboxTileCountLimit, makesFolder: options.cache == .perUser)
                warnings += opened.warnings
                cache = opened
            } catch {
                if options.cache == .perUser { warnings.append("running without a cache: \(error)") } else { cacheError = error }
            }
        }
        let root = options.assetRoot ?? StyleLocation.folder(of: styleURL) ?? FileManager.default.currentDirectoryPath
        self.init(options: options, cache: cache, file: FileResourceLoader(assetRoot: root), warnings: warnings, cacheError: cacheError)
    }

    private init(options: Options, cache: OfflineDatabase?, file: FileResourceLoader, warnings: [String], cacheError: CacheError? = nil) {
        self.options = options
        self.cache = cache
        self.file = file
        self.warnings = warnings
        self.cacheError = cacheError
        var mapOptions = options.map
        mapOptions.loading.startsOffline = options.startsOffline
        switch options.network {
        case .real(var httpOptions):
            // A request that must be answered within a time gives up on the wall clock then too.
            if let timeout = mapOptions.loading.requestTimeout {
                httpOptions.deadline = .microseconds(timeout.microseconds)
            }
            let client = HTTPResourceLoader(options: httpOptions)
            http = client
            backends = ResourceBackends(file: file, archive: MBTilesResourceLoader(), cache: cache, network: client)
            timing = MeasuredDelivery()
            mapOptions.loading.wallClock = .today()
            mapOptions.loading.offlineWindows = []
        case .simulated(let setup):
            http = nil
            backends = ResourceBackends(file: file, archive: MBTilesResourceLoader(), cache: cache,
                                        network: SimulatedNetwork(mirrors: setup.mirrors, faults: setup.faults, cacheControl: setup.cacheControl))
            timing = setup.timing
            mapOptions.loading.wallClock = .simulated
            mapOptions.loading.offlineWindows = setup.offlineWindows
            mapOptions.loading.startsOffline = options.startsOffline || setup.preset.startsOffline
        }
        self.mapOptions = mapOptions
    }

    /// Opens the offline database at `path` as this environment would (`mapsim cache` and `mapsim
    /// region` open their file here too).
    public static func openCache(at path: String, readOnly: Bool = false, maximumSize: Int = OfflineDatabase.Options.defaultMaximumAmbientCacheSize,
                                 mapbox: MapboxURL = MapboxURL(),
                                 tileLimit: Int = OfflineDatabase.Options.defaultMapboxTileCountLimit, makesFolder: Bool = false) throws(CacheError) -> OfflineDatabase {
        try OfflineDatabase(path: path, options: .init(maximumAmbientCacheSize: maximumSize, readOnly: readOnly, mapbox: mapbox, mapboxTileCountLimit: tileLimit,
                                                       makesFolder: makesFolder))
    }

    /// The same environment — the same cache and files — on a faultless, online simulated network:
    /// what warms a scenario's cache or downloads its region. The real network stays as it is.
    public var faultless: LoadingEnvironment {
        guard case .simulated(let setup) = options.network else { return self }
        var options = options
        options.network = .simulated(setup.faultless)
        options.startsOffline = false
        return LoadingEnvironment(options: options, cache: cache, file: file, warnings: [])
    }

    /// A map of this environment, offline already if it starts offline, whose camera takes pitches
    /// up to `maximumPitch` (the map's `maxPitch`; by default the engine's: 60 for MapLibre's, 85
    /// for Mapbox's; at most 85).
    public func makeMap(viewport: Viewport = Viewport(width: 512, height: 512), maximumPitch: Double? = nil) -> Map {
        var options = mapOptions
        if let maximumPitch { options.maximumPitch = maximumPitch }
        return Map(backends: backends, viewport: viewport, options: options, timing: timing)
    }

    /// Downloads an offline region of the cache (or what it still lacks) through this environment's
    /// network, handing its events to `observe` and each failed attempt that will be retried to `retrying`.
    public func downloadRegion(_ region: OfflineRegion, glyphs: RegionDownloader.GlyphChoice = .all, retries: Int = 3,
                               observe: @escaping @Sendable (MapEvent) -> Void = { _ in },
                               retrying: @escaping @Sendable (RegionDownloader.Retry) -> Void = { _ in }) async throws(CacheError) -> RegionDownloader.Result {
        guard let cache else {
            throw CacheError(.cannotWrite, path: "", "a region is downloaded into a cache, and this environment has none")
        }
        // Over the real network a download takes each answer as it arrives (and stores it): one
        // slow answer holds no other back, and a killed download loses only what was in flight.
        // The simulated network keeps its timing and order, so a download's events say how long it
        // would take on that network, the same on every run.
        let downloader = RegionDownloader(database: cache, backends: backends, timing: timing, loading: mapOptions.pipeline, retries: retries, glyphs: glyphs,
                                          engine: mapOptions.engine, delivery: http == nil ? .deterministic : .onArrival)
        return try await downloader.download(region, observe: observe, retrying: retrying)
    }

    /// Waits for the cache's writes and closes the network client; call once, when done. Returns
    /// what went wrong since composing, for the user (writes lost, a damaged cache set aside).
    @discardableResult
    public func shutdown() async -> [String] {
        await cache?.flush()
        try? await http?.shutdown()
        return cache?.problems ?? []
    }
}
