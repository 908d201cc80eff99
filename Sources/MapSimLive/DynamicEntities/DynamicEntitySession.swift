import MapSim
import MapSimJSON

/// A dynamic-entity data source on the virtual clock: a feed of observations played from the moment
/// it connects, through the stream filter into a `DynamicEntityStore`, with ArcGIS's connection and
/// reconnect schedule; scripted outages make the connection drop and reconnect attempts fail while
/// they last (what the feed sends meanwhile is missed). Events go into a map's event stream (or to an
/// observer), and with a `DynamicEntityBinding` the entities show on the map's GeoJSON sources. The
/// map's clock is the session's, as for `LiveSession`, so a run gives the same trace every time.
public actor DynamicEntitySession: MapClockCompanion {
    private enum Due: Sendable {
        case expiry
        case retry
        case outageEnds
    }

    /// What a run counted.
    public struct Summary: Sendable, Equatable {
        public var counts: DynamicEntityStore.Counts
        public var observationsKept: Int
        public var entitiesKept: Int
        /// Lines that were not observations.
        public var malformed: Int
        /// Observations the stream filter left out.
        public var filteredOut: Int
        /// Observations the feed sent while the source was not connected.
        public var missed: Int
    }

    private var store: DynamicEntityStore
    private var connection: DynamicEntityConnection
    private let filter: DynamicEntityFilter
    let map: Map?
    private let binding: DynamicEntityBinding?
    let observer: (@Sendable (MapEvent) -> Void)?
    private let reportsEvents: Bool
    private var scheduler = Scheduler<Due>()
    private var feed: DynamicEntityFeedReader?
    private var feedStart: SimTime?
    /// The feed's next observation and when it arrives; it waits here rather than in the scheduler,
    /// and arrives after any timer due at the same time.
    private var nextObservation: (time: SimTime, line: DynamicEntityFeedLine)?
    private var feedFinished = false
    private var expiryScheduled: SimTime?
    private var outageEnd: SimTime?
    private var outbox: [DynamicEntityEvent] = []
    private var dirtyTracks: [String] = []
    private var dirtySet: Set<String> = []
    private var malformed: [(line: Int, reason: String)] = []
    private var malformedCount = 0
    private var filteredOut = 0
    private var missed = 0
    private var updates = 0

    /// A source keeping observations by `options` and `filter`, reporting into `map`'s events (to
    /// `observer` without a map; not at all with `reportsEvents` false, for bulk replays that only
    /// count) and showing on the map through `binding`.
    public init(map: Map?, options: DynamicEntityPurgeOptions = .init(), filter: DynamicEntityFilter = .everything,
                binding: DynamicEntityBinding? = nil, schedule: DynamicEntityConnection.Schedule = .init(),
                reportsEvents: Bool = true, observer: (@Sendable (MapEvent) -> Void)? = nil) {
        self.map = map
        self.filter = filter
        self.binding = binding
        self.observer = observer
        self.reportsEvents = reportsEvents && (map != nil || observer != nil)
        store = DynamicEntityStore(options: options, reportsEvents: self.reportsEvents || binding != nil)
        connection = DynamicEntityConnection(schedule: schedule)
    }

    /// The connection status.
    public var status: DynamicEntityConnectionStatus { connection.status }

    /// What the store keeps.
    public var entities: [DynamicEntityStore.Entity] { store.entities }

    /// The kept observations of a track, oldest first.
    public func track(_ trackID: String) -> [DynamicEntityObservation] { store.track(trackID) }

    /// The ids of the kept observations, oldest first.
    public var observationIDs: [Int64] { store.observationIDs }

    /// The counts so far.
    public var summary: Summary {
        Summary(counts: store.counts, observationsKept: store.count, entitiesKept: store.entityCount, malformed: malformedCount,
                filteredOut: filteredOut, missed: missed)
    }

    /// The first malformed lines (at most 100), with why.
    public var malformedLines: [(line: Int, reason: String)] { malformed }

    /// Whether the whole feed has been played.
    public var isFeedFinished: Bool { feedFinished }

    /// The current virtual time.
    public var now: SimTime { scheduler.now }

    // MARK: - What the user does

    /// Connects the source to `feed`; the feed plays from the moment the connection is made.
    public func connect(to feed: DynamicEntityFeedReader) async {
        await synchronize()
        self.feed = feed
        execute(connection.handle(.connect, at: scheduler.now))
        await flush()
    }

    /// Disconnects the source (what the feed sends afterwards is missed).
    public func disconnect() async {
        await synchronize()
        execute(connection.handle(.disconnect, at: scheduler.now))
        await flush()
    }

    /// Empties the store; the source stays connected and keeps adding what comes next.
    public func purgeAll() async {
        await synchronize()
        record(store.purgeAll())
        await flush()
    }

    // MARK: - What the world does

    /// The network goes down for `duration`: the connection is lost now, and connecting fails until it is back.
    public func outage(for duration: SimTime) async {
        await synchronize()
        outageEnd = scheduler.now + duration
        scheduler.schedule(.outageEnds, at: scheduler.now + duration)
        execute(connection.handle(.connectionLost("the connection to the feed was lost", shouldReconnect: true), at: scheduler.now))
        await flush()
    }

    // MARK: - Running

    /// Runs everything due in the next `duration`, the map's work and the source's in time order.
    public func advance(by duration: SimTime) async {
        await advanceTogether(by: duration)
    }

    /// Plays the feed on for `step` of virtual time from whatever is next due — time with nothing
    /// due costs nothing — and stops at its last observation, so that what the store keeps is what
    /// it holds when the feed ends, not after age purged it further. Returns false when nothing
    /// was due (the feed cannot go on).
    @discardableResult
    public func play(for step: SimTime) async -> Bool {
        await synchronize()
        guard let first = nextDueTime else { return false }
        let limit = first + step
        if map == nil && !reportsEvents {
            while !feedFinished, let next = nextDueTime, next <= limit { process(until: next) }
            return true
        }
        while !feedFinished, let next = nextDueTime, next <= limit {
            await moveMap(to: next)
            await runDue(at: next)
        }
        return true
    }

    /// When something is next due: a timer or the feed's next observation.
    var nextDueTime: SimTime? {
        switch (scheduler.nextTime, nextObservation?.time) {
        case (let timer?, let observation?): min(timer, observation)
        case (let timer, let observation): timer ?? observation
        }
    }

    /// Runs until the feed has been played to its end (or until nothing more can happen).
    public func runToEnd() async {
        await synchronize()
        // With nobody to tell, nothing waits between instants.
        if map == nil && !reportsEvents {
            while !feedFinished, let next = nextDueTime { process(until: next) }
            return
        }
        while !feedFinished, let next = nextDueTime {
            await moveMap(to: next)
            await runDue(at: next)
        }
    }

    /// Runs the map and the source until the map reaches `state`, or `timeout` passes.
    public func run(until state: Map.State, timeout: SimTime) async -> Map.RunOutcome {
        await runTogether(until: state, timeout: timeout)
    }

    var companionNow: SimTime { scheduler.now }

    func advanceCompanionClock(to time: SimTime) {
        scheduler.advance(to: time)
    }

    /// Runs everything due at `time`, then sends what it caused to the map.
    func runDue(at time: SimTime) async {
        process(until: time)
        await flush()
    }

    /// Runs everything due by `time` in order, timers before an observation due at the same time.
    private func process(until time: SimTime) {
        while true {
            guard let (now, due) = scheduler.popNext(notAfter: time) else {
                guard let (arrival, line) = nextObservation, arrival <= time else { break }
                scheduler.advance(to: arrival)
                nextObservation = nil
                receive(line, at: arrival)
                scheduleNextObservation()
                scheduleExpiry()
                continue
            }
            switch due {
            case .expiry:
                expiryScheduled = nil
                record(store.purgeExpired(at: now))
            case .retry:
                execute(connection.handle(.retryDue, at: now))
            case .outageEnds:
                if let end = outageEnd, end <= now { outageEnd = nil }
            }
            scheduleExpiry()
        }
    }

    private func receive(_ line: DynamicEntityFeedLine, at now: SimTime) {
        guard connection.status == .connected else {
            missed += 1
            return
        }
        let observation = line.observation
        guard filter.matches(longitude: observation.longitude, latitude: observation.latitude, attributes: observation.attributes) else {
            filteredOut += 1
            return
        }
        record(store.add(observation, at: now))
    }

    /// Reads the feed on to its next observation and schedules it; malformed lines are counted on the way.
    private func scheduleNextObservation() {
        guard let feed, let feedStart else { return }
        while let item = feed.next() {
            switch item {
            case .observation(let line):
                nextObservation = (max(feedStart + line.offset, scheduler.now), line)
                return
            case .malformed(let line, let reason):
                malformedCount += 1
                if malformed.count < 100 { malformed.append((line, reason)) }
            }
        }
        feedFinished = true
    }

    private func scheduleExpiry() {
        guard let expiry = store.nextExpiry, expiryScheduled.map({ expiry < $0 }) ?? true else { return }
        expiryScheduled = expiry
        scheduler.schedule(.expiry, at: expiry)
    }

    private func execute(_ actions: [DynamicEntityConnection.Action]) {
        for action in actions {
            switch action {
            case .connect:
                // The simulated transport answers at once: refused during an outage, else connected.
                if outageEnd != nil {
                    execute(connection.handle(.connectFailed("the feed cannot be reached"), at: scheduler.now))
                } else {
                    execute(connection.handle(.connected, at: scheduler.now))
                    if feedStart == nil {
                        feedStart = scheduler.now
                        scheduleNextObservation()
                    }
                }
            case .disconnect:
                break
            case .scheduleRetry(let time):
                scheduler.schedule(.retry, at: time)
            case .emit(let event):
                if reportsEvents { outbox.append(event) }
            }
        }
    }

    private func record(_ events: [DynamicEntityEvent]) {
        if reportsEvents { outbox += events }
        guard binding != nil else { return }
        for event in events {
            switch event {
            case .observationReceived(let trackID, _, _), .observationPurged(let trackID, _, _, _), .entityPurged(let trackID, _):
                touch(trackID)
            case .entityReceived, .connectionStatusChanged:
                break
            }
        }
    }

    private func touch(_ trackID: String) {
        if dirtySet.insert(trackID).inserted { dirtyTracks.append(trackID) }
    }

    /// Sends the events of what just happened to the map (or the observer), then the entities that
    /// changed to the bound sources.
    private func flush() async {
        await send(outbox.map(MapEventPayload.dynamicEntity))
        outbox = []
        guard let map, let binding, !dirtyTracks.isEmpty else { return }
        let (latest, tracks) = binding.diffs(for: dirtyTracks, in: store)
        dirtyTracks = []
        dirtySet = []
        updates += 1
        do {
            try await map.updateGeoJSONSource(id: binding.sourceID, diff: latest, dataID: "entities-\(updates)")
            if let tracks, let trackSource = binding.trackSourceID {
                try await map.updateGeoJSONSource(id: trackSource, diff: tracks, dataID: "tracks-\(updates)")
            }
        } catch {
            await map.report(.live(.error(message: "cannot show the dynamic entities on the map: \(error)")))
        }
    }
}
