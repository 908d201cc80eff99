import MapSim

/// A dynamic-entity data source as one machine attached to a map's drive loop: the connection
/// (`DynamicEntityConnection`) with ArcGIS's reconnect schedule, the feed — a recording played from
/// the moment it connects, or a real WebSocket or MQTT feed (`DynamicEntityFeedLink`, its I/O
/// performed beside the loop and its messages fed as they arrive, on a map that follows the wall
/// clock) — the stream filter and the store (`DynamicEntityStore`), its timers (age purges,
/// reconnect attempts, the end of an outage) on the map's one scheduler. What happens at one time
/// goes to the map together, after everything else due then: the events, then the entities that
/// changed as one update of each bound source.
public struct DynamicEntitySessionMachine: MapAttachment {
    /// What happens to the source: what the user does, what the world does, and its timers.
    public enum Input: Sendable {
        /// The source connects to a feed, which plays from the moment the connection is made.
        case connect(DynamicEntityFeedReader)
        /// The source connects to its real feed (`init(transport:...)`).
        case connectToFeed
        /// What the real feed did.
        case feedReport(DynamicEntityFeedLink.Report)
        /// The source disconnects (what the feed sends afterwards is missed).
        case disconnect
        /// The store is emptied; the source stays connected.
        case purgeAll
        /// The network goes down for this long: the connection is lost now and connecting fails meanwhile.
        case outage(SimTime)
        /// The store's oldest observation is due to age out.
        case expiryDue
        /// A reconnect attempt is due.
        case retryDue
        /// An outage is over.
        case outageEnds
        /// The feed's observations due now arrive (after the timers due now).
        case observationsDue
        /// The run goes on to this time: an unobserved source (no events, no bound source) takes
        /// the observations due by then at once, in order, stopping before each timer of its own —
        /// nobody can see the times in between, and a bulk replay does not step the loop once a line.
        case playUntil(SimTime)
        /// What happened now goes to the map.
        case flush
        /// Step of `flush`: the bound source took the latest positions (or refused them); the tracks follow.
        case entitiesShown(LoadingError?, tracks: GeoJSONSourceDiff?, update: Int)
        /// Step: the bound track source took the tracks (or refused them).
        case tracksShown(LoadingError?)
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

    private(set) var store: DynamicEntityStore
    private var connection: DynamicEntityConnection
    private let filter: DynamicEntityFilter
    private let binding: DynamicEntityBinding?
    private let reportsEvents: Bool
    private var feed: DynamicEntityFeedReader?
    /// The link to a real feed, and the parser of its lines, when the source reads one.
    private var link: DynamicEntityFeedLink?
    private var lineParser: DynamicEntityLineParser?
    private var linesRead = 0
    private var feedStart: SimTime?
    /// The feed's next observation and when it arrives.
    private var nextObservation: (time: SimTime, line: DynamicEntityFeedLine)?
    /// When each timer scheduled and not yet fired is due, earliest first.
    private var timers: [SimTime] = []
    private var expiryScheduled: SimTime?
    private var outageEnd: SimTime?
    private var flushScheduled = false
    /// How far an unobserved source may take observations ahead of the loop's clock.
    private var horizon: SimTime?
    private var outbox: [DynamicEntityEvent] = []
    private var dirtyTracks: [String] = []
    private var dirtySet: Set<String> = []
    /// The first malformed lines (at most 100), with why.
    private(set) var malformedLines: [(line: Int, reason: String)] = []
    private var malformedCount = 0
    private var filteredOut = 0
    private var missed = 0
    private var updates = 0
    /// Whether the whole feed has been played.
    public private(set) var isFeedFinished = false

    /// A source keeping observations by `options` and `filter`, with the connection's `schedule`,
    /// showing on the map through `binding`; with `reportsEvents` false it sends no events (bulk
    /// replays that only count).
    public init(options: DynamicEntityPurgeOptions = .init(), filter: DynamicEntityFilter = .everything, binding: DynamicEntityBinding? = nil,
                schedule: DynamicEntityConnection.Schedule = .init(), reportsEvents: Bool = true) {
        self.filter = filter
        self.binding = binding
        self.reportsEvents = reportsEvents
        store = DynamicEntityStore(options: options, reportsEvents: reportsEvents || binding != nil)
        connection = DynamicEntityConnection(schedule: schedule)
    }

    /// A source reading the real feed at `transport` in `format`, the rest as above; the map it is
    /// attached to follows the wall clock (`Map.followWallClock()`) for its messages to come in real time.
    public init(transport: DynamicEntityFeedLink.Transport, format: DynamicEntityFeedFormat, options: DynamicEntityPurgeOptions = .init(),
                filter: DynamicEntityFilter = .everything, binding: DynamicEntityBinding? = nil, schedule: DynamicEntityConnection.Schedule = .init()) {
        self.init(options: options, filter: filter, binding: binding, schedule: schedule)
        link = DynamicEntityFeedLink(transport: transport)
        lineParser = DynamicEntityLineParser(format: format)
    }

    /// The connection status.
    public var status: DynamicEntityConnectionStatus { connection.status }

    /// The counts so far.
    public var summary: Summary {
        Summary(counts: store.counts, observationsKept: store.count, entitiesKept: store.entityCount, malformed: malformedCount,
                filteredOut: filteredOut, missed: missed)
    }

    /// When something of the source is next due: a timer or the feed's next observation.
    public var nextDueTime: SimTime? {
        switch (timers.first, nextObservation?.time) {
        case (let timer?, let observation?): min(timer, observation)
        case (let timer, let observation): timer ?? observation
        }
    }

    public mutating func handle(_ input: Input, at now: SimTime) -> [Action] {
        switch input {
        case .connect(let reader):
            feed = reader
            return execute(connection.handle(.connect, at: now), at: now) + flush()
        case .connectToFeed:
            return execute(connection.handle(.connect, at: now), at: now) + flush()
        case .feedReport(let report):
            guard var link else { preconditionFailure("a report of a real feed reached a source playing a recording") }
            let arrival = link.take(report, isConnected: connection.status == .connected)
            self.link = link
            switch arrival {
            case .stale(let work):
                return work.map { [Self.perform($0)] } ?? []
            case .connection(let input, let dropped):
                missed += dropped
                return execute(connection.handle(input, at: now), at: now) + scheduleExpiry() + flushLast(at: now)
            case .text(let text):
                receive(text: text, at: now)
                return scheduleExpiry() + flushLast(at: now)
            }
        case .disconnect:
            return execute(connection.handle(.disconnect, at: now), at: now) + flush()
        case .purgeAll:
            record(store.purgeAll())
            return flush()
        case .outage(let duration):
            outageEnd = now + duration
            let ends = schedule(.outageEnds, at: now + duration)
            return ends + execute(connection.handle(.connectionLost("the connection to the feed was lost", shouldReconnect: true), at: now), at: now)
                + flush()
        case .expiryDue:
            fired(at: now)
            expiryScheduled = nil
            record(store.purgeExpired(at: now))
            return scheduleExpiry() + flushLast(at: now)
        case .retryDue:
            fired(at: now)
            return execute(connection.handle(.retryDue, at: now), at: now) + scheduleExpiry() + flushLast(at: now)
        case .outageEnds:
            fired(at: now)
            if let end = outageEnd, end <= now { outageEnd = nil }
            return scheduleExpiry() + flushLast(at: now)
        case .observationsDue:
            return receiveDue(at: now) + flush()
        case .playUntil(let time):
            horizon = time
            return []
        case .flush:
            flushScheduled = false
            return flush()
        case .entitiesShown(let refusal, let tracks, let update):
            if let refusal { return [.emit(.live(.error(message: "cannot show the dynamic entities on the map: \(refusal)")))] }
            guard let tracks, let trackSource = binding?.trackSourceID else { return [] }
            return [.call(.updateGeoJSONSource(id: trackSource, diff: tracks, dataID: "tracks-\(update)")) { .tracksShown($0) }]
        case .tracksShown(let refusal):
            return refusal.map { [.emit(.live(.error(message: "cannot show the dynamic entities on the map: \($0)")))] } ?? []
        }
    }

    // MARK: - Steps

    /// Every observation due by `now`, in order; an age purge due meanwhile comes before the next
    /// one. Unobserved, it goes on to the horizon, stopping before its next timer.
    private mutating func receiveDue(at now: SimTime) -> [Action] {
        var actions: [Action] = []
        let ahead = !reportsEvents && binding == nil ? horizon : nil
        while let (arrival, line) = nextObservation, arrival <= now || ahead.map({ arrival <= $0 && timers.first.map { arrival < $0 } ?? true }) == true {
            let time = max(arrival, now)
            nextObservation = nil
            receive(line, at: time)
            readNextObservation(at: time)
            if let expiry = store.nextExpiry, expiry <= time {
                record(store.purgeExpired(at: time))
            }
            actions += scheduleExpiry()
        }
        if let next = nextObservation { actions.append(.scheduleLast(.observationsDue, at: next.time)) }
        return actions
    }

    /// A message of the real feed: one observation a line, read when the connection is open.
    private mutating func receive(text: String, at now: SimTime) {
        guard connection.status == .connected, var parser = lineParser else { return }
        for line in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: true) {
            linesRead += 1
            switch parser.parse(Array(line), number: linesRead) {
            case .observation(let parsed): receive(parsed, at: now)
            case .malformed(let number, let reason): countMalformed(number, reason)
            }
        }
        lineParser = parser
    }

    /// Work with the real feed, performed beside the map's loop; what it reports comes back as input.
    private static func perform(_ work: @escaping DynamicEntityFeedLink.Work) -> Action {
        .perform { post in await work(post.map { .feedReport($0) }) }
    }

    private mutating func receive(_ line: DynamicEntityFeedLine, at now: SimTime) {
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

    /// Reads the feed on to its next observation; malformed lines are counted on the way.
    private mutating func readNextObservation(at now: SimTime) {
        guard let feed, let feedStart else { return }
        while let item = feed.next() {
            switch item {
            case .observation(let line):
                nextObservation = (max(feedStart + line.offset, now), line)
                return
            case .malformed(let line, let reason):
                countMalformed(line, reason)
            }
        }
        isFeedFinished = true
    }

    /// A line that is no observation: counted, and the first hundred kept with why.
    private mutating func countMalformed(_ line: Int, _ reason: String) {
        malformedCount += 1
        if malformedLines.count < 100 { malformedLines.append((line, reason)) }
    }

    /// A timer, on the map's scheduler.
    private mutating func schedule(_ input: Input, at time: SimTime) -> [Action] {
        timers.insert(time, at: timers.firstIndex { $0 > time } ?? timers.endIndex)
        return [.schedule(input, at: time)]
    }

    /// A timer fired.
    private mutating func fired(at now: SimTime) {
        if let index = timers.firstIndex(of: now) { timers.remove(at: index) }
    }

    private mutating func scheduleExpiry() -> [Action] {
        guard let expiry = store.nextExpiry, expiryScheduled.map({ expiry < $0 }) ?? true else { return [] }
        expiryScheduled = expiry
        return schedule(.expiryDue, at: expiry)
    }

    /// Carries out what the connection asks: the simulated transport answers at once, refused
    /// during an outage, else connected (the feed starts playing at the first connection).
    private mutating func execute(_ decisions: [DynamicEntityConnection.Action], at now: SimTime) -> [Action] {
        var actions: [Action] = []
        for decision in decisions {
            switch decision {
            case .connect where link != nil:
                if let work = link?.connect() { actions.append(Self.perform(work)) }
            case .disconnect where link != nil:
                if let work = link?.disconnect() { actions.append(Self.perform(work)) }
            case .connect:
                if outageEnd != nil {
                    actions += execute(connection.handle(.connectFailed("the feed cannot be reached"), at: now), at: now)
                } else {
                    actions += execute(connection.handle(.connected, at: now), at: now)
                    if feedStart == nil {
                        feedStart = now
                        readNextObservation(at: now)
                        if let next = nextObservation { actions.append(.scheduleLast(.observationsDue, at: next.time)) }
                    }
                }
            case .disconnect:
                break
            case .scheduleRetry(let time):
                actions += schedule(.retryDue, at: time)
            case .emit(let event):
                if reportsEvents { outbox.append(event) }
            }
        }
        return actions
    }

    private mutating func record(_ events: [DynamicEntityEvent]) {
        if reportsEvents { outbox += events }
        guard binding != nil else { return }
        for event in events {
            switch event {
            case .observationReceived(let trackID, _, _), .observationPurged(let trackID, _, _, _), .entityPurged(let trackID, _):
                if dirtySet.insert(trackID).inserted { dirtyTracks.append(trackID) }
            case .entityReceived, .connectionStatusChanged:
                break
            }
        }
    }

    /// A flush after everything else due now, unless one is coming.
    private mutating func flushLast(at now: SimTime) -> [Action] {
        guard !flushScheduled else { return [] }
        flushScheduled = true
        return [.scheduleLast(.flush, at: now)]
    }

    /// Sends the events of what just happened to the map, then the entities that changed to the
    /// bound sources.
    private mutating func flush() -> [Action] {
        var actions: [Action] = outbox.map { .emit(.dynamicEntity($0)) }
        outbox = []
        guard let binding, !dirtyTracks.isEmpty else { return actions }
        let (latest, tracks) = binding.diffs(for: dirtyTracks, in: store)
        dirtyTracks = []
        dirtySet = []
        updates += 1
        actions.append(.call(.updateGeoJSONSource(id: binding.sourceID, diff: latest, dataID: "entities-\(updates)")) { [update = updates] refusal in
            .entitiesShown(refusal, tracks: tracks, update: update)
        })
        return actions
    }
}
