import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import Synchronization

/// A real WebSocket server on 127.0.0.1 (an ephemeral port) for tests: each connection to `/feed`
/// gets the next batch of lines, one text message a line. Every batch but the last ends with the
/// server closing the connection, as a feed that goes down does; the last stays open until the
/// client leaves, unless `keepsLastOpen` is false. Connections past the batches are refused.
public final class WebSocketFeedServer: Sendable {
    /// The port the server listens on.
    public let port: Int
    private let task: Task<Void, any Error>
    private let connections: Counter

    /// The count of connections, shared with the server's handler.
    private final class Counter: Sendable {
        let value = Mutex(0)
    }

    /// The feed's URL.
    public var url: String { "ws://127.0.0.1:\(port)/feed" }

    /// How many connections were upgraded so far.
    public var connectionCount: Int { connections.value.withLock { $0 } }

    /// Starts a server that sends `batches` to its successive connections.
    public static func start(batches: [[String]], keepsLastOpen: Bool = true) async throws -> WebSocketFeedServer {
        let connections = Counter()
        let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: Router(),
            server: .http1WebSocketUpgrade { request, _, _ in
                let index = connections.value.withLock { count -> Int? in
                    guard request.path == "/feed", count < batches.count else { return nil }
                    count += 1
                    return count - 1
                }
                guard let index else { return .dontUpgrade }
                return .upgrade([:]) { inbound, outbound, _ in
                    for line in batches[index] { try await outbound.write(.text(line)) }
                    guard keepsLastOpen && index == batches.count - 1 else { return }
                    for try await _ in inbound {}
                }
            },
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: Logger(label: "WebSocketFeedServer", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        let task = Task { try await app.run() }
        var port = 0
        for await value in portStream { port = value }
        return WebSocketFeedServer(port: port, task: task, connections: connections)
    }

    private init(port: Int, task: Task<Void, any Error>, connections: Counter) {
        self.port = port
        self.task = task
        self.connections = connections
    }

    /// Stops the server.
    public func stop() async {
        task.cancel()
        _ = await task.result
    }
}
