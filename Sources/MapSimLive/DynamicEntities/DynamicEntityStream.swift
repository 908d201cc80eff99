import MapSim
import NIOCore

/// A dynamic-entity data source on a real network, in real time: observations come as text
/// messages of a WebSocket (one or more JSON lines each) or as the messages of an MQTT topic, go
/// through the stream filter into a `DynamicEntityStore`, and the connection follows ArcGIS's
/// reconnect schedule with real waits. Each event goes to `handler` with the time since the stream
/// was made.
public actor DynamicEntityStream {
    /// Where the observations come from.
    public enum Transport: Sendable, Equatable {
        /// A WebSocket URL (`ws://` or `wss://`).
        case webSocket(String)
        /// An MQTT broker and the topic (filter) the observations are published on.
        case mqtt(MQTTLiveSession.Endpoint, topic: String)
    }

    private let transport: Transport
    private var parser: DynamicEntityLineParser
    private var store: DynamicEntityStore
    private var connection: DynamicEntityConnection
    private let filter: DynamicEntityFilter
    private let handler: @Sendable (SimTime, DynamicEntityEvent) -> Void
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    /// The current connection attempt: what an older one reports late is ignored.
    private var attempt = ConnectionAttempt()
    /// The connection under way and the wait for the next attempt; one of each at most, so that
    /// memory stays flat however often a feed drops.
    private var connectionTask: Task<Void, Never>?
    private var retryTask: Task<Void, Never>?
    private var expiryTask: Task<Void, Never>?
    private var lines = 0
    private var malformed = 0
    private var filteredOut = 0
    /// Messages that arrived faster than they could be read and were dropped.
    private var missed = 0

    /// A stream from `transport`, read in `format`, kept by `options` and `filter`, reconnecting on
    /// `schedule`.
    public init(transport: Transport, format: DynamicEntityFeedFormat, options: DynamicEntityPurgeOptions = .init(),
                filter: DynamicEntityFilter = .everything, schedule: DynamicEntityConnection.Schedule = .init(),
                handler: @escaping @Sendable (SimTime, DynamicEntityEvent) -> Void) {
        self.transport = transport
        parser = DynamicEntityLineParser(format: format)
        store = DynamicEntityStore(options: options)
        connection = DynamicEntityConnection(schedule: schedule)
        self.filter = filter
        self.handler = handler
        start = clock.now
    }

    /// The connection status.
    public var status: DynamicEntityConnectionStatus { connection.status }

    /// The counts so far.
    public var summary: DynamicEntitySession.Summary {
        DynamicEntitySession.Summary(counts: store.counts, observationsKept: store.count, entitiesKept: store.entityCount,
                                     malformed: malformed, filteredOut: filteredOut, missed: missed)
    }

    /// The kept entities.
    public var entities: [DynamicEntityStore.Entity] { store.entities }

    /// The time since the stream was made.
    public var now: SimTime {
        SimTime(clock.now - start)
    }

    /// Connects.
    public func connect() {
        execute(connection.handle(.connect, at: now))
    }

    /// Disconnects and stops reconnecting.
    public func disconnect() {
        execute(connection.handle(.disconnect, at: now))
    }

    /// Empties the store; the stream stays connected.
    public func purgeAll() {
        report(store.purgeAll())
    }

    private func execute(_ actions: [DynamicEntityConnection.Action]) {
        for action in actions {
            switch action {
            case .connect: open()
            case .disconnect:
                attempt = ConnectionAttempt()
                connectionTask?.cancel()
                retryTask?.cancel()
                connectionTask = nil
                retryTask = nil
            case .scheduleRetry(let time):
                let delay = time - now
                let expected = attempt
                retryTask?.cancel()
                retryTask = Task { [clock] in
                    try? await clock.sleep(for: .microseconds(delay.microseconds))
                    guard !Task.isCancelled else { return }
                    self.feed(.retryDue, attempt: expected)
                }
            case .emit(let event): handler(now, event)
            }
        }
    }

    private func feed(_ input: DynamicEntityConnection.Input, attempt expected: ConnectionAttempt) {
        guard expected === attempt else { return }
        execute(connection.handle(input, at: now))
    }

    /// Opens a connection; what it reports comes back through `feed` and `receive`.
    private func open() {
        attempt = ConnectionAttempt()
        let expected = attempt
        switch transport {
        case .webSocket(let url):
            connectionTask = Task {
                let client: WebSocketFeedClient
                do {
                    client = try await WebSocketFeedClient.connect(to: url)
                } catch {
                    self.ended("the feed at \(url): \(TransportFailure.reason(error))", attempt: expected)
                    return
                }
                do {
                    for try await event in client.events {
                        if Task.isCancelled { break }
                        switch event {
                        case .opened: self.feed(.connected, attempt: expected)
                        case .text(let text): self.receive(text, attempt: expected)
                        }
                    }
                    self.missed += client.missed
                    self.ended("the feed at \(url) closed the connection", attempt: expected)
                } catch {
                    self.missed += client.missed
                    self.ended("the feed at \(url): \(TransportFailure.reason(error))", attempt: expected)
                }
                await client.close()
            }
        case .mqtt(let endpoint, let topic):
            connectionTask = Task {
                let options = MQTTPacket.Connect(clientID: endpoint.clientID, keepAlive: endpoint.keepAlive, cleanSession: true,
                                                 username: endpoint.username, password: endpoint.password.map { Array($0.utf8) })
                let client: MQTTClient
                do {
                    client = try await MQTTClient.connect(host: endpoint.host, port: endpoint.port, options: options, timeout: .seconds(10))
                    let codes = try await client.subscribe([topic], qos: 1)
                    guard codes.first != MQTTPacket.subscriptionFailure else {
                        await client.disconnect()
                        self.feed(.connectFailed("the broker refused the subscription to \(topic)"), attempt: expected)
                        return
                    }
                } catch {
                    self.feed(.connectFailed("\(error)"), attempt: expected)
                    return
                }
                self.feed(.connected, attempt: expected)
                for await message in client.messages {
                    if Task.isCancelled { break }
                    self.receive(String(decoding: message.payload, as: UTF8.self), attempt: expected)
                }
                self.missed += client.missedMessages
                await client.disconnect()
                self.ended("the connection to \(endpoint.host):\(endpoint.port) closed", attempt: expected)
            }
        }
    }

    /// A connection ended: lost if it had been made, else a failed connect.
    private func ended(_ message: String, attempt expected: ConnectionAttempt) {
        feed(connection.status == .connected ? .connectionLost(message, shouldReconnect: true) : .connectFailed(message), attempt: expected)
    }

    /// A message: one observation a line.
    private func receive(_ text: String, attempt expected: ConnectionAttempt) {
        guard expected === attempt, connection.status == .connected else { return }
        for line in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: true) {
            lines += 1
            switch parser.parse(Array(line), number: lines) {
            case .malformed:
                malformed += 1
            case .observation(let parsed):
                let observation = parsed.observation
                guard filter.matches(longitude: observation.longitude, latitude: observation.latitude, attributes: observation.attributes) else {
                    filteredOut += 1
                    continue
                }
                report(store.add(observation, at: now))
            }
        }
        scheduleExpiry()
    }

    private func report(_ events: [DynamicEntityEvent]) {
        let time = now
        for event in events { handler(time, event) }
    }

    /// Purges by age when the oldest observation gets too old, as the clock runs.
    private func scheduleExpiry() {
        expiryTask?.cancel()
        guard let expiry = store.nextExpiry else { return }
        let delay = expiry - now
        expiryTask = Task { [clock] in
            try? await clock.sleep(for: .microseconds(max(delay.microseconds, 0)))
            guard !Task.isCancelled else { return }
            self.expire()
        }
    }

    private func expire() {
        report(store.purgeExpired(at: now))
        scheduleExpiry()
    }
}
