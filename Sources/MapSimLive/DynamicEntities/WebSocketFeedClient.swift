import Crypto
import Foundation
import MapSim
import NIOCore
import NIOPosix
import NIOSSL
import NIOWebSocket

/// A WebSocket client (RFC 6455) for a feed that only speaks: it opens `ws://` or `wss://`, reads
/// messages as text (binary ones too, as UTF-8), answers pings and a close. Its handshake
/// (`WebSocketHandshakeHandler`) gives way to NIOWebSocket's frame codecs in one event-loop turn, so
/// the frames a server sends right behind its `101` are never lost; the end of the connection, with
/// or without a close frame, always ends `events`.
public final class WebSocketFeedClient: Sendable {
    /// What the connection brings.
    public enum Event: Sendable, Equatable {
        /// The handshake succeeded: the connection is open.
        case opened
        /// A text message.
        case text(String)
    }

    /// The largest message taken; a longer one closes the connection (1009, message too big).
    public static let maximumMessageSize = 1 << 20
    /// The most messages that wait to be read; more are dropped and counted in `missed`.
    public static let maximumBacklog = 100_000

    /// The events, in order; it finishes when the connection ends, throwing why unless the server
    /// closed it.
    public let events: AsyncThrowingStream<Event, any Error>
    private let channel: any Channel
    private let report: WebSocketConnectionReport

    /// Connects to `url` (`ws://` or `wss://`) within `timeout`.
    public static func connect(to url: String, timeout: TimeAmount = .seconds(10)) async throws -> WebSocketFeedClient {
        guard let parsed = URL(string: url), let scheme = parsed.scheme, ["ws", "wss"].contains(scheme), let host = parsed.host, !host.isEmpty else {
            throw WebSocketFeedError(.invalidURL, "\(url) is not a ws:// or wss:// URL")
        }
        let secure = scheme == "wss"
        let port = parsed.port ?? (secure ? 443 : 80)
        let path = parsed.path.isEmpty ? "/" : parsed.path
        let target = parsed.query.map { path + "?" + $0 } ?? path
        let hostHeader = parsed.port.map { "\(host):\($0)" } ?? host
        let (events, continuation) = AsyncThrowingStream<Event, any Error>.makeStream(bufferingPolicy: .bufferingOldest(maximumBacklog))
        let report = WebSocketConnectionReport(events: continuation)
        let key = NIOWebSocketClientUpgrader.randomRequestKey()
        let tls = secure ? try NIOSSLContext(configuration: .makeClientConfiguration()) : nil
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let operations = channel.pipeline.syncOperations
                    if let tls { try operations.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: host)) }
                    try operations.addHandler(WebSocketHandshakeHandler(target: target, host: hostHeader, key: key, report: report,
                                                                        maximumMessageSize: maximumMessageSize))
                }
            }
            .connect(host: host, port: port).get()
        return WebSocketFeedClient(events: events, channel: channel, report: report)
    }

    private init(events: AsyncThrowingStream<Event, any Error>, channel: any Channel, report: WebSocketConnectionReport) {
        self.events = events
        self.channel = channel
        self.report = report
    }

    /// Messages dropped because `maximumBacklog` were waiting to be read.
    public var missed: Int {
        report.missed
    }

    /// Closes the connection.
    public func close() async {
        try? await channel.close()
    }

    /// The `Sec-WebSocket-Accept` a server must answer `key` with.
    static func acceptValue(for key: String) -> String {
        Data(Insecure.SHA1.hash(data: Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }
}
