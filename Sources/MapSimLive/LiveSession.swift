import MapSim
import MapSimJSON

/// Live data on the virtual clock: a `LiveDataManager` talking to a `SimulatedBroker`, its events
/// reported into a map's event stream (or to an observer), and its updates applied to the map through
/// a `LiveBinding`. The map's clock is the session's: before anything live happens at time T, the map
/// runs everything due before T, so the same script gives the same trace on every run.
///
/// ```swift
/// let session = LiveSession(map: map, binding: LiveBinding(sourceID: "rooms"))
/// await session.subscribe(try TopicCriteria(parsing: "ds/venue/#"))
/// await session.publish(update)
/// await session.advance(by: .seconds(1))
/// ```
public actor LiveSession: MapClockCompanion {
    private enum Due: Sendable {
        case delivery(SimulatedBroker.Delivery)
        case reconnect
    }

    private var manager: LiveDataManager
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
    /// jitter and the broker's chaos.
    public init(map: Map?, broker: SimulatedBroker.Configuration = .init(), binding: LiveBinding? = nil,
                backoff: LiveDataManager.Backoff = .init(), seed: UInt64 = 0, observer: (@Sendable (MapEvent) -> Void)? = nil) {
        self.map = map
        self.binding = binding
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
        await feed(.subscribe(criteria))
    }

    /// Unsubscribes from `criteria` (disconnecting after the last one).
    public func unsubscribe(_ criteria: TopicCriteria) async {
        await feed(.unsubscribe(criteria))
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

    private func feed(_ input: LiveDataManager.Input) async {
        await synchronize()
        handle(input)
        await flush()
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
                if case .update(let update) = event, let binding {
                    let (id, change) = binding.change(for: update)
                    changes.change(id, change)
                    appliedUpdates += 1
                }
            }
        }
    }

    private func deliver(_ deliveries: [SimulatedBroker.Delivery]) {
        for delivery in deliveries { scheduler.schedule(.delivery(delivery), at: delivery.time) }
    }

    /// Sends the events of the inputs just handled to the map (or the observer), then their feature
    /// changes as one update of the bound source, named by the count of updates applied so far.
    private func flush() async {
        await send(outbox.map(MapEventPayload.live))
        outbox = []
        guard let map, let binding, !changes.isEmpty else { return }
        let diff = changes
        changes = GeoJSONSourceDiff()
        do {
            try await map.updateGeoJSONSource(id: binding.sourceID, diff: diff, dataID: "live-\(appliedUpdates)")
        } catch {
            await map.report(.live(.error(message: "cannot apply \(diff.count) update\(diff.count == 1 ? "" : "s") to source \"\(binding.sourceID)\": \(error)")))
        }
    }
}
