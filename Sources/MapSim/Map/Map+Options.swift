extension Map {
    /// Map options.
    public struct Options: Sendable {
        /// How `mapbox://` URLs are normalized.
        public var mapbox: MapboxURL
        /// The fade-in of newly placed symbols (300 ms in the SDKs).
        public var symbolFadeDuration: SimTime
        /// The most network requests in flight at once (20 in the SDKs).
        public var maximumConcurrentRequests: Int
        /// The wall-clock time at virtual time zero, for expiry, Retry-After and cache dates.
        public var wallClockStart: HTTPDate
        /// How many failures of one request are retried; nil (the SDKs) retries without end.
        public var maximumRetries: Int?
        /// The most tiles one source may need for one view (10,000); a larger cover is refused with a
        /// map-loading-error {type: source} rather than made.
        public var maximumTilesPerSource: Int
        /// Continuous rendering (an interactive map, the default) or one still image.
        public var mode: MapMode

        /// Options with the SDK defaults.
        public init(mapbox: MapboxURL = MapboxURL(), symbolFadeDuration: SimTime = .milliseconds(300),
                    maximumConcurrentRequests: Int = 20, wallClockStart: HTTPDate = HTTPDate(secondsSince1970: 1_767_225_600),
                    maximumRetries: Int? = nil, maximumTilesPerSource: Int = 10_000, mode: MapMode = .continuous) {
            self.mapbox = mapbox
            self.symbolFadeDuration = symbolFadeDuration
            self.maximumConcurrentRequests = maximumConcurrentRequests
            self.wallClockStart = wallClockStart
            self.maximumRetries = maximumRetries
            self.maximumTilesPerSource = max(1, maximumTilesPerSource)
            self.mode = mode
        }
    }
}
