import MapSim

/// The live-data manager as a pure state machine, like the map's load sequence: inputs (what the
/// user asks, what the transport reports, timers) go in, actions (connect, subscribe, schedule a
/// reconnect, emit an event) come out. It follows MapsIndoors' manager:
///
/// - States `closed` (at first, and after a loss or a disconnect), `connecting`, `connected`,
///   `disconnecting`. The first subscribe connects; the last unsubscribe disconnects.
/// - A lost connection or a failed connect is reported (`live-error`) and retried after
///   `min(maximumDelay, initialDelay × 2^(n−1))` for the n-th attempt in a row, times a factor from
///   0.75 to 1 drawn from the seed; on reconnecting, every criteria still wanted is subscribed again.
/// - A refused subscription (SUBACK `0x80`) is a `live-subscription-error` and is never retried: the
///   topic may not exist in the dataset.
/// - Updates are matched against the active criteria on the client too; the newest timestamp wins
///   per item and domain, and an older update that arrives later is dropped.
public struct LiveDataManager: StateMachine {
    /// The manager's connection state.
    public typealias State = LiveConnectionState

    /// What happens to the manager.
    public enum Input: Sendable {
        case subscribe(TopicCriteria)
        case unsubscribe(TopicCriteria)
        /// The broker accepted the connection.
        case connected
        /// Connecting failed (refused, unreachable, timed out).
        case connectFailed(String)
        /// An open connection was lost.
        case connectionLost(String)
        /// The connection closed after the manager asked to disconnect.
        case disconnected
        /// The broker answered a SUBSCRIBE: granted, or refused (`0x80`).
        case subscribeAnswered(TopicCriteria, granted: Bool)
        case unsubscribeAnswered(TopicCriteria)
        case unsubscribeFailed(TopicCriteria, String)
        /// A PUBLISH arrived.
        case message(topic: String, payload: [UInt8])
        /// The reconnect timer fired.
        case reconnectDue
    }

    /// What the manager asks of its executor.
    public enum Action: Sendable, Equatable {
        case connect
        case disconnect
        case subscribe(TopicCriteria)
        case unsubscribe(TopicCriteria)
        /// Feed `reconnectDue` at this time.
        case scheduleReconnect(at: SimTime)
        case emit(LiveEvent)
    }

    /// The reconnect back-off.
    public struct Backoff: Sendable {
        public var initialDelay: SimTime
        public var maximumDelay: SimTime

        public init(initialDelay: SimTime = .milliseconds(1_000), maximumDelay: SimTime = .milliseconds(10_000)) {
            self.initialDelay = initialDelay
            self.maximumDelay = maximumDelay
        }
    }

    public private(set) var state = State.closed
    /// The criteria the user wants, in the order asked.
    public private(set) var wanted: [TopicCriteria] = []
    /// The criteria the broker granted on the current connection.
    public private(set) var active: Set<TopicCriteria> = []
    /// The criteria subscribed on the current connection whose answer has not been taken yet.
    private var requested: Set<TopicCriteria> = []
    public private(set) var store = LiveStore()
    private var failedAttempts = 0
    private var reconnectScheduled = false
    private let backoff: Backoff
    private var random: SplitMix64

    public init(backoff: Backoff = Backoff(), seed: UInt64 = 0) {
        self.backoff = backoff
        random = SplitMix64(seed: seed)
    }

    /// Handles one input at `now`.
    public mutating func handle(_ input: Input, at now: SimTime) -> [Action] {
        var actions: [Action] = []
        switch input {
        case .subscribe(let criteria):
            guard !wanted.contains(criteria) else { break }
            wanted.append(criteria)
            switch state {
            case .closed where !reconnectScheduled: actions += move(to: .connecting) + [.connect]
            case .connected: actions += subscribe([criteria])
            default: break
            }
        case .unsubscribe(let criteria):
            guard let index = wanted.firstIndex(of: criteria) else {
                actions.append(.emit(.unsubscriptionError(criteria: criteria.mqttFilter, message: "not subscribed")))
                break
            }
            wanted.remove(at: index)
            requested.remove(criteria)
            if state == .connected {
                actions.append(.unsubscribe(criteria))
            } else {
                actions.append(.emit(.unsubscribed(criteria: criteria.mqttFilter)))
                if wanted.isEmpty { reconnectScheduled = false }
            }
        case .connected:
            failedAttempts = 0
            active = []
            requested = []
            actions += move(to: .connected)
            if wanted.isEmpty {
                actions += move(to: .disconnecting) + [.disconnect]
            } else {
                actions += subscribe(wanted)
            }
        case .connectFailed(let message), .connectionLost(let message):
            actions.append(.emit(.error(message: message)))
            actions += lose(at: now)
        case .disconnected:
            active = []
            requested = []
            actions += move(to: .closed)
            if !wanted.isEmpty { actions += move(to: .connecting) + [.connect] }
        case .subscribeAnswered(let criteria, let granted):
            requested.remove(criteria)
            guard wanted.contains(criteria) else { break }
            if granted {
                // Already taken as granted when a delivery it alone matched came before its answer (`receive`).
                if active.insert(criteria).inserted { actions.append(.emit(.subscribed(criteria: criteria.mqttFilter))) }
            } else {
                active.remove(criteria)
                wanted.removeAll { $0 == criteria }
                actions.append(.emit(.subscriptionError(criteria: criteria.mqttFilter, message: "the broker refused the subscription to \(criteria.mqttFilter)")))
                if wanted.isEmpty && state == .connected { actions += move(to: .disconnecting) + [.disconnect] }
            }
        case .unsubscribeAnswered(let criteria):
            active.remove(criteria)
            actions.append(.emit(.unsubscribed(criteria: criteria.mqttFilter)))
            if wanted.isEmpty && state == .connected { actions += move(to: .disconnecting) + [.disconnect] }
        case .unsubscribeFailed(let criteria, let message):
            actions.append(.emit(.unsubscriptionError(criteria: criteria.mqttFilter, message: message)))
        case .message(let topicText, let payload):
            actions += receive(topicText, payload)
        case .reconnectDue:
            guard reconnectScheduled else { break }
            reconnectScheduled = false
            if state == .closed && !wanted.isEmpty { actions += move(to: .connecting) + [.connect] }
        }
        return actions
    }

    private mutating func move(to next: State) -> [Action] {
        guard next != state else { return [] }
        let previous = state
        state = next
        return [.emit(.stateChanged(next, previous: previous))]
    }

    /// Subscribes `criteria` on the current connection.
    private mutating func subscribe(_ criteria: [TopicCriteria]) -> [Action] {
        requested.formUnion(criteria)
        return criteria.map(Action.subscribe)
    }

    /// The connection is gone: closed, and a reconnect scheduled while anything is wanted.
    private mutating func lose(at now: SimTime) -> [Action] {
        active = []
        requested = []
        var actions = move(to: .closed)
        guard !wanted.isEmpty else { return actions }
        failedAttempts += 1
        let exponent = min(failedAttempts - 1, 30)
        let delay = min(backoff.maximumDelay.microseconds, backoff.initialDelay.microseconds << exponent)
        let factor = 0.75 + 0.25 * Double(random.next() >> 11) / Double(1 << 53)
        reconnectScheduled = true
        actions.append(.scheduleReconnect(at: now + SimTime(microseconds: Int64(Double(delay) * factor))))
        return actions
    }

    private mutating func receive(_ topicText: String, _ payload: [UInt8]) -> [Action] {
        let topic: LiveTopic
        do {
            topic = try LiveTopic(parsing: topicText)
        } catch {
            return [.emit(.error(message: "\(error)"))]
        }
        // The broker may deliver more than was asked for: only what a criteria it granted wants counts
        // — or one whose answer is not taken yet: a broker sends what it matches only after granting
        // it (its SUBACK comes first on the wire, but a real transport may hand the two over apart).
        var actions: [Action] = []
        if !active.contains(where: { $0.matches(topic) }) {
            let unanswered = requested.filter { $0.matches(topic) }
            guard !unanswered.isEmpty else { return [] }
            // One criteria alone could have brought it: the delivery is its grant, reported now, in
            // the broker's order — before the update, as a run that ends at that update shows it.
            if unanswered.count == 1, let granted = unanswered.first {
                requested.remove(granted)
                active.insert(granted)
                actions.append(.emit(.subscribed(criteria: granted.mqttFilter)))
            }
        }
        do {
            let update = try LiveUpdate(topic: topic, payload: payload)
            return actions + (store.apply(update) ? [.emit(.update(update.event))] : [])
        } catch {
            return actions + [.emit(.error(message: "\(error)"))]
        }
    }
}
