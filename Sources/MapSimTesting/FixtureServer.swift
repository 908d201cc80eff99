import Foundation
import HTTPTypes
import Hummingbird
import MapSim
import NIOCore
import Synchronization

/// A real HTTP server on 127.0.0.1 (an ephemeral port) for tests: serves a folder like a static file
/// server (ETags, Last-Modified, 304s), counts every request, and answers otherwise on demand.
public final class FixtureServer: Sendable {
    /// A way to answer the requests of one path instead of serving the file.
    public enum Reply: Sendable {
        /// This status and headers, with this body.
        case status(Int, headers: [(String, String)] = [], body: [UInt8] = [])
        /// The file, after this long.
        case delay(Duration)
        /// The file, with these extra headers (e.g. `Cache-Control`).
        case headers([(String, String)])
    }

    /// One request the server received.
    public struct Received: Sendable {
        /// The path, with its query.
        public var path: String
        /// The request headers, names lowercased.
        public var headers: [String: String]
    }

    private struct State {
        var received: [Received] = []
        var requestCount = 0
        var hook: (@Sendable (Int, String) async -> Void)?
        var replies: [String: (reply: Reply, remaining: Int?)] = [:]
        var prefixReplies: [(prefix: String, reply: Reply)] = []
    }

    private final class Shared: Sendable {
        let state = Mutex(State())
        let recording: Bool

        init(recording: Bool) {
            self.recording = recording
        }
    }

    /// The port the server listens on.
    public let port: Int
    private let shared: Shared
    private let run: GracefulRun

    /// The server's base URL, `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts a server for the files under `directory`; with `recordingRequests` false it keeps no
    /// log of them (a benchmark's tens of thousands of requests are not its memory).
    public static func start(serving directory: String, recordingRequests: Bool = true) async throws -> FixtureServer {
        let shared = Shared(recording: recordingRequests)
        let router = Router()
        router.get("**") { request, _ -> Hummingbird.Response in
            try await Self.answer(request, directory: directory, shared: shared)
        }
        let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { channel in
                                  portContinuation.yield(channel.localAddress?.port ?? 0)
                                  portContinuation.finish()
                              })
        let run = GracefulRun(app, logger: app.logger)
        var port = 0
        for await value in portStream { port = value }
        return FixtureServer(port: port, shared: shared, run: run)
    }

    private init(port: Int, shared: Shared, run: GracefulRun) {
        self.port = port
        self.shared = shared
        self.run = run
    }

    /// Stops the server: no new connection, the answers in flight finished.
    public func stop() async {
        await run.stop()
    }

    /// Answers the next `times` requests of `path` (all of them when nil) with `reply`.
    public func reply(_ path: String, with reply: Reply, times: Int? = nil) {
        shared.state.withLock { $0.replies[path] = (reply, times) }
    }

    /// Answers every request whose path starts with `prefix` (and has no reply of its own) with
    /// `reply`: a tree of any size served without files. A later reply for the same prefix replaces
    /// the earlier.
    public func reply(prefix: String, with reply: Reply) {
        shared.state.withLock { state in
            state.prefixReplies.removeAll { $0.prefix == prefix }
            state.prefixReplies.append((prefix, reply))
        }
    }

    /// Calls `hook` with each request's number (from 1) and path before it is answered; the answer
    /// waits for it (a test kills a client at the Nth request, or holds answers back). Nil removes it.
    public func intercept(_ hook: (@Sendable (Int, String) async -> Void)?) {
        shared.state.withLock { $0.hook = hook }
    }

    /// Every request received so far, in order.
    public var received: [Received] { shared.state.withLock { $0.received } }

    /// How many requests were received.
    public var requestCount: Int { shared.state.withLock { $0.received.count } }

    private static func answer(_ request: Request, directory: String, shared: Shared) async throws -> Hummingbird.Response {
        let path = request.uri.path
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let (number, hook) = shared.state.withLock { state in
            state.requestCount += 1
            return (state.requestCount, state.hook)
        }
        await hook?(number, path)
        let reply: Reply? = shared.state.withLock { state -> Reply? in
            if shared.recording { state.received.append(Received(path: request.uri.description, headers: headers)) }
            guard var entry = state.replies[path] else { return state.prefixReplies.first { path.hasPrefix($0.prefix) }?.reply }
            if let remaining = entry.remaining {
                entry.remaining = remaining - 1
                state.replies[path] = remaining - 1 > 0 ? entry : nil
            }
            return entry.reply
        }
        var extra: [(String, String)] = []
        switch reply {
        case .status(let code, let replyHeaders, let body)?:
            return response(code, headers: replyHeaders, body: body)
        case .delay(let duration)?:
            try await Task.sleep(for: duration)
        case .headers(let replyHeaders)?:
            extra = replyHeaders
        case nil:
            break
        }
        let root = URL(fileURLWithPath: directory).standardizedFileURL.path
        let file = URL(fileURLWithPath: root).appendingPathComponent(path.removingPercentEncoding ?? path).standardizedFileURL.path
        guard file.hasPrefix(root + "/"), let data = FileManager.default.contents(atPath: file) else {
            return response(404, headers: [], body: Array("not found".utf8))
        }
        let bytes = [UInt8](data)
        let etag = SimulatedNetwork.etag(for: bytes)
        let fileHeaders = [("ETag", etag), ("Last-Modified", "Thu, 01 Jan 2026 00:00:00 GMT")] + extra
        if headers["if-none-match"] == etag {
            return response(304, headers: fileHeaders, body: [])
        }
        return response(200, headers: fileHeaders, body: bytes)
    }

    private static func response(_ status: Int, headers: [(String, String)], body: [UInt8]) -> Hummingbird.Response {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return Hummingbird.Response(status: .init(code: status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
