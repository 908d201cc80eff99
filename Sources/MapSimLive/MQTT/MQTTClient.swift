import MapSim
import NIOCore
import NIOPosix
import Synchronization

/// An MQTT 3.1.1 client over TCP on SwiftNIO: connects with credentials and a clean session,
/// subscribes (a refused filter comes back as `0x80`), unsubscribes, publishes at QoS 0 or 1 and
/// acknowledges QoS 1 deliveries, keeps the connection alive with PINGREQ, and disconnects.
/// Incoming publishes arrive on `messages`; the stream ends when the connection does.
///
/// A delivery is acknowledged on the event loop the moment it is decoded, so that the broker's
/// window of unacknowledged messages never fills however slowly `messages` is read; what waits to
/// be read is bounded by `maximumBacklog`, and what did not fit is counted in `missedMessages`
/// rather than lost in silence.
public final class MQTTClient: Sendable {
    /// The most deliveries that wait to be read from `messages`.
    public static let maximumBacklog = 1_000_000

    /// Messages published to a subscribed topic, in arrival order; finishes when the connection closes.
    public let messages: AsyncStream<MQTTPacket.Publish>
    private let channel: any Channel
    private let state: Mutex<State>
    private let report: MQTTConnectionReport
    private let messageContinuation: AsyncStream<MQTTPacket.Publish>.Continuation

    private struct State {
        var nextPacketID: UInt16 = 1
        var pending: [UInt16: CheckedContinuation<MQTTPacket, any Error>] = [:]
        var closed: String?
    }

    /// Connects to `host:port` and waits for the broker's CONNACK; a refusal, a protocol error or no
    /// answer within `timeout` is an `MQTTError` saying which.
    public static func connect(host: String, port: Int, options: MQTTPacket.Connect, timeout: TimeAmount = .seconds(10)) async throws -> MQTTClient {
        let (stream, continuation) = AsyncStream<MQTTPacket>.makeStream()
        let (messages, messageContinuation) = AsyncStream<MQTTPacket.Publish>.makeStream(bufferingPolicy: .bufferingOldest(maximumBacklog))
        let report = MQTTConnectionReport()
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(timeout)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let handlers: [any ChannelHandler] = [ByteToMessageHandler(MQTTFrameDecoder()),
                                                              MQTTChannelHandler(connect: options, packets: continuation, messages: messageContinuation,
                                                                                 report: report)]
                        try channel.pipeline.syncOperations.addHandlers(handlers)
                    }
                }
                .connect(host: host, port: port).get()
        } catch {
            throw MQTTError(.unreachable, "cannot connect to \(host):\(port): \(TransportFailure.reason(error))", underlying: error)
        }
        let client = MQTTClient(channel: channel, report: report, messages: messages, messageContinuation: messageContinuation)
        let connack: MQTTPacket
        do {
            connack = try await client.connack(within: timeout, from: stream)
        } catch {
            try? await channel.close()
            throw error
        }
        guard case .connack(_, let code) = connack, code == 0 else {
            try? await channel.close()
            let reasons: [UInt8: String] = [1: "unacceptable protocol version", 2: "client identifier rejected", 3: "server unavailable",
                                            4: "bad user name or password", 5: "not authorized"]
            if case .connack(_, let code) = connack { throw MQTTError(.refused, "the broker refused the connection: \(reasons[code] ?? "code \(code)")") }
            throw MQTTError(.refused, "the broker answered CONNECT with something other than CONNACK")
        }
        return client
    }

    private init(channel: any Channel, report: MQTTConnectionReport, messages: AsyncStream<MQTTPacket.Publish>,
                 messageContinuation: AsyncStream<MQTTPacket.Publish>.Continuation) {
        self.channel = channel
        self.report = report
        self.messages = messages
        self.messageContinuation = messageContinuation
        state = Mutex(State())
    }

    /// Deliveries that arrived (and were acknowledged) while `maximumBacklog` were waiting to be
    /// read, and so were dropped.
    public var missedMessages: Int {
        report.missed
    }

    /// Waits for the first packet, the answer to the CONNECT the handler sent, then hands the stream
    /// to the reader.
    private func connack(within timeout: TimeAmount, from stream: AsyncStream<MQTTPacket>) async throws -> MQTTPacket {
        let first = try await withThrowingTaskGroup(of: MQTTPacket?.self) { group in
            group.addTask {
                for await packet in stream { return packet }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .nanoseconds(timeout.nanoseconds))
                throw MQTTError(.timedOut, "the broker did not answer CONNECT within \(timeout.nanoseconds / 1_000_000_000) s")
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard let first else { throw MQTTError(.closed, "the broker closed the connection before answering CONNECT") }
        Task { await self.read(stream) }
        return first
    }

    /// Dispatches every packet after CONNACK (deliveries go straight to `messages`) until the
    /// connection closes.
    private func read(_ stream: AsyncStream<MQTTPacket>) async {
        var reason = "the connection closed"
        for await packet in stream {
            switch packet {
            case .suback(let id, _), .unsuback(let id), .puback(let id):
                let continuation = state.withLock { $0.pending.removeValue(forKey: id) }
                continuation?.resume(returning: packet)
            case .pingresp:
                break
            default:
                reason = "the broker sent an unexpected packet"
                try? await channel.close()
            }
        }
        if let malformed = report.malformed { reason = malformed }
        let pending = state.withLock { state -> [CheckedContinuation<MQTTPacket, any Error>] in
            state.closed = state.closed ?? reason
            defer { state.pending = [:] }
            return Array(state.pending.values)
        }
        for continuation in pending { continuation.resume(throwing: MQTTError(.closed, reason)) }
        messageContinuation.finish()
    }

    private func send(_ packet: MQTTPacket) async throws {
        do {
            try await channel.writeAndFlush(ByteBuffer(bytes: packet.encoded))
        } catch {
            throw MQTTError(.cannotSend, "cannot send: \(error)", underlying: error)
        }
    }

    /// Sends a packet that carries a fresh packet id and waits for the answer with that id.
    private func request(_ make: (UInt16) -> MQTTPacket) async throws -> MQTTPacket {
        let id: UInt16 = state.withLock { state in
            let id = state.nextPacketID
            state.nextPacketID = id == UInt16.max ? 1 : id + 1
            return id
        }
        let packet = make(id)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<MQTTPacket, any Error>) in
            let closed = state.withLock { state -> String? in
                if state.closed == nil { state.pending[id] = continuation }
                return state.closed
            }
            if let closed {
                continuation.resume(throwing: MQTTError(.closed, closed))
                return
            }
            channel.writeAndFlush(ByteBuffer(bytes: packet.encoded)).whenFailure { [self] error in
                let waiting = self.state.withLock { $0.pending.removeValue(forKey: id) }
                waiting?.resume(throwing: MQTTError(.cannotSend, "cannot send: \(error)", underlying: error))
            }
        }
    }

    /// Subscribes to `filters` at QoS `qos`; returns the broker's code for each: the QoS granted, or
    /// `0x80` when it refused that filter.
    public func subscribe(_ filters: [String], qos: UInt8 = 1) async throws -> [UInt8] {
        let answer = try await request { .subscribe(packetID: $0, filters: filters.map { (filter: $0, qos: qos) }) }
        guard case .suback(_, let codes) = answer, codes.count == filters.count else {
            throw MQTTError(.refused, "the broker answered SUBSCRIBE with \(filters.count) filters wrongly")
        }
        return codes
    }

    public func unsubscribe(_ filters: [String]) async throws {
        _ = try await request { .unsubscribe(packetID: $0, filters: filters) }
    }

    /// Publishes `payload` on `topic`; at QoS 1 returns once the broker acknowledged it.
    public func publish(_ topic: String, payload: [UInt8], qos: UInt8 = 0, retain: Bool = false) async throws {
        if qos == 0 {
            try await send(.publish(MQTTPacket.Publish(topic: topic, payload: payload, retain: retain)))
        } else {
            _ = try await request { .publish(MQTTPacket.Publish(topic: topic, payload: payload, qos: 1, retain: retain, packetID: $0)) }
        }
    }

    /// Sends DISCONNECT and closes the connection.
    public func disconnect() async {
        try? await send(.disconnect)
        try? await channel.close()
    }
}
