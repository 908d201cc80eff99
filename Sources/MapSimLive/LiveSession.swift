import MapSim
import MapSimJSON

/// Live data on the virtual clock: a `LiveDataManager` talking to a `SimulatedBroker`, its events
/// reported into a map's event stream (or to an observer), and its updates applied to the map through
/// a `LiveBinding`. The map's clock is the session's: before anything live happens at time T, the map
/// runs everything due before T, so the same script gives the same trace on every run.
///
/// It is also the map control's live data (`enableLiveData(domain:)`): subscriptions that follow
/// what the map shows (`LiveViewFollower`, `LiveViewRule`), the floor shown (`setFloor`), the default
/// display rule (`LiveDisplayRule`) and `live-locations-updated` for each change applied.
///
/// ```swift
/// let session = LiveSession(map: map, binding: LiveBinding(sourceID: "rooms"))
/// await session.subscribe(try TopicCriteria(parsing: "ds/venue/#"))
/// try await session.enableLiveData(domain: "occupancy")
/// await session.publish(update)
/// await session.advance(by: .seconds(1))
/// ```
public actor LiveSession: MapClockCompanion {
    private enum Due: Sendable {
        case delivery(SimulatedBroker.Delivery)
        case reconnect
    }

    private var manager: LiveDataManager
    private var follower = LiveViewFollower()
    private let fields: LiveLocationFields
    /// The floor chosen; nil shows the lowest floor of the locations.
    private var chosenFloor: String?
    /// What the map showed when it last settled.
    private var settledView: LiveView?
    /// The floor each domain's display layer shows, by domain.
    private var displayedFloors: [String: String] = [:]
    /// The locations whose state changed in an enabled domain, by domain, since the last flush.
    private var changedLocations: [String: [String]] = [:]
    private var broker: SimulatedBroker
    private var scheduler = Scheduler<Due>()
    let map: Map?
    private let binding: LiveBinding?
    let observer: (@Sendable (MapEvent) -> Void)?
    private var appliedUpdates = 0
    /// Events and feature changes of the inputs being handled, sent to the map together once they are.
    private var outbox: [LiveEvent] = []
    private var changes = GeoJSONSourceDiff()

    /// A session whose events go into `map`'s event stream (to `observer` when there is no map), and
    /// whose updates change the map's GeoJSON source named by `binding`. `seed` draws the reconnect
    /// jitter and the broker's chaos; `fields` and `floor` say where the source's locations are and
    /// which floor the map shows, for `enableLiveData`.
    public init(map: Map?, broker: SimulatedBroker.Configuration = .init(), binding: LiveBinding? = nil,
                backoff: LiveDataManager.Backoff = .init(), seed: UInt64 = 0, fields: LiveLocationFields = .init(), floor: String? = nil,
                observer: (@Sendable (MapEvent) -> Void)? = nil) {
        self.map = map
        self.binding = binding
        self.fields = fields
        chosenFloor = floor
        self.observer = observer
        manager = LiveDataManager(backoff: backoff, seed: seed)
        self.broker = SimulatedBroker(configuration: broker, seed: seed)
    }

    /// The manager's connection state.
    public var state: LiveConnectionState { manager.state }

    /// The newest update of every item and domain received.
    public var store: LiveStore { manager.store }

    /// The current virtual time.
    public var now: SimTime { scheduler.now }

    /// Whether the broker is up.
    public var isBrokerRunning: Bool { broker.isRunning }

    // MARK: - What the user does

    /// Subscribes to `criteria` (connecting first if needed).
    public func subscribe(_ criteria: TopicCriteria) async {
        await follow(.subscribe(criteria))
    }

    /// Unsubscribes from `criteria` (disconnecting after the last one); a criteria the view also
    /// needs stays subscribed for it.
    public func unsubscribe(_ criteria: TopicCriteria) async {
        await follow(.unsubscribe(criteria))
    }

    /// MapsIndoors' `enableLiveData(domainType)`: from the next time the map settles, and after every
    /// camera or floor change settles, subscribes to what is in view for `domain` (`LiveViewRule`),
    /// draws the live state (`LiveDisplayRule`) and reports `live-locations-updated`. A domain that
    /// cannot be a topic level is an error; without a bound source it is a live-error event.
    public func enableLiveData(domain: String) async throws(LiveTopicError) {
        try Self.checkDomain(domain)
        await synchronize()
        guard binding != nil else {
            outbox.append(.error(message: "live data for \(domain) needs a GeoJSON source to follow: the session has none"))
            return await flush()
        }
        route(follower.handle(.enable(domain: domain), at: scheduler.now))
        await flush()
    }

    /// MapsIndoors' `disableLiveData(domainType)`: what the view subscribed for `domain` is
    /// unsubscribed and its display layer removed.
    public func disableLiveData(domain: String) async {
        await synchronize()
        route(follower.handle(.disable(domain: domain), at: scheduler.now))
        if displayedFloors.removeValue(forKey: domain) != nil, await map?.style?.layers.contains(where: { $0.id == LiveDisplayRule.layerID(domain: domain) }) == true {
            do {
                try await map?.removeLayer(id: LiveDisplayRule.layerID(domain: domain))
            } catch {
                outbox.append(.error(message: "cannot remove the live data layer of \(domain): \(error)"))
            }
        }
        await flush()
    }

    /// The domains whose live data follows the view, in the order enabled.
    public var liveDataDomains: [String] { follower.domains }

    /// What the view has subscribed to, by domain, as of the last settle.
    public var viewCriteria: [String: [TopicCriteria]] { follower.viewCriteria }

    /// Shows `floor` (MapsIndoors shows one floor at a time): the display layers show its locations
    /// at once, and the criteria follow once the map settles.
    public func setFloor(_ floor: String) async {
        await synchronize()
        guard floor != chosenFloor else { return }
        chosenFloor = floor
        follower.viewChanged()
        await showDisplayLayers(floor: floor)
        await flush()
    }

    /// The floor chosen with `setFloor` (or at creation); nil while the lowest floor is shown.
    public var floor: String? { chosenFloor }

    /// A domain must be one topic level.
    static func checkDomain(_ domain: String) throws(LiveTopicError) {
        guard LiveTopic.isLevel(domain) else {
            throw LiveTopicError(.invalidTopic, topic: domain, "a domain type is one topic level: not empty, without /, +, # or NUL")
        }
    }

    // MARK: - What the world does

    /// Publishes `update` on the broker now; `delay` holds it back on its way to the client.
    public func publish(_ update: LiveUpdate, delay: SimTime = .zero) async {
        await command(.publish(update.topic, payload: update.payload, delay: delay))
    }

    /// Publishes `updates` on the broker now, in order.
    public func publish(_ updates: [LiveUpdate]) async {
        await synchronize()
        for update in updates { deliver(broker.handle(.publish(update.topic, payload: update.payload), at: scheduler.now)) }
        await runDue(at: scheduler.now)
    }

    /// The network drops the connection (the broker stays up).
    public func dropConnection() async { await command(.dropConnection) }

    /// The broker stops: the connection is lost and connects fail until it starts again.
    public func stopBroker() async { await command(.stop) }

    /// The broker starts again.
    public func startBroker() async { await command(.start) }

    // MARK: - Running

    /// Runs everything due in the next `duration`, the map's work and the live data's in time order.
    public func advance(by duration: SimTime) async {
        await advanceTogether(by: duration)
    }

    /// Runs the map and the live data until the map reaches `state`, or `timeout` passes.
    public func run(until state: Map.State, timeout: SimTime) async -> Map.RunOutcome {
        await runTogether(until: state, timeout: timeout)
    }

    var companionNow: SimTime { scheduler.now }

    func waitsForMapIdle() async -> Bool {
        guard !follower.domains.isEmpty, let map else { return false }
        let camera = await map.effectiveCamera
        let viewport = await map.viewport
        if settledView.map({ $0.camera != camera || $0.viewport != viewport }) ?? true { follower.viewChanged() }
        return follower.isWaitingToSettle
    }

    /// The map settled after a change: the display layers show the floor, and the criteria follow the view.
    func mapSettled() async {
        guard let map, let binding else { return }
        let (locations, view) = await LiveView.current(on: map, source: binding.sourceID, fields: fields, floor: chosenFloor)
        settledView = view
        await showDisplayLayers(floor: view.floor)
        route(follower.handle(.settled(locations: locations, view: view), at: scheduler.now))
        await flush()
    }

    /// Makes each enabled domain's display layer show `floor`; a map with no style yet gets them at
    /// the next settle, and so does a style loaded since (a new style has none of them).
    private func showDisplayLayers(floor: String) async {
        guard let map, let binding, let style = await map.style else { return }
        let present = Set(style.layers.map(\.id))
        for domain in follower.domains {
            let id = LiveDisplayRule.layerID(domain: domain)
            if !present.contains(id) { displayedFloors[domain] = nil }
            guard displayedFloors[domain] != floor else { continue }
            do {
                if displayedFloors[domain] != nil { try await map.removeLayer(id: id) }
                displayedFloors[domain] = nil
                try await map.addLayer(LiveDisplayRule.layer(domain: domain, source: binding.sourceID, floor: floor, fields: fields))
                displayedFloors[domain] = floor
            } catch {
                outbox.append(.error(message: "cannot show the live data of \(domain): \(error)"))
            }
        }
    }

    var nextDueTime: SimTime? { scheduler.nextTime }

    func advanceCompanionClock(to time: SimTime) {
        scheduler.advance(to: time)
    }

    /// Runs every live input due at `time`, in order, then sends what they caused to the map.
    func runDue(at time: SimTime) async {
        while let (_, due) = scheduler.popNext(notAfter: time) {
            switch due {
            case .delivery(let delivery):
                guard broker.accepts(delivery) else { continue }
                handle(delivery.input)
            case .reconnect:
                handle(.reconnectDue)
            }
        }
        await flush()
    }

    private func command(_ command: SimulatedBroker.Command) async {
        await synchronize()
        for delivery in broker.handle(command, at: scheduler.now) {
            scheduler.schedule(.delivery(delivery), at: delivery.time)
        }
        // A loss is felt at once.
        await runDue(at: scheduler.now)
    }

    private func follow(_ input: LiveViewFollower.Input) async {
        await synchronize()
        route(follower.handle(input, at: scheduler.now))
        await flush()
    }

    /// Asks the manager what the follower decided.
    private func route(_ actions: [LiveViewFollower.Action]) {
        for action in actions {
            switch action {
            case .subscribe(let criteria): handle(.subscribe(criteria))
            case .unsubscribe(let criteria): handle(.unsubscribe(criteria))
            }
        }
    }

    private func handle(_ input: LiveDataManager.Input) {
        let now = scheduler.now
        for action in manager.handle(input, at: now) {
            switch action {
            case .connect: deliver(broker.handle(.connect, at: now))
            case .disconnect: deliver(broker.handle(.disconnect, at: now))
            case .subscribe(let criteria): deliver(broker.handle(.subscribe(criteria), at: now))
            case .unsubscribe(let criteria): deliver(broker.handle(.unsubscribe(criteria), at: now))
            case .scheduleReconnect(let time): scheduler.schedule(.reconnect, at: time)
            case .emit(let event):
                outbox.append(event)
                if case .subscriptionError(let filter, _) = event, let criteria = try? TopicCriteria(parsing: filter) {
                    _ = follower.handle(.refused(criteria), at: now)
                }
                if case .update(let update) = event, let binding {
                    let (id, change) = binding.change(for: update)
                    changes.change(id, change)
                    appliedUpdates += 1
                    let domain = LiveBinding.domain(of: update)
                    if follower.domains.contains(domain), changedLocations[domain]?.contains(update.id) != true {
                        changedLocations[domain, default: []].append(update.id)
                    }
                }
            }
        }
    }

    private func deliver(_ deliveries: [SimulatedBroker.Delivery]) {
        for delivery in deliveries { scheduler.schedule(.delivery(delivery), at: delivery.time) }
    }

    /// Sends the events of the inputs just handled to the map (or the observer), then their feature
    /// changes as one update of the bound source, named by the count of updates applied so far, then
    /// `live-locations-updated` for each enabled domain whose locations changed.
    private func flush() async {
        await send(outbox.map(MapEventPayload.live))
        outbox = []
        guard let map, let binding, !changes.isEmpty else { return }
        let diff = changes
        changes = GeoJSONSourceDiff()
        do {
            try await map.updateGeoJSONSource(id: binding.sourceID, diff: diff, dataID: "live-\(appliedUpdates)")
        } catch {
            changedLocations = [:]
            await map.report(.live(.error(message: "cannot apply \(diff.count) update\(diff.count == 1 ? "" : "s") to source \"\(binding.sourceID)\": \(error)")))
            return
        }
        let updated = follower.domains.compactMap { domain in changedLocations[domain].map { LiveEvent.locationsUpdated(domain: domain, ids: $0) } }
        changedLocations = [:]
        await send(updated.map(MapEventPayload.live))
    }
}
