import MapSim

/// Live data from a real MQTT broker, in real time, without a map to show it on: a
/// `LiveSessionMachine` linked to the broker, attached to a map that loads nothing and follows the
/// wall clock — the same machine and the same loop as live data on a loaded map, or replayed.
/// Connection losses are retried with the manager's back-off, every criteria is subscribed again
/// after a reconnect, and each event goes to `handler` with the time since the session began.
///
/// ```swift
/// let session = MQTTLiveSession(endpoint: .init(host: "127.0.0.1", port: 1883)) { time, event in print(time, event.type) }
/// await session.subscribe(try TopicCriteria(parsing: "acme/#"))
/// ```
public actor MQTTLiveSession {
    /// Where the broker is and how to log in.
    public struct Endpoint: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var username: String?
        public var password: String?
        /// The client id; a clean session is always asked for.
        public var clientID: String
        /// Seconds between keep-alive pings.
        public var keepAlive: UInt16

        /// An endpoint.
        public init(host: String, port: Int = 1883, username: String? = nil, password: String? = nil, clientID: String = "mapsim", keepAlive: UInt16 = 30) {
            self.host = host
            self.port = port
            self.username = username
            self.password = password
            self.clientID = clientID
            self.keepAlive = keepAlive
        }
    }

    private let host: WallClockHost<LiveSessionMachine>
    private let subscription: Cancelable

    /// A session with the broker at `endpoint`; `seed` draws the reconnect jitter.
    public init(endpoint: Endpoint, backoff: LiveDataManager.Backoff = .init(), seed: UInt64 = 0,
                handler: @escaping @Sendable (SimTime, LiveEvent) -> Void) {
        host = WallClockHost(LiveSessionMachine(mqtt: endpoint, backoff: backoff, seed: seed))
        subscription = host.map.subscribeAll { event in
            if case .live(let live) = event.payload { handler(event.begin, live) }
        }
    }

    /// The manager's connection state.
    public var state: LiveConnectionState { get async { await host.machine.manager.state } }

    /// The newest update of every item and domain received.
    public var store: LiveStore { get async { await host.machine.manager.store } }

    /// Whether a connection was ever made.
    public var hasConnected: Bool { get async { await host.machine.hasReachedBroker } }

    /// How many connects failed in a row (0 once connected).
    public var failedConnects: Int { get async { await host.machine.failedConnects } }

    /// How many messages came from the broker and had their events sent (each a live-update, or a
    /// live-error when it is no valid update).
    public var messagesDelivered: Int { get async { await host.machine.messagesDelivered } }

    /// The time since the session began.
    public var now: SimTime { get async { await host.map.now } }

    /// Subscribes to `criteria` (connecting first if needed).
    public func subscribe(_ criteria: TopicCriteria) async {
        await host.send(.subscribe(criteria))
    }

    /// Unsubscribes from `criteria` (disconnecting after the last one).
    public func unsubscribe(_ criteria: TopicCriteria) async {
        await host.send(.unsubscribe(criteria))
    }

    /// Closes the connection and stops retrying.
    public func close() async {
        await host.send(.close)
        await host.stop()
    }
}
