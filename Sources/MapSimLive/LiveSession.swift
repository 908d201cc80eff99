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
public actor LiveSession {
    private enum Due: Sendable {
        case delivery(SimulatedBroker.Delivery)
        case reconnect
    }

    private var manager: LiveDataManager
    private var broker: SimulatedBroker
    private var scheduler = Scheduler<Due>()
    private let map: Map?
    private let binding: LiveBinding?
    private let observer: (@Sendable (MapEvent) -> Void)?
    private var appliedUpdates = 0

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

    /// Publishes `update` on the broker now.
    public func publish(_ update: LiveUpdate) async {
        await command(.publish(update.topic, payload: update.payload))
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
        await synchronize()
        let deadline = scheduler.now + duration
        while let next = scheduler.nextTime, next <= deadline {
            await moveMap(to: next)
            await runDue(at: next)
        }
        await moveMap(to: deadline)
        scheduler.advance(to: deadline)
    }

    /// Runs the map and the live data until the map reaches `state`, or `timeout` passes.
    public func run(until state: Map.State, timeout: SimTime) async -> Map.RunOutcome {
        guard let map else { return .styleFailed("no map") }
        await synchronize()
        let deadline = scheduler.now + timeout
        while true {
            let limit = min(scheduler.nextTime ?? deadline, deadline)
            let outcome = await map.run(until: state, timeout: limit - (await map.now))
            if case .timedOut = outcome, limit < deadline {
                await runDue(at: limit)
                continue
            }
            await synchronize()
            return outcome
        }
    }

    /// Brings the session's clock to the map's.
    private func synchronize() async {
        if let map { scheduler.advance(to: await map.now) }
    }

    private func moveMap(to time: SimTime) async {
        guard let map else { return }
        let now = await map.now
        if time > now { await map.advance(by: time - now) }
    }

    /// Runs every live input due at `time`, in order.
    private func runDue(at time: SimTime) async {
        while let (_, due) = scheduler.popNext(notAfter: time) {
            switch due {
            case .delivery(let delivery):
                guard broker.accepts(delivery) else { continue }
                await handle(delivery.input)
            case .reconnect:
                await handle(.reconnectDue)
            }
        }
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
        await handle(input)
    }

    private func handle(_ input: LiveDataManager.Input) async {
        let now = scheduler.now
        for action in manager.handle(input, at: now) {
            switch action {
            case .connect: deliver(broker.handle(.connect, at: now))
            case .disconnect: deliver(broker.handle(.disconnect, at: now))
            case .subscribe(let criteria): deliver(broker.handle(.subscribe(criteria), at: now))
            case .unsubscribe(let criteria): deliver(broker.handle(.unsubscribe(criteria), at: now))
            case .scheduleReconnect(let time): scheduler.schedule(.reconnect, at: time)
            case .emit(let event):
                await report(event)
                if case .update(let update) = event { await apply(update) }
            }
        }
    }

    private func deliver(_ deliveries: [SimulatedBroker.Delivery]) {
        for delivery in deliveries { scheduler.schedule(.delivery(delivery), at: delivery.time) }
    }

    private func report(_ event: LiveEvent) async {
        if let map {
            await map.report(event)
        } else {
            observer?(MapEvent(begin: scheduler.now, end: scheduler.now, payload: .live(event)))
        }
    }

    private func apply(_ update: LiveUpdateReceived) async {
        guard let map, let binding else { return }
        appliedUpdates += 1
        do {
            try await binding.apply(update, to: map, dataID: "live-\(appliedUpdates)")
        } catch {
            await report(.error(message: "cannot apply the update of \(update.id) to source \"\(binding.sourceID)\": \(error)"))
        }
    }
}
