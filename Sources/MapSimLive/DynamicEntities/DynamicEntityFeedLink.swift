import MapSim

/// A dynamic-entity source's link to a feed on a real network — a WebSocket, or an MQTT topic — as
/// work for the map's drive loop: connecting opens the transport on a task beside the loop, and what
/// it brings (the connection open, each text message, its end) comes back as reports, fed on the
/// map's loop as they arrive. A report names the connection attempt it belongs to: what an attempt
/// replaced since (by a reconnect or a disconnect) reports late is ignored, and a connection it
/// opened is closed.
public struct DynamicEntityFeedLink: Sendable {
    /// Where the observations come from.
    public enum Transport: Sendable, Equatable {
        /// A WebSocket URL (`ws://` or `wss://`).
        case webSocket(String)
        /// An MQTT broker and the topic (filter) the observations are published on.
        case mqtt(MQTTLiveSession.Endpoint, topic: String)
    }

    /// What the transport did, for one connection attempt (fed back to the source on the map's loop).
    public struct Report: Sendable {
        fileprivate let attempt: ConnectionAttempt
        fileprivate let event: Event
    }

    fileprivate enum Event: Sendable {
        /// The connection is open; `close` closes it.
        case opened(close: @Sendable () async -> Void)
        /// A text message: one observation a line.
        case text(String)
        /// Connecting failed.
        case connectFailed(String)
        /// The connection ended, having dropped `missed` messages that came faster than they were read.
        case ended(String, missed: Int)
    }

    /// What a report means to the source.
    enum Arrival {
        /// The connection's news, and how many messages it dropped.
        case connection(DynamicEntityConnection.Input, missed: Int)
        /// A text message of the current connection.
        case text(String)
        /// Of an attempt replaced since: ignored, with the work that closes a connection it opened.
        case stale(Work?)
    }

    /// Work performed beside the loop; what it posts are reports.
    typealias Work = @Sendable (InputPost<Report>) async -> Void

    let transport: Transport
    private var attempt = ConnectionAttempt()
    private var close: (@Sendable () async -> Void)?

    init(transport: Transport) {
        self.transport = transport
    }

    /// Opens a connection (a new attempt).
    mutating func connect() -> Work {
        attempt = ConnectionAttempt()
        switch transport {
        case .webSocket(let url): return Self.openWebSocket(url, attempt: attempt)
        case .mqtt(let endpoint, let topic): return Self.openMQTT(endpoint, topic: topic, attempt: attempt)
        }
    }

    /// Ends the connection: what it reports from now on is ignored.
    mutating func disconnect() -> Work? {
        attempt = ConnectionAttempt()
        guard let close else { return nil }
        self.close = nil
        return { _ in await close() }
    }

    /// What `report` means, given whether the connection is open as far as the source knows.
    mutating func take(_ report: Report, isConnected: Bool) -> Arrival {
        guard report.attempt === attempt else {
            guard case .opened(let close) = report.event else { return .stale(nil) }
            return .stale({ _ in await close() })
        }
        switch report.event {
        case .opened(let close):
            self.close = close
            return .connection(.connected, missed: 0)
        case .text(let text):
            return .text(text)
        case .connectFailed(let reason):
            return .connection(.connectFailed(reason), missed: 0)
        case .ended(let reason, let missed):
            close = nil
            return .connection(isConnected ? .connectionLost(reason, shouldReconnect: true) : .connectFailed(reason), missed: missed)
        }
    }

    private static func openWebSocket(_ url: String, attempt: ConnectionAttempt) -> Work {
        { post in
            let client: WebSocketFeedClient
            do {
                client = try await WebSocketFeedClient.connect(to: url)
            } catch {
                return post(Report(attempt: attempt, event: .connectFailed("the feed at \(url): \(TransportFailure.reason(error))")))
            }
            var reason = "the feed at \(url) closed the connection"
            do {
                for try await event in client.events {
                    switch event {
                    case .opened: post(Report(attempt: attempt, event: .opened(close: { await client.close() })))
                    case .text(let text): post(Report(attempt: attempt, event: .text(text)))
                    }
                }
            } catch {
                reason = "the feed at \(url): \(TransportFailure.reason(error))"
            }
            post(Report(attempt: attempt, event: .ended(reason, missed: client.missed)))
            await client.close()
        }
    }

    private static func openMQTT(_ endpoint: MQTTLiveSession.Endpoint, topic: String, attempt: ConnectionAttempt) -> Work {
        { post in
            let client: MQTTClient
            do {
                client = try await MQTTClient.connect(to: endpoint)
                let codes = try await client.subscribe([topic], qos: 1)
                guard codes.first != MQTTPacket.subscriptionFailure else {
                    await client.disconnect()
                    return post(Report(attempt: attempt, event: .connectFailed("the broker refused the subscription to \(topic)")))
                }
            } catch {
                return post(Report(attempt: attempt, event: .connectFailed("\(error)")))
            }
            post(Report(attempt: attempt, event: .opened(close: { await client.disconnect() })))
            for await message in client.messages {
                post(Report(attempt: attempt, event: .text(String(decoding: message.payload, as: UTF8.self))))
            }
            post(Report(attempt: attempt, event: .ended("the connection to \(endpoint.host):\(endpoint.port) closed", missed: client.missedMessages)))
            await client.disconnect()
        }
    }
}
