import MapSimStyle

/// Figures of one load, gathered from its events: when the milestones came, requests and bytes by
/// kind, and the errors.
public struct LoadSummary: Sendable, Equatable {
    /// Requests and bytes of one resource kind.
    public struct Traffic: Sendable, Equatable {
        /// Completed or cancelled requests.
        public var requests = 0
        /// Bytes received.
        public var bytes = 0
        /// Requests that failed.
        public var failures = 0
        /// Requests cancelled before they completed.
        public var cancelled = 0
    }

    /// One request as the critical path reads it: what, when, and whether it failed.
    public struct RequestSpan: Sendable, Equatable {
        /// The request's kind.
        public var kind: Resource.Kind
        /// Its URL; empty in a summary that keeps only the URLs the critical path reads
        /// (`init(keepingEveryRequestURL: false)`) when neither this request nor one of the same URL
        /// before it failed.
        public var url: String
        /// When it started.
        public var begin: SimTime
        /// When it was answered or cancelled.
        public var end: SimTime
        /// Whether its answer was an error.
        public var failed: Bool
        /// Whether it was cancelled.
        public var cancelled: Bool
    }

    /// When style-loaded first fired.
    public var styleLoaded: SimTime?
    /// When map-loaded first fired.
    public var mapLoaded: SimTime?
    /// When map-idle first fired.
    public var mapIdle: SimTime?
    /// Traffic by resource kind, in the order kinds were first seen.
    public var traffic: [(kind: Resource.Kind, traffic: Traffic)] = []
    /// Responses by the backend that gave them (`data-source`), in the order first seen.
    public var responsesBySource: [(source: DataSource, count: Int)] = []
    /// URLs whose last answer was a failure: their cancellation is not another request.
    private var settledFailures: Set<String> = []
    /// What is kept of each request.
    private let keeping: Keeping
    /// Kept `.failedURLs` only: the URLs that failed so far.
    private var failedURLs: Set<String> = []
    /// Network responses that confirmed a cached copy (HTTP 304).
    public var notModified = 0
    /// Every map-loading-error, in order.
    public var errors: [MapLoadingError] = []
    /// Every live-error message (an update that could not be read or applied, a lost broker), in order.
    public var liveErrors: [String] = []
    /// Every style-image-missing id, in order; an import's image as its name and its import, `pin
    /// (import extras)`, not the id Mapbox scopes with an invisible separator.
    public var missingImages: [String] = []
    /// The live-data criteria subscribed at the end, in the order subscribed.
    public var liveSubscriptions: [String] = []
    /// The live-data criteria the broker refused, in order.
    public var refusedSubscriptions: [String] = []
    /// How many live updates were received.
    public var liveUpdates = 0
    /// The locations whose live state changed in a domain following the view, each once.
    public var updatedLocations: Set<String> = []
    /// The number of events seen.
    public var eventCount = 0
    /// The number of frames rendered.
    public var frames = 0
    /// What of the style the engine ignored (`style-feature-ignored`), in order.
    public var ignoredFeatures: [StyleFeatureIgnored] = []
    /// What the style's author should know (`style-warning`), in order.
    public var warnings: [StyleWarning] = []
    /// The URLs of the requests the run gave up when its time was over (`Map.giveUp`), in order.
    public var timedOut: [String] = []
    /// Every request event, in the order answered.
    public private(set) var requests: [RequestSpan] = []
    /// The URL of the first style requested, or the one a style given as JSON is taken to have
    /// (`mapsim load -`): what paths are shown below.
    public var styleURL: String?

    /// What a summary keeps of each request, besides its figures.
    private enum Keeping: Sendable {
        /// A span with its URL.
        case everyURL
        /// A span, with its URL only when the critical path reads it.
        case failedURLs
        /// Nothing: no span, no URL.
        case figures
    }

    /// An empty summary.
    public init() {
        keeping = .everyURL
    }

    /// An empty summary whose request spans keep their URLs only when the critical path reads them
    /// (`keepingEveryRequestURL: false`): a request that failed, or came after a failure of its URL
    /// (a retry). The figures and the critical path are the same; a summary of a long trace keeps
    /// far less (`mapsim report` reads 100,000 requests so).
    public init(keepingEveryRequestURL: Bool) {
        keeping = keepingEveryRequestURL ? .everyURL : .failedURLs
    }

    private init(keeping: Keeping) {
        self.keeping = keeping
    }

    /// An empty summary of the requests a server answers for as long as it runs (`mapsim serve`
    /// runs for days): their figures — requests, bytes and failures by kind, 304s — and nothing of
    /// each request, so no critical path; its memory does not grow with the requests. Its answers
    /// are never cancelled, so a failure's cancellation is not told from another request.
    public static var figuresOnly: LoadSummary { LoadSummary(keeping: .figures) }

    /// Adds one event.
    public mutating func record(_ event: MapEvent) {
        eventCount += 1
        switch event.payload {
        case .styleLoaded: styleLoaded = styleLoaded ?? event.end
        case .mapLoaded: mapLoaded = mapLoaded ?? event.end
        case .mapIdle: mapIdle = mapIdle ?? event.end
        case .mapLoadingError(let error): errors.append(error)
        case .styleImageMissing(let id):
            let (name, scope) = StyleScope.split(id)
            missingImages.append(scope.isRoot ? name : "\(name) (import \(scope.chain))")
        case .styleFeatureIgnored(let ignored): ignoredFeatures.append(ignored)
        case .styleWarning(let warning): warnings.append(warning)
        case .live(.error(let message)): liveErrors.append(message)
        case .live(.subscribed(let criteria)): if !liveSubscriptions.contains(criteria) { liveSubscriptions.append(criteria) }
        case .live(.unsubscribed(let criteria)): liveSubscriptions.removeAll { $0 == criteria }
        case .live(.subscriptionError(let criteria, _)): refusedSubscriptions.append(criteria)
        case .live(.update): liveUpdates += 1
        case .live(.locationsUpdated(_, let ids)): updatedLocations.formUnion(ids)
        case .renderFrameFinished: frames += 1
        case .resourceRequest(let request):
            // A request given up after it failed (offline, say) ends with a cancellation: the same
            // request, counted once.
            if request.cancelled && settledFailures.remove(request.request.url) != nil { break }
            if request.cancelled, request.response?.error != nil { timedOut.append(request.request.url) }
            let failed = request.response?.error != nil
            if keeping != .figures {
                var url = request.request.url
                if keeping == .failedURLs {
                    if failed { failedURLs.insert(url) } else if !failedURLs.contains(url) { url = "" }
                }
                requests.append(RequestSpan(kind: request.request.kind, url: url, begin: event.begin, end: event.end, failed: failed, cancelled: request.cancelled))
            }
            if request.request.kind == .style && styleURL == nil { styleURL = request.request.url }
            if keeping != .figures, let response = request.response {
                if response.error != nil { settledFailures.insert(request.request.url) } else { settledFailures.remove(request.request.url) }
            }
            let index = traffic.firstIndex { $0.kind == request.request.kind } ?? {
                traffic.append((request.request.kind, Traffic()))
                return traffic.count - 1
            }()
            traffic[index].traffic.requests += 1
            traffic[index].traffic.bytes += request.response?.size ?? 0
            if request.response?.error != nil { traffic[index].traffic.failures += 1 }
            if request.cancelled { traffic[index].traffic.cancelled += 1 }
            // A request that never left (offline), or was given up unanswered, was answered by nobody.
            if let response = request.response, response.error?.reason != .inOfflineMode, !request.cancelled {
                if let position = responsesBySource.firstIndex(where: { $0.source == request.dataSource }) {
                    responsesBySource[position].count += 1
                } else {
                    responsesBySource.append((request.dataSource, 1))
                }
            }
            if request.response?.notModified == true { notModified += 1 }
        default: break
        }
    }

    /// The traffic of one kind (nothing when none was seen).
    public func traffic(of kind: Resource.Kind) -> Traffic {
        traffic.first { $0.kind == kind }?.traffic ?? Traffic()
    }

    /// The chain of requests whose arrival decided when map-idle came (map-loaded when the map
    /// never went idle); empty when neither came.
    public var criticalPath: CriticalPath? {
        guard let (milestone, time) = mapIdle.map({ (Map.State.mapIdle, $0) }) ?? mapLoaded.map({ (Map.State.mapLoaded, $0) }) else { return nil }
        return CriticalPath(requests: requests, milestone: milestone, at: time)
    }

    /// All requests of every kind together.
    public var total: Traffic {
        traffic.reduce(into: Traffic()) { sum, entry in
            sum.requests += entry.traffic.requests
            sum.bytes += entry.traffic.bytes
            sum.failures += entry.traffic.failures
            sum.cancelled += entry.traffic.cancelled
        }
    }

    public static func == (lhs: LoadSummary, rhs: LoadSummary) -> Bool {
        lhs.styleLoaded == rhs.styleLoaded && lhs.mapLoaded == rhs.mapLoaded && lhs.mapIdle == rhs.mapIdle
            && lhs.errors == rhs.errors && lhs.missingImages == rhs.missingImages && lhs.eventCount == rhs.eventCount
            && lhs.frames == rhs.frames && lhs.traffic.map(\.kind) == rhs.traffic.map(\.kind)
            && lhs.responsesBySource.map(\.source) == rhs.responsesBySource.map(\.source)
            && lhs.responsesBySource.map(\.count) == rhs.responsesBySource.map(\.count) && lhs.notModified == rhs.notModified
            && lhs.traffic.map(\.traffic) == rhs.traffic.map(\.traffic) && lhs.liveSubscriptions == rhs.liveSubscriptions
            && lhs.refusedSubscriptions == rhs.refusedSubscriptions && lhs.liveUpdates == rhs.liveUpdates && lhs.updatedLocations == rhs.updatedLocations
            && lhs.requests == rhs.requests && lhs.timedOut == rhs.timedOut && lhs.ignoredFeatures == rhs.ignoredFeatures
            && lhs.warnings == rhs.warnings
    }
}
