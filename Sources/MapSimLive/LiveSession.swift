import MapSim
import MapSimJSON

/// Live data on a map: a `LiveSessionMachine` attached to the map, so that the live-data manager,
/// the view follower and the simulated broker run in the map's own drive loop, on its clock — the
/// same script gives the same trace on every run. Events go into the map's stream; without a map
/// they go to `observer`, through a map that loads nothing.
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
public actor LiveSession {
    /// The map whose loop runs the session.
    public nonisolated let map: Map
    private var machine: LiveSessionMachine?
    private var id: MapAttachmentID<LiveSessionMachine>?
    private let subscription: Cancelable?
    /// Whether the map follows the wall clock once the session is attached (a real broker).
    private let followsWallClock: Bool

    /// A session whose events go into `map`'s event stream (to `observer` when there is no map), and
    /// whose updates change the map's GeoJSON source named by `binding`. `seed` draws the reconnect
    /// jitter and the broker's chaos; `fields` and `floor` say where the source's locations are and
    /// which floor the map shows, for `enableLiveData`.
    public init(map: Map?, broker: SimulatedBroker.Configuration = .init(), binding: LiveBinding? = nil,
                backoff: LiveDataManager.Backoff = .init(), seed: UInt64 = 0, fields: LiveLocationFields = .init(), floor: String? = nil,
                observer: (@Sendable (MapEvent) -> Void)? = nil) {
        let map = map ?? Map.withoutStyle()
        self.map = map
        subscription = observer.map { map.subscribeAll($0) }
        machine = LiveSessionMachine(broker: broker, binding: binding, backoff: backoff, seed: seed, fields: fields, floor: floor)
        followsWallClock = false
    }

    /// A session with the real MQTT broker at `endpoint`, whose events go into `map`'s stream and
    /// whose updates change the map's GeoJSON source named by `binding`. The map follows the wall
    /// clock from the session's first use (`Map.followWallClock()`), so the broker's messages are
    /// taken as they come; the rest — the view follower, the display rule, the back-off — is the
    /// simulated broker's session's, on the same loop.
    public init(map: Map, mqtt endpoint: MQTTLiveSession.Endpoint, binding: LiveBinding? = nil, backoff: LiveDataManager.Backoff = .init(),
                seed: UInt64 = 0, fields: LiveLocationFields = .init(), floor: String? = nil) {
        self.map = map
        subscription = nil
        machine = LiveSessionMachine(mqtt: endpoint, binding: binding, backoff: backoff, seed: seed, fields: fields, floor: floor)
        followsWallClock = true
    }

    /// The session's machine as it is now.
    private var current: LiveSessionMachine {
        get async { await map.attachment(attached()) }
    }

    /// The session's attachment, attached at its first use.
    private func attached() async -> MapAttachmentID<LiveSessionMachine> {
        if let id { return id }
        guard let machine = machine.take() else { preconditionFailure("the live session is attached once") }
        if followsWallClock { await map.followWallClock() }
        let attached = await map.attach(machine)
        id = attached
        return attached
    }

    private func send(_ input: LiveSessionMachine.Input) async {
        await map.send(input, to: attached())
    }

    /// The manager's connection state.
    public var state: LiveConnectionState { get async { await current.manager.state } }

    /// The newest update of every item and domain received.
    public var store: LiveStore { get async { await current.manager.store } }

    /// The current virtual time: the map's.
    public var now: SimTime { get async { await map.now } }

    /// Whether the broker is up.
    public var isBrokerRunning: Bool { get async { await current.broker.isRunning } }

    // MARK: - What the user does

    /// Subscribes to `criteria` (connecting first if needed).
    public func subscribe(_ criteria: TopicCriteria) async {
        await send(.subscribe(criteria))
    }

    /// Unsubscribes from `criteria` (disconnecting after the last one); a criteria the view also
    /// needs stays subscribed for it.
    public func unsubscribe(_ criteria: TopicCriteria) async {
        await send(.unsubscribe(criteria))
    }

    /// MapsIndoors' `enableLiveData(domainType)`: from the next time the map is idle, and after every
    /// camera or floor change once it is idle again, subscribes to what is in view for `domain`
    /// (`LiveViewRule`), draws the live state (`LiveDisplayRule`) and reports `live-locations-updated`.
    /// A domain that cannot be a topic level is an error; without a bound source it is a live-error event.
    public func enableLiveData(domain: String) async throws(LiveTopicError) {
        try Self.checkDomain(domain)
        await send(.enable(domain: domain))
    }

    /// MapsIndoors' `disableLiveData(domainType)`: what the view subscribed for `domain` is
    /// unsubscribed and its display layer removed.
    public func disableLiveData(domain: String) async {
        await send(.disable(domain: domain))
    }

    /// The domains whose live data follows the view, in the order enabled.
    public var liveDataDomains: [String] { get async { await current.follower.domains } }

    /// What the view has subscribed to, by domain, as of the last settle.
    public var viewCriteria: [String: [TopicCriteria]] { get async { await current.follower.viewCriteria } }

    /// Shows `floor` (MapsIndoors shows one floor at a time): the display layers show its locations
    /// at once, and the criteria follow once the map is idle.
    public func setFloor(_ floor: String) async {
        await send(.setFloor(floor))
    }

    /// The floor chosen with `setFloor` (or at creation); nil while the lowest floor is shown.
    public var floor: String? { get async { await current.chosenFloor } }

    /// A domain must be one topic level.
    static func checkDomain(_ domain: String) throws(LiveTopicError) {
        guard LiveTopic.isLevel(domain) else {
            throw LiveTopicError(.invalidTopic, topic: domain, "a domain type is one topic level: not empty, without /, +, # or NUL")
        }
    }

    // MARK: - What the world does

    /// Publishes `update` on the broker now; `delay` holds it back on its way to the client.
    public func publish(_ update: LiveUpdate, delay: SimTime = .zero) async {
        await send(.broker(.publish(update.topic, payload: update.payload, delay: delay)))
    }

    /// Publishes `updates` on the broker now, in order.
    public func publish(_ updates: [LiveUpdate]) async {
        await send(.publish(updates))
    }

    /// The network drops the connection (the broker stays up).
    public func dropConnection() async { await send(.broker(.dropConnection)) }

    /// The broker stops: the connection is lost and connects fail until it starts again.
    public func stopBroker() async { await send(.broker(.stop)) }

    /// The broker starts again.
    public func startBroker() async { await send(.broker(.start)) }

    // MARK: - Running

    /// Runs everything due in the next `duration` on the map's loop, the map's work and the live data's.
    public func advance(by duration: SimTime) async {
        _ = await attached()
        await map.advance(by: duration)
    }

    /// Why `run(notAfter:messages:)` stopped.
    public enum RunEnd: Sendable, Equatable {
        /// The limit came.
        case limit
        /// So many messages came from the broker and went to the map.
        case messages
        /// The real broker cannot be reached (a connect failed before any succeeded), for this reason.
        case unreachable(String)
    }

    /// Runs the map and the live data until `limit` — sooner once `count` messages (when given) came
    /// from the broker and their events went to the map (each a live-update, or a live-error when it
    /// is no valid update), or once the real broker proves unreachable.
    public func run(notAfter limit: SimTime, messages count: Int? = nil) async -> RunEnd {
        let id = await attached()
        let stops: @Sendable (LiveSessionMachine) -> Bool = { machine in
            machine.unreachableBroker != nil || count.map { machine.messagesDelivered >= $0 } == true
        }
        // What is due now and was not run yet waits for a later limit.
        guard await map.now < limit else { return .limit }
        if await map.run(id, until: stops, notAfter: limit) {
            return await map.attachment(id).unreachableBroker.map(RunEnd.unreachable) ?? .messages
        }
        let now = await map.now
        if limit > now && !Task.isCancelled { await map.advance(by: limit - now) }
        return .limit
    }

    /// Closes the real broker's connection and stops retrying.
    public func close() async {
        await send(.close)
    }

    /// Runs the map and the live data until the map reaches `state`, or `timeout` passes.
    public func run(until state: Map.State, timeout: SimTime) async -> Map.RunOutcome {
        _ = await attached()
        return await map.run(until: state, timeout: timeout)
    }
}
