/// The loading pipeline of MapLibre's main resource loader and online file source, as a pure state
/// machine (README, "Loading, caching and offline"): which backend answers, revalidation with prior
/// data, the retry schedule, the clock-skew guard, the cap on network requests with regular before
/// low priority, cancellation, and offline mode with its windows.
///
/// Inputs are requests, backend answers, timers and connectivity changes; outputs are loads, cache
/// writes, timers, deliveries to the requester and the resource-request event of each delivery or
/// cancellation. Every timer is an action for the caller's scheduler, so a run under the virtual
/// clock is deterministic. It also stamps each network attempt with the wall-clock date it is sent at.
public struct RequestPipeline: StateMachine {
    /// Which backend an attempt goes to.
    public enum Backend: Sendable, Equatable {
        case file, cache, network
    }

    /// Pipeline settings.
    public struct Configuration: Sendable, Equatable {
        /// The SDKs' cap on network requests in flight.
        public static let defaultMaximumConcurrentRequests = 20

        /// The most network requests in flight at once.
        public var maximumConcurrentRequests: Int
        /// Whether a cache backend exists.
        public var usesCache: Bool
        /// The wall-clock date at each virtual time, for expiry, Retry-After and the dates requests are sent at.
        public var wallClock: WallClock
        /// How many failures of one request are retried; nil retries on the SDK's schedule without
        /// end. Past it a failure (an offline one too) is final. Deep validation retries none.
        public var maximumRetries: Int?
        /// Spans of virtual time during which the network is gone: offline at each start, online at each end.
        public var offlineWindows: [Range<SimTime>]
        /// Whether the pipeline starts offline.
        public var startsOffline: Bool
        /// How long a network attempt may go unanswered before it fails as a connection error
        /// naming its URL (and is retried on that schedule); nil waits for the backend's own timeouts.
        public var requestTimeout: SimTime?
        /// The most network requests in flight to one host (a browser's six connections); nil for no limit.
        public var maximumRequestsPerHost: Int?
        /// The most image requests in flight — raster tiles, sprite sheets, image sources; nil for no limit.
        public var maximumImageRequests: Int?
        /// A browser's HTTP cache stands before the network (`BrowserCache`): a URL asked for again
        /// while its answer is fresh, or while it is on its way, is not sent again. A tile not
        /// found (404) is not written to the cache (`usesCache`), whose rows would read it back as
        /// no content (204), which a browser's map takes otherwise.
        public var usesBrowserCache = false
        /// The Mapbox API that `mapbox://` URLs go to, when no access token was given: a request to
        /// it without `access_token` fails at once (the API would refuse it; no retry helps) —
        /// the cache still answers what it holds.
        public var tokenlessMapboxAPI: MapboxURL?
        /// Whether each answer and cancellation comes with its resource-request event (`Action.emit`).
        /// A region download sends no map events, and makes none for each of its tiles.
        public var reportsRequests = true

        /// The SDK defaults; no cache, always online.
        public init(maximumConcurrentRequests: Int = Self.defaultMaximumConcurrentRequests, usesCache: Bool = false,
                    wallClock: WallClock = .simulated, maximumRetries: Int? = nil, offlineWindows: [Range<SimTime>] = [],
                    startsOffline: Bool = false, requestTimeout: SimTime? = nil) {
            self.maximumConcurrentRequests = max(1, maximumConcurrentRequests)
            self.usesCache = usesCache
            self.wallClock = wallClock
            self.maximumRetries = maximumRetries.map { max(0, $0) }
            self.offlineWindows = offlineWindows
            self.startsOffline = startsOffline
            self.requestTimeout = requestTimeout
        }
    }

    /// What can happen to the pipeline.
    public enum Input: Sendable, Equatable {
        /// The pipeline is put to work: it goes offline if it starts so, and schedules its offline windows.
        case start
        /// A new request.
        case request(RequestID, Resource)
        /// The requester no longer wants a request; its resource-request event says `cancelled`.
        case cancel(RequestID)
        /// A backend answered an attempt.
        case answer(LoadAnswer)
        /// A timer of a request is due (a retry, an expiry refresh, or the attempt's deadline).
        case timer(RequestID)
        /// Go offline (true) or back online (false).
        case setOffline(Bool)
        /// The run's time is over: every request not yet answered is given up, its resource-request
        /// event cancelled with a connection failure that says why.
        case giveUp(String)
    }

    /// What the pipeline asks for.
    public enum Action: Sendable, Equatable {
        /// Load an attempt; its answer comes back as `Input.answer`.
        case load(LoadOrder)
        /// Stop an attempt that is no longer wanted.
        case cancelLoad(AttemptID)
        /// Write a network response to the cache before it is delivered.
        case store(Resource, Response)
        /// A 304 confirmed the cached copy: refresh its expiry and access time only.
        case refreshCache(Resource, Response)
        /// Feed `Input.timer` for this request at this time.
        case scheduleTimer(RequestID, at: SimTime)
        /// Feed `Input.setOffline` at this time (an offline window begins or ends).
        case scheduleConnectivity(offline: Bool, at: SimTime)
        /// A response for a request. `final` is false when more may follow: a cached copy before its
        /// revalidation, or an error that will be retried.
        case deliver(RequestID, Response, final: Bool)
        /// Send this event, spanning from `begin` to now.
        case emit(MapEventPayload, begin: SimTime)
    }

    /// How long after a response that arrived already expired it may be refreshed (clock skew guard).
    public static let clockSkewRetryTimeout = SimTime.seconds(30)

    private enum Phase: Sendable, Equatable {
        case reading(AttemptID)
        case cacheLookup(AttemptID)
        case queued
        case loading(AttemptID)
        case waitingForTimer(SimTime)
        case waitingForConnection
        /// Waiting in the browser's cache for the same URL's answer.
        case waitingForSameURL
        case idle
    }

    private struct Entry: Sendable {
        /// The request as the requester made it.
        let original: Resource
        /// When it was made (a cancelled request's event spans from then).
        let requestedAt: SimTime
        /// The request as the next attempt sends it: demoted to low priority after a cached copy was
        /// delivered, with the prior copy for revalidation.
        var resource: Resource
        var phase: Phase
        /// The current attempt as it was sent, and when (a delivery's event spans from then).
        var attempt: (resource: Resource, start: SimTime)?
        /// When the network attempt under way times out, with `requestTimeout`.
        var deadline: SimTime?
        var failures = 0
        var lastFailure: Response.Failure.Reason?
        var delivered = false
        /// The requester has its final answer: later answers (expiry refreshes) are not reported.
        var settled = false

        init(resource: Resource, at now: SimTime) {
            original = resource
            requestedAt = now
            self.resource = resource
            phase = .idle
        }
    }

    public let configuration: Configuration
    public private(set) var isOffline = false
    private var entries: [RequestID: Entry] = [:]
    private var regularQueue = RequestQueue()
    private var lowQueue = RequestQueue()
    private var networkInFlight = 0
    /// Network requests in flight by host, and image requests in flight, when they are limited.
    private var inFlightByHost: [String: Int] = [:]
    private var imagesInFlight = 0
    private var browserCache = BrowserCache()
    private var nextAttempt = 0

    /// A pipeline with `configuration`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    public mutating func handle(_ input: Input, at now: SimTime) -> [Action] {
        switch input {
        case .start: start(at: now)
        case .request(let id, let resource): request(id, resource, at: now)
        case .cancel(let id): cancel(id, at: now)
        case .answer(let answer): self.answer(answer, at: now)
        case .timer(let id): timerFired(for: id, at: now)
        case .setOffline(let offline): setOffline(offline, at: now)
        case .giveUp(let reason): giveUp(reason, at: now)
        }
    }

    /// The number of network requests in flight.
    public var activeNetworkRequests: Int { networkInFlight }

    /// The number of requests waiting for a network slot.
    public var queuedRequests: Int { regularQueue.count + lowQueue.count }

    /// The wall-clock time at simulated time `now`.
    public func wallClock(at now: SimTime) -> HTTPDate {
        configuration.wallClock.date(at: now)
    }

    // MARK: - Inputs

    private mutating func start(at now: SimTime) -> [Action] {
        if configuration.startsOffline { isOffline = true }
        var actions: [Action] = []
        for window in configuration.offlineWindows where !window.isEmpty {
            if window.lowerBound <= now {
                isOffline = true
            } else {
                actions.append(.scheduleConnectivity(offline: true, at: window.lowerBound))
            }
            actions.append(.scheduleConnectivity(offline: false, at: window.upperBound))
        }
        return actions
    }

    private mutating func request(_ id: RequestID, _ resource: Resource, at now: SimTime) -> [Action] {
        entries[id] = Entry(resource: resource, at: now)
        if configuration.usesBrowserCache && !URLResolver.isLocalFile(resource.url) {
            if let answer = browserCache.freshAnswer(for: resource, at: wallClock(at: now)) {
                return answerFromBrowserCache(answer, for: id, at: now)
            }
            if browserCache.join(id, for: resource) {
                entries[id]?.phase = .waitingForSameURL
                return []
            }
        }
        if URLResolver.isLocalFile(resource.url) {
            return startAttempt(id, backend: .file, at: now)
        } else if configuration.usesCache && resource.loadingMethod.contains(.cache) {
            return startAttempt(id, backend: .cache, at: now)
        } else {
            return requestNetwork(id, at: now)
        }
    }

    private mutating func cancel(_ id: RequestID, at now: SimTime) -> [Action] {
        guard let entry = entries.removeValue(forKey: id) else { return [] }
        var actions: [Action] = []
        switch entry.phase {
        case .reading(let attempt), .cacheLookup(let attempt):
            actions.append(.cancelLoad(attempt))
        case .loading(let attempt):
            actions.append(.cancelLoad(attempt))
            releaseSlot(of: entry)
            actions += startQueued(at: now)
        case .queued:
            regularQueue.remove(id)
            lowQueue.remove(id)
        case .waitingForTimer, .waitingForConnection, .waitingForSameURL, .idle:
            break
        }
        if !entry.settled && configuration.reportsRequests {
            let event = ResourceRequest(dataSource: .resourceLoader, request: entry.original, response: nil, cancelled: true)
            actions.append(.emit(.resourceRequest(event), begin: entry.requestedAt))
        }
        if configuration.usesBrowserCache, let next = browserCache.leave(id, for: entry.original) {
            // The first request waiting for the same URL goes out in its place.
            entries[next]?.phase = .idle
            actions += requestNetwork(next, at: now)
        }
        return actions
    }

    private mutating func answer(_ answer: LoadAnswer, at now: SimTime) -> [Action] {
        let (id, attempt, response) = (answer.order.request, answer.order.attempt, Self.checkingRange(of: answer.response, for: answer.order.resource))
        // Every attempt given up is cancelled, and the loop drops a cancelled attempt's answer.
        guard var entry = entries[id] else {
            preconditionFailure("request \(id.value) was answered (attempt \(attempt.value), \(answer.order.resource.url)), but it was cancelled or settled: its attempt was never cancelled")
        }
        switch (answer.order.backend, entry.phase) {
        case (.file, .reading(attempt)):
            entries[id] = nil
            return deliver(response, for: id, entry, from: .file, attempt: true, final: true, at: now)
        case (.cache, .cacheLookup(attempt)):
            entry.phase = .idle
            entries[id] = entry
            return answerFromCache(response, for: id, at: now)
        case (.network, .loading(attempt)):
            releaseSlot(of: entry)
            entry.phase = .idle
            entries[id] = entry
            let answered = answerFromNetwork(response, for: id, at: now)
            return answered + startQueued(at: now)
        default:
            preconditionFailure("request \(id.value) was answered by attempt \(attempt.value) on the \(answer.order.backend) backend while it is \(entry.phase)")
        }
    }

    private mutating func timerFired(for id: RequestID, at now: SimTime) -> [Action] {
        guard var entry = entries[id] else { return [] }
        switch entry.phase {
        case .waitingForTimer(let due) where due <= now:
            return requestNetwork(id, at: now)
        case .loading(let attempt) where entry.deadline.map({ $0 <= now }) == true:
            // No answer in time: the attempt is given up and fails as a connection would.
            releaseSlot(of: entry)
            entry.phase = .idle
            entry.deadline = nil
            entries[id] = entry
            let waited = configuration.requestTimeout ?? .zero
            let failed = answerFromNetwork(.failure(.connection, "no answer from \(entry.resource.url) within \(waited.shortDescription)", source: .network),
                                           for: id, at: now)
            return [.cancelLoad(attempt)] + failed + startQueued(at: now)
        default:
            return []
        }
    }

    /// Gives up every request the requester still waits for, in the order they were made: its
    /// attempt is cancelled and its event names the request as sent, failed with `reason`.
    private mutating func giveUp(_ reason: String, at now: SimTime) -> [Action] {
        var actions: [Action] = []
        for id in entries.keys.sorted() {
            guard let entry = entries.removeValue(forKey: id) else { continue }
            switch entry.phase {
            case .reading(let attempt), .cacheLookup(let attempt), .loading(let attempt): actions.append(.cancelLoad(attempt))
            case .queued, .waitingForTimer, .waitingForConnection, .waitingForSameURL, .idle: break
            }
            guard !entry.settled && configuration.reportsRequests else { continue }
            let sent = entry.attempt?.resource ?? entry.original
            let backend: Backend = URLResolver.isLocalFile(entry.original.url) ? .file : .network
            let event = ResourceRequest(dataSource: Self.dataSource(backend, url: entry.original.url), request: sent,
                                        response: .failure(.connection, "\(reason): \(entry.original.url)", source: backend == .file ? .localFile : .network), cancelled: true)
            actions.append(.emit(.resourceRequest(event), begin: entry.attempt?.start ?? entry.requestedAt))
        }
        regularQueue = RequestQueue()
        lowQueue = RequestQueue()
        networkInFlight = 0
        inFlightByHost = [:]
        imagesInFlight = 0
        return actions
    }

    /// Offline, network requests fail at once with `in-offline-mode`; back online, the requests whose
    /// last failure was a connection or offline failure restart, regular priority before low.
    private mutating func setOffline(_ offline: Bool, at now: SimTime) -> [Action] {
        guard offline != isOffline else { return [] }
        isOffline = offline
        guard !offline else { return [] }
        let waiting = entries.filter { _, entry in
            switch entry.phase {
            case .waitingForConnection: return true
            case .waitingForTimer: return entry.lastFailure == .connection || entry.lastFailure == .inOfflineMode
            default: return false
            }
        }
        let ordered = waiting.keys.sorted { lhs, rhs in
            let l = waiting[lhs]!.resource.priority == .regular ? 0 : 1
            let r = waiting[rhs]!.resource.priority == .regular ? 0 : 1
            return (l, lhs) < (r, rhs)
        }
        return ordered.flatMap { requestNetwork($0, at: now) }
    }

    // MARK: - Internals

    private mutating func startAttempt(_ id: RequestID, backend: Backend, at now: SimTime) -> [Action] {
        guard var entry = entries[id] else { return [] }
        entry.attempt = (entry.resource, now)
        let attempt = AttemptID(value: nextAttempt)
        nextAttempt += 1
        switch backend {
        case .cache: entry.phase = .cacheLookup(attempt)
        case .network: entry.phase = .loading(attempt)
        case .file: entry.phase = .reading(attempt)
        }
        entry.deadline = backend == .network ? configuration.requestTimeout.map { now + $0 } : nil
        entries[id] = entry
        var sent = entry.resource
        // A simulated server dates its answer with it; the cache records it as the time of use.
        if backend != .file { sent.issued = wallClock(at: now) }
        let load = Action.load(LoadOrder(request: id, attempt: attempt, backend: backend, resource: sent))
        return entry.deadline.map { [load, .scheduleTimer(id, at: $0)] } ?? [load]
    }

    private mutating func answerFromCache(_ response: Response, for id: RequestID, at now: SimTime) -> [Action] {
        guard var entry = entries[id] else { return [] }
        var actions: [Action] = []
        let hit = response.error == nil && (response.data != nil || response.noContent)
        let networkAllowed = entry.resource.loadingMethod.contains(.network)
        if hit {
            let expired = response.expires.map { $0 <= wallClock(at: now) } ?? false
            let usable = !response.mustRevalidate || !expired
            entry.resource.prior = Resource.Prior(modified: response.modified, expires: response.expires, etag: response.etag, data: response.data)
            if usable {
                actions += deliver(response, for: id, entry, from: .cache, attempt: true, final: !networkAllowed, at: now)
                entry.delivered = true
                entry.settled = !networkAllowed
                entry.resource.priority = .low
            }
        }
        entries[id] = entry
        if networkAllowed {
            actions += requestNetwork(id, at: now)
        } else {
            entries[id] = nil
            if !entry.delivered {
                let miss = hit ? Response.failure(.notFound, "the cached copy of \(entry.resource.url) must be revalidated", source: .cache)
                    : Response.failure(.notFound, "\(entry.resource.url) is not in the cache", source: .cache)
                actions += deliver(miss, for: id, entry, from: .cache, attempt: true, final: true, at: now)
            }
        }
        return actions
    }

    private mutating func requestNetwork(_ id: RequestID, at now: SimTime) -> [Action] {
        guard var entry = entries[id] else { return [] }
        if isOffline {
            entry.failures += 1
            entry.lastFailure = .inOfflineMode
            entry.phase = .waitingForConnection
            let failure = Response.failure(.inOfflineMode, "offline: the network is off, \(entry.resource.url) was not fetched", source: .network)
            if let limit = configuration.maximumRetries, entry.failures > limit {
                entries[id] = nil
                return deliver(failure, for: id, entry, from: .network, attempt: false, final: true, at: now)
            }
            entries[id] = entry
            return entry.delivered ? [] : deliver(failure, for: id, entry, from: .network, attempt: false, final: false, at: now)
        }
        if let refusal = refusal(of: entry.resource.url) {
            entries[id] = nil
            return deliver(.failure(.other, refusal, source: .network), for: id, entry, from: .network, attempt: false, final: true, at: now)
        }
        entry.phase = .queued
        entries[id] = entry
        let group = isLimited ? RequestQueue.Group(host: Self.host(of: entry.resource.url), isImage: entry.resource.isImage) : RequestQueue.Group(host: "", isImage: false)
        if entry.resource.priority == .regular { regularQueue.append(id, group: group) } else { lowQueue.append(id, group: group) }
        return startQueued(at: now)
    }

    /// Why `url` cannot go to the network: a URL of the Mapbox API without an access token.
    private func refusal(of url: String) -> String? {
        configuration.tokenlessMapboxAPI?.tokenRefusal(of: url)
    }

    private mutating func startQueued(at now: SimTime) -> [Action] {
        var actions: [Action] = []
        while networkInFlight < configuration.maximumConcurrentRequests {
            let (byHost, images, configuration) = (inFlightByHost, imagesInFlight, configuration)
            let startable = { (group: RequestQueue.Group) in Self.hasSlot(for: group, byHost: byHost, images: images, configuration: configuration) }
            let next = regularQueue.popFirst(where: startable) ?? lowQueue.popFirst(where: startable)
            guard let id = next else { return actions }
            networkInFlight += 1
            if isLimited, let entry = entries[id] {
                inFlightByHost[Self.host(of: entry.resource.url), default: 0] += 1
                if entry.resource.isImage { imagesInFlight += 1 }
            }
            actions += startAttempt(id, backend: .network, at: now)
        }
        return actions
    }

    /// Whether requests are limited per host or on images (a browser), beyond the cap on all.
    private var isLimited: Bool {
        configuration.maximumRequestsPerHost != nil || configuration.maximumImageRequests != nil
    }

    /// Whether a request of `group` may start under the limits per host and on images, with
    /// `byHost` requests in flight per host and `images` image requests.
    private static func hasSlot(for group: RequestQueue.Group, byHost: [String: Int], images: Int, configuration: Configuration) -> Bool {
        if let limit = configuration.maximumRequestsPerHost, byHost[group.host, default: 0] >= limit { return false }
        if let limit = configuration.maximumImageRequests, group.isImage, images >= limit { return false }
        return true
    }

    /// Frees the network slot `entry`'s attempt held.
    private mutating func releaseSlot(of entry: Entry) {
        networkInFlight -= 1
        guard configuration.maximumRequestsPerHost != nil || configuration.maximumImageRequests != nil else { return }
        let host = Self.host(of: entry.resource.url)
        inFlightByHost[host, default: 1] -= 1
        if inFlightByHost[host] == 0 { inFlightByHost[host] = nil }
        if entry.resource.isImage { imagesInFlight -= 1 }
    }

    /// The scheme, host and port of `url`: what a browser keeps its connections by.
    static func host(of url: String) -> String {
        guard let separator = url.range(of: "://") else { return url }
        return String(url[..<separator.upperBound]) + url[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    }

    private mutating func answerFromNetwork(_ response: Response, for id: RequestID, at now: SimTime) -> [Action] {
        guard var entry = entries[id] else { return [] }
        if let error = response.error {
            entry.failures += 1
            entry.lastFailure = error.reason
            guard let delay = retryDelay(for: error, failures: entry.failures, at: now), entry.failures <= configuration.maximumRetries ?? .max else {
                entries[id] = nil
                return deliver(response, for: id, entry, from: .network, attempt: true, final: true, at: now)
            }
            entry.phase = .waitingForTimer(now + delay)
            entries[id] = entry
            let delivered = entry.delivered ? [] : deliver(response, for: id, entry, from: .network, attempt: true, final: false, at: now)
            return delivered + [.scheduleTimer(id, at: now + delay)]
        }
        var actions: [Action] = []
        entry.failures = 0
        entry.lastFailure = nil
        var delivered = response
        // A volatile resource is never written to the cache (MapLibre keeps it out of the database).
        // A tile not found (404) is stored as MapLibre stores it, as no content, and read back as a
        // 204: a browser (GL JS) tells the two apart, so its 404s stay out, and are asked again.
        let stores = configuration.usesCache && entry.resource.storagePolicy == .permanent
            && !(response.notFound && configuration.usesBrowserCache)
        // The cache records the time of the answer as the time of use.
        var stored = entry.resource
        stored.issued = wallClock(at: now)
        if response.notModified {
            if stores { actions.append(.refreshCache(stored, response)) }
            if !entry.delivered, let prior = entry.resource.prior?.data {
                delivered.data = prior
                delivered.notModified = false
            }
        } else if stores {
            actions.append(.store(stored, response))
        }
        actions += deliver(delivered, for: id, entry, from: .network, attempt: true, final: true, at: now)
        entry.delivered = true
        entry.settled = true
        entry.resource.prior = Resource.Prior(modified: response.modified ?? entry.resource.prior?.modified,
                                              expires: response.expires ?? entry.resource.prior?.expires,
                                              etag: response.etag ?? entry.resource.prior?.etag,
                                              data: delivered.data ?? entry.resource.prior?.data)
        if let expires = response.expires {
            // Refresh when the response expires; one that arrived already expired waits at least
            // 30 s, so that a clock skew between server and client cannot cause a request storm.
            let remaining = SimTime.seconds(Double(expires.seconds(since: wallClock(at: now))))
            let delay = remaining > .zero ? remaining : Self.clockSkewRetryTimeout
            entry.resource.priority = .low
            entry.phase = .waitingForTimer(now + delay)
            entries[id] = entry
            actions.append(.scheduleTimer(id, at: now + delay))
        } else {
            entries[id] = nil
        }
        return actions
    }

    /// Hands `response` to the requester with its resource-request event: the request as the
    /// answering attempt sent it (`attempt`), or as it was made (an offline failure has no attempt).
    /// Once the requester has its final answer nothing more is reported.
    private mutating func deliver(_ response: Response, for id: RequestID, _ entry: Entry, from backend: Backend, attempt: Bool,
                                  final: Bool, at now: SimTime) -> [Action] {
        guard !entry.settled else { return [] }
        var delivered: [Action] = [.deliver(id, response, final: final)]
        if configuration.reportsRequests {
            let current = attempt ? entry.attempt : nil
            let sent = current?.resource ?? entry.original
            // The event reports the answer, not how a store keeps it: a trace that holds its events
            // holds no second, compressed copy of each body.
            var reported = response
            reported.zlibData = nil
            let event = ResourceRequest(dataSource: Self.dataSource(backend, url: entry.original.url), request: sent, response: reported, cancelled: false)
            delivered.insert(.emit(.resourceRequest(event), begin: current?.start ?? now), at: 0)
        }
        return final && configuration.usesBrowserCache ? delivered + settleWaiting(for: id, entry, with: response, at: now) : delivered
    }

    /// The requests that waited in the browser's cache for `entry`'s URL take its answer when the
    /// cache keeps it; else they go out themselves, one after another.
    private mutating func settleWaiting(for id: RequestID, _ entry: Entry, with response: Response, at now: SimTime) -> [Action] {
        let (waiting, served) = browserCache.settle(id, for: entry.original, with: response, at: wallClock(at: now))
        var actions: [Action] = []
        for follower in waiting {
            guard entries[follower] != nil else { continue }
            if served {
                actions += answerFromBrowserCache(response, for: follower, at: now)
            } else {
                entries[follower]?.phase = .idle
                if browserCache.join(follower, for: entry.original) {
                    entries[follower]?.phase = .waitingForSameURL
                } else {
                    actions += requestNetwork(follower, at: now)
                }
            }
        }
        return actions
    }

    /// Answers `id` from the browser's cache: at once, the copy it keeps.
    private mutating func answerFromBrowserCache(_ answer: Response, for id: RequestID, at now: SimTime) -> [Action] {
        guard let entry = entries.removeValue(forKey: id) else { return [] }
        var cached = answer
        cached.source = .cache
        let event = ResourceRequest(dataSource: .database, request: entry.original, response: cached, cancelled: false)
        return [.emit(.resourceRequest(event), begin: entry.requestedAt), .deliver(id, cached, final: true)]
    }

    /// `response`, or a failure naming where the data ends when it answers a byte range with fewer
    /// bytes than asked for (a truncated archive) — but for a read from the start, an archive's
    /// header, which asks for up to that many bytes (a shorter file says itself what it is).
    static func checkingRange(of response: Response, for resource: Resource) -> Response {
        guard let range = resource.dataRange, range.lowerBound > 0, response.error == nil, let data = response.data,
              UInt64(data.count) < range.upperBound - range.lowerBound + 1 else { return response }
        return .failure(.other, "\(resource.url) is truncated: bytes \(range.lowerBound)–\(range.upperBound) were asked for, but it ends at byte \(range.lowerBound + UInt64(data.count))",
                        source: response.source)
    }

    /// The `data-source` a resource-request event names for an answer from `backend`.
    public static func dataSource(_ backend: Backend, url: String) -> DataSource {
        switch backend {
        case .file: URLResolver.scheme(of: url) == "asset" ? .asset : .fileSystem
        case .cache: .database
        case .network: .network
        }
    }

    /// The retry schedule of the SDKs; nil for failures that are never retried.
    func retryDelay(for failure: Response.Failure, failures n: Int, at now: SimTime) -> SimTime? {
        switch failure.reason {
        case .server:
            return n <= 3 ? .seconds(1) : .seconds(Double(1 << min(n - 3, 30)))
        case .connection:
            return .seconds(Double(1 << min(n - 1, 30)))
        case .rateLimit:
            guard let retryAfter = failure.retryAfter else { return .seconds(5) }
            return .seconds(Double(max(0, retryAfter.seconds(since: wallClock(at: now)))))
        case .notFound, .other, .inOfflineMode:
            return nil
        }
    }
}
