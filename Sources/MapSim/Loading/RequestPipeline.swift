/// The loading pipeline of MapLibre's main resource loader and online file source, as a pure state
/// machine (DESIGN.md, "Resources and loading"): which backend answers, revalidation with prior
/// data, the retry schedule, the clock-skew guard, the cap on network requests with regular before
/// low priority, cancellation, and offline mode.
///
/// Inputs are requests, backend answers, timers and connectivity changes, each with the current
/// time; outputs are `PipelineAction`s. Every timer is an action for the caller's scheduler, so a
/// run under the virtual clock is deterministic.
public struct RequestPipeline: Sendable {
    /// Which backend an attempt goes to.
    public enum Backend: Sendable, Equatable {
        case file, cache, network
    }

    /// What the pipeline asks its owner to do.
    public enum Action: Sendable, Equatable {
        /// Start loading `resource` from `backend` for request `id`; report the answer with
        /// `answer(_:for:attempt:from:at:)`.
        case load(RequestID, AttemptID, Backend, Resource)
        /// Stop an attempt that is no longer wanted.
        case cancelLoad(AttemptID)
        /// Write a network response to the cache (before it is delivered).
        case store(Resource, Response)
        /// A 304 confirmed the cached copy: refresh its expiry and access time only.
        case refreshCache(Resource, Response)
        /// Hand a response to the requester. `final` is false when more may follow (a cached copy
        /// before its revalidation, or an error that will be retried).
        case deliver(RequestID, Response, from: Backend, attempt: AttemptID?, final: Bool)
        /// Call `timerFired(for:at:)` at this time.
        case scheduleTimer(RequestID, at: SimTime)
    }

    /// Pipeline settings.
    public struct Configuration: Sendable, Equatable {
        /// The most network requests in flight at once (20 in the SDKs).
        public var maximumConcurrentRequests = 20
        /// Whether a cache backend exists.
        public var usesCache = false
        /// The wall-clock time at simulated time zero, for expiry and Retry-After.
        public var wallClockStart = HTTPDate(secondsSince1970: 1_767_225_600)

        /// The SDK defaults; no cache.
        public init(maximumConcurrentRequests: Int = 20, usesCache: Bool = false, wallClockStart: HTTPDate = HTTPDate(secondsSince1970: 1_767_225_600)) {
            self.maximumConcurrentRequests = max(1, maximumConcurrentRequests)
            self.usesCache = usesCache
            self.wallClockStart = wallClockStart
        }
    }

    /// How long after a response that arrived already expired it may be refreshed (clock skew guard).
    public static let clockSkewRetryTimeout = SimTime.seconds(30)

    private enum Phase: Sendable, Equatable {
        case cacheLookup(AttemptID)
        case queued
        case loading(AttemptID)
        case waitingForTimer(SimTime)
        case waitingForConnection
        case idle
    }

    private struct Entry: Sendable {
        var resource: Resource
        var phase: Phase
        var failures = 0
        var lastFailure: Response.Failure.Reason?
        var delivered = false
        var finished = false
    }

    public private(set) var configuration: Configuration
    public private(set) var isOffline = false
    private var entries: [RequestID: Entry] = [:]
    private var regularQueue: [RequestID] = []
    private var lowQueue: [RequestID] = []
    private var networkInFlight = 0
    private var nextAttempt = 0
    private var actions: [Action] = []

    /// A pipeline with `configuration`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The actions produced since the last call, in order.
    public mutating func takeActions() -> [Action] {
        defer { actions = [] }
        return actions
    }

    /// The number of network requests in flight.
    public var activeNetworkRequests: Int { networkInFlight }

    /// The number of requests waiting for a network slot.
    public var queuedRequests: Int { regularQueue.count + lowQueue.count }

    /// The wall-clock time at simulated time `now`.
    public func wallClock(at now: SimTime) -> HTTPDate {
        HTTPDate(secondsSince1970: configuration.wallClockStart.secondsSince1970 + now.microseconds / 1_000_000)
    }

    // MARK: - Inputs

    /// A new request.
    public mutating func request(_ id: RequestID, _ resource: Resource, at now: SimTime) {
        entries[id] = Entry(resource: resource, phase: .idle)
        if URLResolver.isLocalFile(resource.url) {
            startAttempt(id, backend: .file)
        } else if configuration.usesCache && resource.loadingMethod.contains(.cache) {
            startAttempt(id, backend: .cache)
        } else {
            requestNetwork(id, at: now)
        }
    }

    /// The requester no longer wants `id`.
    public mutating func cancel(_ id: RequestID) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        switch entry.phase {
        case .cacheLookup(let attempt):
            actions.append(.cancelLoad(attempt))
        case .loading(let attempt):
            actions.append(.cancelLoad(attempt))
            networkInFlight -= 1
            startQueued()
        case .queued:
            regularQueue.removeAll { $0 == id }
            lowQueue.removeAll { $0 == id }
        case .waitingForTimer, .waitingForConnection, .idle:
            break
        }
    }

    /// The answer of attempt `attempt` for request `id`, from `backend`.
    public mutating func answer(_ response: Response, for id: RequestID, attempt: AttemptID, from backend: Backend, at now: SimTime) {
        guard var entry = entries[id] else { return }
        switch (backend, entry.phase) {
        case (.file, _):
            entries[id] = nil
            actions.append(.deliver(id, response, from: .file, attempt: attempt, final: true))
        case (.cache, .cacheLookup(attempt)):
            entry.phase = .idle
            entries[id] = entry
            answerFromCache(response, for: id, attempt: attempt, at: now)
        case (.network, .loading(attempt)):
            networkInFlight -= 1
            entry.phase = .idle
            entries[id] = entry
            answerFromNetwork(response, for: id, attempt: attempt, at: now)
            startQueued()
        default:
            break
        }
    }

    /// A timer scheduled for `id` is due.
    public mutating func timerFired(for id: RequestID, at now: SimTime) {
        guard let entry = entries[id], case .waitingForTimer(let due) = entry.phase, due <= now else { return }
        requestNetwork(id, at: now)
    }

    /// Goes offline or back online. Offline, network requests fail at once with `in-offline-mode`;
    /// back online, the requests whose last failure was a connection or offline failure restart,
    /// regular priority before low.
    public mutating func setOffline(_ offline: Bool, at now: SimTime) {
        guard offline != isOffline else { return }
        isOffline = offline
        guard !offline else { return }
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
        for id in ordered { requestNetwork(id, at: now) }
    }

    // MARK: - Internals

    private mutating func startAttempt(_ id: RequestID, backend: Backend) {
        guard var entry = entries[id] else { return }
        let attempt = AttemptID(value: nextAttempt)
        nextAttempt += 1
        switch backend {
        case .cache: entry.phase = .cacheLookup(attempt)
        case .network: entry.phase = .loading(attempt)
        case .file: entry.phase = .idle
        }
        entries[id] = entry
        actions.append(.load(id, attempt, backend, entry.resource))
    }

    private mutating func answerFromCache(_ response: Response, for id: RequestID, attempt: AttemptID, at now: SimTime) {
        guard var entry = entries[id] else { return }
        let hit = response.error == nil && (response.data != nil || response.noContent)
        let networkAllowed = entry.resource.loadingMethod.contains(.network)
        if hit {
            let expired = response.expires.map { $0 <= wallClock(at: now) } ?? false
            let usable = !response.mustRevalidate || !expired
            entry.resource.prior = Resource.Prior(modified: response.modified, expires: response.expires, etag: response.etag, data: response.data)
            if usable {
                entry.delivered = true
                entry.resource.priority = .low
                actions.append(.deliver(id, response, from: .cache, attempt: attempt, final: !networkAllowed))
            }
        }
        entries[id] = entry
        if networkAllowed {
            requestNetwork(id, at: now)
        } else {
            entries[id] = nil
            if !entry.delivered {
                let miss = hit ? Response.failure(.notFound, "the cached copy of \(entry.resource.url) must be revalidated", source: .cache)
                    : Response.failure(.notFound, "\(entry.resource.url) is not in the cache", source: .cache)
                actions.append(.deliver(id, miss, from: .cache, attempt: attempt, final: true))
            }
        }
    }

    private mutating func requestNetwork(_ id: RequestID, at now: SimTime) {
        guard var entry = entries[id] else { return }
        if isOffline {
            entry.failures += 1
            entry.lastFailure = .inOfflineMode
            entry.phase = .waitingForConnection
            entries[id] = entry
            if !entry.delivered {
                let failure = Response.failure(.inOfflineMode, "offline: \(entry.resource.url) was not requested", source: .network)
                actions.append(.deliver(id, failure, from: .network, attempt: nil, final: false))
            }
            return
        }
        entry.phase = .queued
        entries[id] = entry
        if entry.resource.priority == .regular { regularQueue.append(id) } else { lowQueue.append(id) }
        startQueued()
    }

    private mutating func startQueued() {
        while networkInFlight < configuration.maximumConcurrentRequests {
            let id: RequestID
            if !regularQueue.isEmpty {
                id = regularQueue.removeFirst()
            } else if !lowQueue.isEmpty {
                id = lowQueue.removeFirst()
            } else {
                return
            }
            networkInFlight += 1
            startAttempt(id, backend: .network)
        }
    }

    private mutating func answerFromNetwork(_ response: Response, for id: RequestID, attempt: AttemptID, at now: SimTime) {
        guard var entry = entries[id] else { return }
        if let error = response.error {
            entry.failures += 1
            entry.lastFailure = error.reason
            guard let delay = retryDelay(for: error, failures: entry.failures, at: now) else {
                entries[id] = nil
                actions.append(.deliver(id, response, from: .network, attempt: attempt, final: true))
                return
            }
            entry.phase = .waitingForTimer(now + delay)
            entries[id] = entry
            if !entry.delivered {
                actions.append(.deliver(id, response, from: .network, attempt: attempt, final: false))
            }
            actions.append(.scheduleTimer(id, at: now + delay))
            return
        }
        entry.failures = 0
        entry.lastFailure = nil
        var delivered = response
        if response.notModified {
            if configuration.usesCache { actions.append(.refreshCache(entry.resource, response)) }
            if !entry.delivered, let prior = entry.resource.prior?.data {
                delivered.data = prior
                delivered.notModified = false
            }
        } else if configuration.usesCache {
            actions.append(.store(entry.resource, response))
        }
        entry.delivered = true
        entry.resource.prior = Resource.Prior(modified: response.modified ?? entry.resource.prior?.modified,
                                              expires: response.expires ?? entry.resource.prior?.expires,
                                              etag: response.etag ?? entry.resource.prior?.etag,
                                              data: delivered.data ?? entry.resource.prior?.data)
        actions.append(.deliver(id, delivered, from: .network, attempt: attempt, final: true))
        if let expires = response.expires {
            // Refresh when the response expires; one that arrived already expired waits at least
            // 30 s, so that a clock skew between server and client cannot cause a request storm.
            let remaining = SimTime.seconds(Double(expires.secondsSince1970 - wallClock(at: now).secondsSince1970))
            let delay = remaining > .zero ? remaining : Self.clockSkewRetryTimeout
            entry.resource.priority = .low
            entry.phase = .waitingForTimer(now + delay)
            entries[id] = entry
            actions.append(.scheduleTimer(id, at: now + delay))
        } else {
            entries[id] = nil
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
            return .seconds(Double(max(0, retryAfter.secondsSince1970 - wallClock(at: now).secondsSince1970)))
        case .notFound, .other, .inOfflineMode:
            return nil
        }
    }
}

/// Identifies one attempt at answering a request from one backend.
public struct AttemptID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The attempt's number; later attempts have larger numbers.
    public let value: Int

    public static func < (lhs: AttemptID, rhs: AttemptID) -> Bool { lhs.value < rhs.value }
    public var description: String { "attempt \(value)" }
}
