import MapSim

/// The live-data manager's link to a real MQTT broker, as work for the map's drive loop: each
/// action of the manager (connect, subscribe, unsubscribe, disconnect) becomes work performed beside
/// the loop with an `MQTTClient`, and what the broker sends comes back as reports, fed on the map's
/// loop as they arrive. A report names the connection attempt it belongs to: what an attempt replaced
/// since (by a reconnect or a close) reports late is ignored, and a connection it made is closed.
public struct MQTTBrokerLink: Sendable {
    /// What the broker did, for one connection attempt (fed back to the session on the map's loop).
    public struct Report: Sendable {
        fileprivate let attempt: ConnectionAttempt
        fileprivate let event: Event
    }

    fileprivate enum Event: Sendable {
        /// The connection is up.
        case connected(MQTTClient)
        /// Anything else, as the manager takes it.
        case input(LiveDataManager.Input)
    }

    /// Work performed beside the loop; what it posts are reports.
    typealias Work = @Sendable (InputPost<Report>) async -> Void

    let endpoint: MQTTLiveSession.Endpoint
    /// The current connection attempt.
    private var attempt = ConnectionAttempt()
    private var client: MQTTClient?
    /// Whether a connection was ever made.
    private(set) var hasConnected = false
    /// How many connects failed in a row (0 once connected).
    private(set) var failedConnects = 0
    /// Why the last connect failed.
    private(set) var lastConnectFailure: String?

    init(endpoint: MQTTLiveSession.Endpoint) {
        self.endpoint = endpoint
    }

    /// The work that carries out a manager's action with the broker; nil for one that is not the broker's.
    mutating func work(for action: LiveDataManager.Action) -> Work? {
        switch action {
        case .connect: connect()
        case .disconnect: disconnect()
        case .subscribe(let criteria): client.map { Self.subscribe(criteria, on: $0, attempt: attempt) }
        case .unsubscribe(let criteria): client.map { Self.unsubscribe(criteria, on: $0, attempt: attempt) }
        case .scheduleReconnect, .emit: nil
        }
    }

    /// What a report means to the manager: nil when it is of an attempt replaced since (with the
    /// work that closes a connection such an attempt made).
    mutating func take(_ report: Report) -> (LiveDataManager.Input?, Work?) {
        guard report.attempt === attempt else {
            guard case .connected(let stale) = report.event else { return (nil, nil) }
            return (nil, { _ in await stale.disconnect() })
        }
        switch report.event {
        case .connected(let client):
            self.client = client
            hasConnected = true
            failedConnects = 0
            return (.connected, Self.read(client, attempt: attempt, endpoint: endpoint))
        case .input(let input):
            if case .connectFailed(let reason) = input {
                failedConnects += 1
                lastConnectFailure = reason
            }
            if case .connectionLost = input { client = nil }
            return (input, nil)
        }
    }

    /// Stops: what any attempt so far reports is ignored, and the connection is closed.
    mutating func close() -> Work? {
        attempt = ConnectionAttempt()
        guard let client else { return nil }
        self.client = nil
        return { _ in await client.disconnect() }
    }

    private mutating func connect() -> Work {
        attempt = ConnectionAttempt()
        let (attempt, endpoint) = (attempt, endpoint)
        return { post in
            do {
                let client = try await MQTTClient.connect(to: endpoint)
                // The map went meanwhile: nobody reads this connection.
                guard !Task.isCancelled else { return await client.disconnect() }
                post(Report(attempt: attempt, event: .connected(client)))
            } catch {
                post(Report(attempt: attempt, event: .input(.connectFailed("\(error)"))))
            }
        }
    }

    private mutating func disconnect() -> Work {
        let client = self.client
        self.client = nil
        attempt = ConnectionAttempt()
        let attempt = attempt
        return { post in
            await client?.disconnect()
            post(Report(attempt: attempt, event: .input(.disconnected)))
        }
    }

    /// Reads the connection's messages until it ends, which is reported as its loss.
    private static func read(_ client: MQTTClient, attempt: ConnectionAttempt, endpoint: MQTTLiveSession.Endpoint) -> Work {
        { post in
            await withTaskCancellationHandler {
                for await message in client.messages {
                    post(Report(attempt: attempt, event: .input(.message(topic: message.topic, payload: message.payload))))
                }
            } onCancel: {
                Task { await client.disconnect() }
            }
            post(Report(attempt: attempt, event: .input(.connectionLost("the connection to \(endpoint.host):\(endpoint.port) closed"))))
        }
    }

    private static func subscribe(_ criteria: TopicCriteria, on client: MQTTClient, attempt: ConnectionAttempt) -> Work {
        { post in
            // A failure here is the connection's: its end is reported by the reader.
            guard let codes = try? await client.subscribe([criteria.mqttFilter], qos: 1) else { return }
            post(Report(attempt: attempt, event: .input(.subscribeAnswered(criteria, granted: codes.first.map { $0 != 0x80 } ?? false))))
        }
    }

    private static func unsubscribe(_ criteria: TopicCriteria, on client: MQTTClient, attempt: ConnectionAttempt) -> Work {
        { post in
            do {
                try await client.unsubscribe([criteria.mqttFilter])
                post(Report(attempt: attempt, event: .input(.unsubscribeAnswered(criteria))))
            } catch {
                post(Report(attempt: attempt, event: .input(.unsubscribeFailed(criteria, "\(error)"))))
            }
        }
    }
}
