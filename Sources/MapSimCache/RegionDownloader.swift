import MapSim
import Synchronization

/// Downloads an offline region into an offline database, as MapLibre Native's offline download
/// does (`RegionDownload`), driven by a `DriveLoop` over the backends and delivery model it is given.
/// A region already partly downloaded resumes: what the database holds is linked without a request.
/// Each resource is committed as it arrives (group commits: one transaction for all that arrived in
/// the last 40 ms), so a killed download loses at most what was in flight and what arrived in the
/// 40 ms before; a cancelled
/// task (Ctrl-C, SIGTERM) stops the download after committing what was downloaded. The next run
/// resumes from there.
public struct RegionDownloader: Sendable {
    /// Which glyph ranges a download fetches.
    public enum GlyphChoice: String, Sendable, CaseIterable {
        /// Every range of every font stack the style uses, as MapLibre Native downloads.
        case all
        /// Only the ranges the text of the region's vector tiles needs.
        case needed
    }

    /// How a download ended.
    public struct Result: Sendable, Equatable {
        /// The region.
        public var region: OfflineRegion
        /// Its status at the end, as the database holds it (`OfflineDatabase.status(of:)`, what
        /// `region status` says).
        public var status: OfflineRegionStatus { completeness.status }
        /// Whether the region is complete, and what is missing.
        public var completeness: RegionCompleteness
        /// Resources that could not be downloaded, each with why.
        public var failures: [String]
        /// Why the download stopped early: the style, the tile count limit, or an interruption.
        public var stopReason: String?
        /// Whether the task was cancelled before the download ended.
        public var wasInterrupted: Bool
        /// Whether the same download, run again as it is, can get what is missing: not when it
        /// stopped for what it was not given (an access token).
        public var resumes: Bool
    }

    /// A failed attempt that will be tried again: what a download that seems stuck is waiting for.
    public struct Retry: Sendable, Equatable {
        /// The resource's URL.
        public var url: String
        /// Why the attempt failed.
        public var failure: Response.Failure
        /// The attempt that failed, 1 for the first.
        public var attempt: Int
        /// How many attempts the resource gets: the first and its retries.
        public var attempts: Int
        /// How long after the failure the next attempt goes out: the retry schedule's back-off, or
        /// the server's `Retry-After`.
        public var wait: SimTime?

        /// What a progress line says `elapsed` after the failure: the failure, which attempt comes
        /// next, and in how long — a server's `Retry-After` of an hour is not a silent hour.
        public func description(after elapsed: Duration = .zero) -> String {
            let named = failure.message.contains(url) ? failure.message : "\(url): \(failure.message)"
            var next = "trying again"
            if let wait {
                let remaining = (Duration.microseconds(wait.microseconds) - elapsed).components.seconds
                if remaining >= 1 { next += " in " + Self.spoken(seconds: Int(remaining)) }
                if failure.retryAfter != nil { next += ", as its Retry-After asks" }
            }
            return "\(named) (attempt \(attempt) of \(attempts); \(next))"
        }

        /// `seconds` as a reader says them: `12 s`, `4 min 10 s`, `1 h 0 min`.
        static func spoken(seconds: Int) -> String {
            if seconds < 60 { return "\(seconds) s" }
            if seconds < 3_600 { return "\(seconds / 60) min \(seconds % 60) s" }
            return "\(seconds / 3_600) h \(seconds % 3_600 / 60) min"
        }
    }

    /// The database to fill.
    public var database: OfflineDatabase
    /// The backends the download loads through (the network is asked).
    public var backends: ResourceBackends
    /// When answers arrive, in the download's virtual time.
    public var timing: any DeliveryTiming
    /// The cap on requests in flight, the wall clock, and the Mapbox API when no access token was
    /// given for it (the download then stops at the first of its URLs).
    public var loading: RequestPipeline.Configuration
    /// How many failures of one resource are retried, on the pipeline's schedule, before it counts as failed.
    public var retries: Int
    /// Which glyph ranges are fetched.
    public var glyphs: GlyphChoice
    /// How answers are taken: in order on a simulated network (deterministic), as they arrive over
    /// the real one (one slow answer holds no other back, and each is stored as it comes).
    public var delivery: AnswerOrder
    /// The engine the region is for: with `glyphs: .needed`, the ranges its text needs, without
    /// those it draws with a local font.
    public var engine: Engine

    /// A downloader into `database`, loading through `backends`.
    public init(database: OfflineDatabase, backends: ResourceBackends, timing: any DeliveryTiming, loading: RequestPipeline.Configuration = .init(),
                retries: Int = 3, glyphs: GlyphChoice = .all, engine: Engine = .maplibreNative,
                delivery: AnswerOrder = .deterministic) {
        self.engine = engine
        self.delivery = delivery
        self.database = database
        self.backends = backends
        self.timing = timing
        self.loading = loading
        self.retries = max(0, retries)
        self.glyphs = glyphs
    }

    /// Downloads `region` (or what it still lacks), handing every event — the region's status after
    /// each resource, errors, the tile limit — to `observe`, timed on the download's virtual clock,
    /// and each failed attempt that will be retried to `retrying`.
    public func download(_ region: OfflineRegion, observe: @escaping @Sendable (MapEvent) -> Void = { _ in },
                         retrying: @escaping @Sendable (Retry) -> Void = { _ in }) async throws(CacheError) -> Result {
        let definition: OfflineRegionDefinition
        switch region.definition {
        case .success(let decoded): definition = decoded
        case .failure(let error): throw CacheError(.downloadFailed, path: database.path, "region \(region.id) cannot be downloaded: its definition \(error)", underlying: error)
        }
        let wallClock = loading.wallClock
        let plan = RegionPlan(definition: definition, mapbox: database.options.mapbox, engine: engine)
        let packed = PackedBodies()
        let machine = RegionDownload(region: region.id, plan: plan,
                                     glyphs: glyphs == .needed ? .needed : .all, usableAt: wallClock.date(at: .zero).secondsSince1970,
                                     mapboxTiles: try database.mapboxTileCount(), mapboxTileLimit: database.options.mapboxTileCountLimit,
                                     loading: loading, retries: retries, engine: engine, packed: packed)
        let loop = DriveLoop(machine: machine, loads: PackingLoads(loads: BackendLoads(backends), packed: packed), timing: timing, delivery: delivery)
        var outputs: [RegionDownload.Output] = []
        loop.feed(.start) { outputs.append($0) }
        var interrupted = false
        let lookupFailure = Mutex<CacheError?>(nil)
        downloading: while true {
            if let failure = lookupFailure.withLock({ $0 }) { throw failure }
            while !outputs.isEmpty {
                let batch = outputs
                outputs = []
                for output in batch {
                    switch output {
                    case .lookUp(let id, let resources, let bodies):
                        let usableAt = wallClock.date(at: loop.now).secondsSince1970
                        guard delivery == .onArrival else {
                            let found = try database.regionLookup(resources, bodies: bodies, usableAt: usableAt)
                            loop.feed(.lookedUp(batch: id, found)) { outputs.append($0) }
                            continue
                        }
                        // Answers keep coming while a commit holds the database: the lookup waits
                        // for it beside the loop, which goes on with the resources it has.
                        let database = database
                        loop.perform { post in
                            do throws(CacheError) {
                                post(.lookedUp(batch: id, try await database.queuedRegionLookup(resources, bodies: bodies, usableAt: usableAt)))
                            } catch {
                                lookupFailure.withLock { $0 = $0 ?? error }
                            }
                        }
                    case .store(let resource, let response, let body):
                        database.queueRegionWrite(resource, region: region.id, response: response, body: body,
                                                  accessed: wallClock.date(at: loop.now).secondsSince1970)
                    case .link(let resource):
                        database.queueRegionWrite(resource, region: region.id, response: nil, body: StoredBody(data: nil, compressed: false), accessed: 0)
                    case .report(let event):
                        observe(MapEvent(begin: loop.now, end: loop.now, payload: .offlineRegion(event)))
                    case .retrying(let resource, let failure, let attempt, let wait):
                        retrying(Retry(url: resource.url, failure: failure, attempt: attempt, attempts: retries + 1, wait: wait))
                    }
                }
            }
            if Task.isCancelled {
                interrupted = true
                break
            }
            switch database.regionWrites {
            case .flowing: break
            // Writes wait for no one, but memory must not grow with them: let the database catch up.
            case .backlogged: await database.flush()
            case .lost: break downloading
            }
            guard await loop.step(notAfter: .max, perform: { outputs.append($0) }) else { break }
        }
        await database.flush()
        // MapLibre Native logs the error and goes on requesting what it cannot keep.
        if case .lost(let reason) = database.regionWrites {
            let lost = database.problems.first { $0.hasPrefix(reason) } ?? reason
            throw CacheError(.cannotWrite, path: database.path,
                             "\(lost). The download stopped; what was stored before is kept, and the same command resumes it once the cache can be written")
        }
        if !interrupted, let failure = lookupFailure.withLock({ $0 }) { throw failure }
        if let problem = database.problems.last { throw CacheError(.cannotWrite, path: database.path, problem) }
        let state = loop.machine
        if glyphs == .needed, state.glyphsQueued {
            try database.recordNeededGlyphs(region: region.id, needed: state.neededGlyphRangeCount, all: state.allGlyphRangeCount)
        }
        if state.followsImports { try database.recordImports(region: region.id, styleURLQuery: plan.importStyleQuery, apiURL: plan.resources.mapbox.baseURL) }
        if state.outcome != nil { try database.recordAbsent(region: region.id, state.absent) }
        var stopReason: String?
        var resumes = true
        switch state.outcome {
        case .styleFailed(let message)?: stopReason = message
        case .tileLimitExceeded(let limit)?: stopReason = OfflineRegionEvent.tileLimitMessage(limit)
        case .refused(let message)?: (stopReason, resumes) = (message, false)
        case nil: stopReason = interrupted ? "interrupted" : nil
        case .complete?, .incomplete?: break
        }
        // The verdict is the database's, as `region status` works it out: what the download counted
        // as it went (MapLibre's, which forgets what the server lacks) is not.
        var completeness = try database.completeness(of: region)
        completeness.status.downloadState = .inactive
        observe(MapEvent(begin: loop.now, end: loop.now, payload: .offlineRegion(.statusChanged(region: region.id, completeness.status))))
        return Result(region: region, completeness: completeness, failures: state.failures, stopReason: stopReason, wasInterrupted: interrupted,
                      resumes: resumes)
    }
}
