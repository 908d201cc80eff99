extension Map {
    /// Map options, with the SDKs' defaults. The load sequence and the request pipeline read them
    /// from here; nothing copies them.
    public struct Options: Sendable {
        /// The SDKs' limit on the tiles one source may need for one view.
        public static let defaultMaximumTilesPerSource = 10_000

        /// How `mapbox://` URLs are normalized.
        public var mapbox: MapboxURL
        /// The fade-in of newly placed symbols (300 ms in the SDKs).
        public var symbolFadeDuration: SimTime
        /// The most tiles one source may need for one view; a larger cover is refused with a
        /// map-loading-error {type: source} rather than made.
        public var maximumTilesPerSource: Int
        /// Continuous rendering (an interactive map, the default) or one still image.
        public var mode: MapMode
        /// How requests load: the cap on requests in flight, retries, the wall clock, offline windows.
        /// Whether a cache is used follows from the map's backends; what the engine decides of
        /// requests (retries, connections per host, image requests) is added from `engine`.
        public var loading: RequestPipeline.Configuration
        /// Which map is simulated: its tile cover, fallback, prefetch, glyph and request rules.
        public var engine: Engine
        /// The steepest pitch the camera takes (the SDKs' `maxPitch`): by default the engine's (60
        /// for MapLibre's, 85 for Mapbox's), at most `Camera.steepestPitch` (85); a pitch above it
        /// is clamped to it.
        public var maximumPitch: Double

        /// Options with the SDK defaults.
        public init(mapbox: MapboxURL = MapboxURL(), symbolFadeDuration: SimTime = .milliseconds(300),
                    maximumTilesPerSource: Int = Self.defaultMaximumTilesPerSource, mode: MapMode = .continuous,
                    loading: RequestPipeline.Configuration = RequestPipeline.Configuration(), engine: Engine = .maplibreNative,
                    maximumPitch: Double? = nil) {
            self.mapbox = mapbox
            self.symbolFadeDuration = symbolFadeDuration
            self.maximumTilesPerSource = max(1, maximumTilesPerSource)
            self.mode = mode
            self.loading = loading
            self.engine = engine
            let maximumPitch = maximumPitch ?? engine.maximumPitch
            self.maximumPitch = min(max(maximumPitch.isFinite ? maximumPitch : engine.maximumPitch, 0), Camera.steepestPitch)
        }

        /// The request pipeline's configuration: `loading` with the engine's rules for retries,
        /// connections per host and image requests.
        public var pipeline: RequestPipeline.Configuration {
            var configuration = loading
            if !engine.requests.retriesFailures { configuration.maximumRetries = 0 }
            configuration.maximumRequestsPerHost = engine.requests.maximumRequestsPerHost
            configuration.maximumImageRequests = engine.requests.maximumImageRequests
            configuration.usesBrowserCache = engine.requests.usesBrowserCache
            if mapbox.accessToken == nil { configuration.tokenlessMapboxAPI = mapbox }
            return configuration
        }
    }
}
