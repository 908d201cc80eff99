import MapSim
import NIOCore

/// Live data from a real MQTT broker, in real time: a `LiveDataManager` whose actions are carried out
/// with an `MQTTClient`. Connection losses are retried with the manager's back-off, every criteria is
/// subscribed again after a reconnect, and each event goes to `handler` with the time since the
/// session began.
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

    private var manager: LiveDataManager
    private let endpoint: Endpoint
    private let handler: @Sendable (SimTime, LiveEvent) -> Void
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var client: MQTTClient?
    /// The current connection attempt: what an older one reports late is ignored.
    private var attempt = ConnectionAttempt()
    private var tasks: [Task<Void, Never>] = []
    private var connectionFailures = 0
    private var everConnected = false

    /// A session with the broker at `endpoint`; `seed` draws the reconnect jitter.
    public init(endpoint: Endpoint, backoff: LiveDataManager.Backoff = .init(), seed: UInt64 = 0,
                handler: @escaping @Sendable (SimTime, LiveEvent) -> Void) {
        self.endpoint = endpoint
        self.handler = handler
        manager = LiveDataManager(backoff: backoff, seed: seed)
        start = clock.now
    }

    /// The manager's connection state.
    public var state: LiveConnectionState { manager.state }

    /// The newest update of every item and domain received.
    public var store: LiveStore { manager.store }

    /// Whether a connection was ever made.
    public var hasConnected: Bool { everConnected }

    /// How many connects failed in a row (0 once connected).
    public var failedConnects: Int { connectionFailures }

    /// The time since the session began.
    public var now: SimTime {
        SimTime(clock.now - start)
    }

    /// Subscribes to `criteria` (connecting first if needed).
    public func subscribe(_ criteria: TopicCriteria) {
        handle(.subscribe(criteria))
    }

    /// Unsubscribes from `criteria` (disconnecting after the last one).
    public func unsubscribe(_ criteria: TopicCriteria) {
        handle(.unsubscribe(criteria))
    }

    /// Closes the connection and stops retrying.
    public func close() async {
        for task in tasks { task.cancel() }
        tasks = []
        attempt = ConnectionAttempt()
        await client?.disconnect()
        client = nil
    }

    private func handle(_ input: LiveDataManager.Input) {
        switch input {
        case .connected:
            everConnected = true
            connectionFailures = 0
        case .connectFailed:
            connectionFailures += 1
        default:
            break
        }
        let now = self.now
        for action in manager.handle(input, at: now) {
            switch action {
            case .connect: connect()
            case .disconnect: disconnect()
            case .subscribe(let criteria): subscribe(on: client, criteria)
            case .unsubscribe(let criteria): unsubscribe(on: client, criteria)
            case .scheduleReconnect(let time):
                let delay = time - now
                run { [clock] in
                    try? await clock.sleep(for: .microseconds(delay.microseconds))
                    return Task.isCancelled ? nil : .reconnectDue
                }
            case .emit(let event): handler(now, event)
            }
        }
    }

    /// Runs `work` as a task and feeds what it returns, unless a newer connection came meanwhile.
    private func run(_ work: @escaping @Sendable () async -> LiveDataManager.Input?) {
        let expected = attempt
        tasks.removeAll { $0.isCancelled }
        tasks.append(Task {
            guard let input = await work() else { return }
            self.feed(input, attempt: expected)
        })
    }

    private func feed(_ input: LiveDataManager.Input, attempt expected: ConnectionAttempt) {
        guard expected === attempt else { return }
        handle(input)
    }

    private func connect() {
        attempt = ConnectionAttempt()
        let expected = attempt
        let endpoint = endpoint
        let options = MQTTPacket.Connect(clientID: endpoint.clientID, keepAlive: endpoint.keepAlive, cleanSession: true,
                                         username: endpoint.username, password: endpoint.password.map { Array($0.utf8) })
        tasks.append(Task {
            do {
                let client = try await MQTTClient.connect(host: endpoint.host, port: endpoint.port, options: options, timeout: .seconds(10))
                await self.connected(client, attempt: expected)
            } catch {
                self.feed(.connectFailed("\(error)"), attempt: expected)
            }
        })
    }

    private func connected(_ client: MQTTClient, attempt expected: ConnectionAttempt) async {
        guard expected === attempt else {
            await client.disconnect()
            return
        }
        self.client = client
        run {
            for await message in client.messages {
                await self.feed(.message(topic: message.topic, payload: message.payload), attempt: expected)
            }
            return .connectionLost("the connection to \(self.endpoint.host):\(self.endpoint.port) closed")
        }
        handle(.connected)
    }

    private func disconnect() {
        let client = self.client
        self.client = nil
        attempt = ConnectionAttempt()
        let expected = attempt
        tasks.append(Task {
            await client?.disconnect()
            self.feed(.disconnected, attempt: expected)
        })
    }

    private func subscribe(on client: MQTTClient?, _ criteria: TopicCriteria) {
        guard let client else { return }
        run {
            // A failure here is the connection's: its end is reported by the message loop.
            guard let codes = try? await client.subscribe([criteria.mqttFilter], qos: 1) else { return nil }
            return .subscribeAnswered(criteria, granted: codes.first.map { $0 != 0x80 } ?? false)
        }
    }

    private func unsubscribe(on client: MQTTClient?, _ criteria: TopicCriteria) {
        guard let client else { return }
        run {
            do {
                try await client.unsubscribe([criteria.mqttFilter])
                return .unsubscribeAnswered(criteria)
            } catch {
                return .unsubscribeFailed(criteria, "\(error)")
            }
        }
    }
}
