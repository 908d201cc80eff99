import MapSim
import MapSimJSON

/// A dynamic-entity data source on the virtual clock: a `DynamicEntitySessionMachine` attached to a
/// map, so the feed, the connection's reconnect schedule and the store's purges run in the map's own
/// drive loop, on its clock — a run gives the same trace every time. Scripted outages make the
/// connection drop and reconnect attempts fail while they last (what the feed sends meanwhile is
/// missed). Events go into the map's event stream (or to an observer, through a map that loads
/// nothing), and with a `DynamicEntityBinding` the entities show on the map's GeoJSON sources.
public actor DynamicEntitySession {
    /// What a run counted.
    public typealias Summary = DynamicEntitySessionMachine.Summary

    /// The map whose loop runs the source.
    public nonisolated let map: Map
    private var pending: DynamicEntitySessionMachine?
    private var attachment: MapAttachmentID<DynamicEntitySessionMachine>?
    private let subscription: Cancelable?

    /// A source keeping observations by `options` and `filter`, reporting into `map`'s events (to
    /// `observer` without a map; not at all with `reportsEvents` false, for bulk replays that only
    /// count) and showing on the map through `binding`.
    public init(map: Map?, options: DynamicEntityPurgeOptions = .init(), filter: DynamicEntityFilter = .everything,
                binding: DynamicEntityBinding? = nil, schedule: DynamicEntityConnection.Schedule = .init(),
                reportsEvents: Bool = true, observer: (@Sendable (MapEvent) -> Void)? = nil) {
        let reports = reportsEvents && (map != nil || observer != nil)
        let host = map ?? Map.withoutStyle()
        self.map = host
        subscription = map == nil ? observer.map { host.subscribeAll($0) } : nil
        pending = DynamicEntitySessionMachine(options: options, filter: filter, binding: map == nil ? nil : binding, schedule: schedule,
                                              reportsEvents: reports)
    }

    /// The source's attachment, attached at its first use.
    private var id: MapAttachmentID<DynamicEntitySessionMachine> {
        get async {
            if let attachment { return attachment }
            guard let machine = pending.take() else { preconditionFailure("the dynamic-entity source is attached once") }
            let attached = await map.attach(machine)
            attachment = attached
            return attached
        }
    }

    private var machine: DynamicEntitySessionMachine {
        get async { await map.attachment(id) }
    }

    /// The connection status.
    public var status: DynamicEntityConnectionStatus { get async { await machine.status } }

    /// What the store keeps.
    public var entities: [DynamicEntityStore.Entity] { get async { await machine.store.entities } }

    /// The kept observations of a track, oldest first.
    public func track(_ trackID: String) async -> [DynamicEntityObservation] { await machine.store.track(trackID) }

    /// The ids of the kept observations, oldest first.
    public var observationIDs: [Int64] { get async { await machine.store.observationIDs } }

    /// The counts so far.
    public var summary: Summary { get async { await machine.summary } }

    /// The first malformed lines (at most 100), with why.
    public var malformedLines: [(line: Int, reason: String)] { get async { await machine.malformedLines } }

    /// Whether the whole feed has been played.
    public var isFeedFinished: Bool { get async { await machine.isFeedFinished } }

    /// The current virtual time: the map's.
    public var now: SimTime { get async { await map.now } }

    // MARK: - What the user does

    /// Connects the source to `feed`; the feed plays from the moment the connection is made.
    public func connect(to feed: DynamicEntityFeedReader) async {
        await map.send(.connect(feed), to: await id)
    }

    /// Disconnects the source (what the feed sends afterwards is missed).
    public func disconnect() async {
        await map.send(.disconnect, to: await id)
    }

    /// Empties the store; the source stays connected and keeps adding what comes next.
    public func purgeAll() async {
        await map.send(.purgeAll, to: await id)
    }

    // MARK: - What the world does

    /// The network goes down for `duration`: the connection is lost now, and connecting fails until it is back.
    public func outage(for duration: SimTime) async {
        await map.send(.outage(duration), to: await id)
    }

    // MARK: - Running

    /// Runs everything due in the next `duration`, the map's work and the source's in time order.
    public func advance(by duration: SimTime) async {
        _ = await id
        await map.advance(by: duration)
    }

    /// Plays the feed on for `step` of virtual time from whatever of the source is next due — time
    /// with nothing due costs nothing — and stops at its last observation, so that what the store
    /// keeps is what it holds when the feed ends, not after age purged it further. Returns false
    /// when nothing was due (the feed cannot go on).
    @discardableResult
    public func play(for step: SimTime) async -> Bool {
        guard let first = await machine.nextDueTime else { return false }
        let limit = first + step
        await map.send(.playUntil(limit), to: await id)
        _ = await map.run(await id, until: { $0.isFeedFinished || ($0.nextDueTime.map { $0 > limit } ?? true) }, notAfter: .max)
        return true
    }

    /// Runs until the feed has been played to its end (or until nothing more can happen).
    public func runToEnd() async {
        await map.send(.playUntil(.max), to: await id)
        _ = await map.run(await id, until: { $0.isFeedFinished || $0.nextDueTime == nil }, notAfter: .max)
    }

    /// Runs the map and the source until the map reaches `state`, or `timeout` passes.
    public func run(until state: Map.State, timeout: SimTime) async -> Map.RunOutcome {
        _ = await id
        return await map.run(until: state, timeout: timeout)
    }
}
