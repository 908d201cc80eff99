import AsyncHTTPClient
import Foundation
import MapSim
import NIOCore
import NIOHTTP1
import Synchronization

/// The network backend: loads `http://` URLs with mapsim's own HTTP/1.1 client (`PlainHTTPClient`)
/// and `https://` ones — and the rare `http://` URL that needs a URL parser's care — with one shared
/// AsyncHTTPClient.
///
/// Requests are conditional when a cached copy is being revalidated (`If-None-Match` preferred,
/// else `If-Modified-Since`), say `User-Agent: mapsim/<version>` and accept gzip. Redirects are
/// followed, up to 5 and never round a cycle. Answers are mapped by `HTTPResponseMapping`; DNS,
/// connect, timeout and reset failures are `connection` errors, and a body over the size limit is
/// an `other` error. The clients, and the event loop threads under them, start with the first
/// request: a run that never uses the network never starts them. Call `shutdown()` when done.
public final class HTTPResourceLoader: ResourceLoader {
    /// Network settings.
    public struct Options: Sendable {
        /// How long connecting may take.
        public var connectTimeout: Duration
        /// How long the server may stay silent while answering.
        public var readTimeout: Duration
        /// The largest body accepted, in bytes.
        public var maximumResponseSize: Int
        /// The `User-Agent` header.
        public var userAgent: String
        /// How long a whole exchange may take, connecting included; nil for the connect and read timeouts alone.
        public var deadline: Duration?

        /// Defaults: 10 s to connect, 30 s of silence, 50 MiB per body.
        public init(connectTimeout: Duration = .seconds(10), readTimeout: Duration = .seconds(30),
                    maximumResponseSize: Int = 50 * 1024 * 1024, userAgent: String = "mapsim/\(MapSimInfo.version)", deadline: Duration? = nil) {
            self.connectTimeout = connectTimeout
            self.readTimeout = readTimeout
            self.maximumResponseSize = maximumResponseSize
            self.userAgent = userAgent
            self.deadline = deadline
        }

        /// The defaults, but with no limit shorter than `budget`, when one is given: a command's
        /// own limit (`load --timeout`) is what a slow connection or a silent server is allowed.
        public init(waitingAtMost budget: SimTime?) {
            self.init()
            guard let budget else { return }
            let allowed = Duration.microseconds(budget.microseconds)
            connectTimeout = allowed
            readTimeout = allowed
        }
    }

    /// The settings.
    public let options: Options
    /// When each exchange in flight must be over.
    private let deadlines = ExchangeDeadlines()
    /// AsyncHTTPClient, once a request needed it, and whether `shutdown()` closed it.
    private let started = Mutex<(client: HTTPClient?, isShutDown: Bool)>((nil, false))
    /// The client of plain `http://` URLs.
    private let plain: PlainHTTPClient

    /// A loader; its clients start with the first request. Call `shutdown()` before releasing it.
    public init(options: Options = Options()) {
        self.options = options
        plain = PlainHTTPClient(connectTimeout: TimeAmount(options.connectTimeout), readTimeout: TimeAmount(options.readTimeout),
                                maximumBodySize: options.maximumResponseSize)
    }

    /// The client, started on first use.
    private var client: HTTPClient {
        started.withLock { state in
            if let client = state.client { return client }
            var configuration = HTTPClient.Configuration(
                timeout: .init(connect: .init(options.connectTimeout), read: .init(options.readTimeout)),
                // Content codings are decoded as the plain client decodes them (`ContentDecoding`),
                // so that a gzip answer's stream is kept for the store here too.
                decompression: .disabled)
            configuration.httpVersion = .automatic
            // A refused or reset connection is a `connection` error at once, as MapLibre's online file
            // source sees it; the pipeline's own retry schedule is the only retry.
            configuration.connectionPool.retryConnectionEstablishment = false
            // The pipeline caps the requests in flight (20, as the SDKs); the client adds no lower cap
            // per host (AsyncHTTPClient's is 8), as MapLibre's curl client adds none.
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1_000
            // No distributed-tracing spans: mapsim records its requests itself, and the spans'
            // attributes cost a few percent of a region download even with no tracer bootstrapped.
            configuration.tracing.tracer = nil
            let created = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            state.client = created
            return created
        }
    }

    /// Closes every connection, if a request ever opened one; the loader answers nothing afterwards.
    public func shutdown() async throws {
        deadlines.stop()
        plain.shutdown()
        guard let client = started.withLock({ state -> HTTPClient? in
            state.isShutDown = true
            return state.client
        }) else { return }
        try await client.shutdown()
    }

    /// A loader released without `shutdown()` — by a task that ended early on an error — still
    /// closes its client's connections, rather than leak them (which a debug build of
    /// AsyncHTTPClient stops the process for).
    deinit {
        plain.shutdown()
        let (client, isShutDown) = started.withLock { ($0.client, $0.isShutDown) }
        guard let client, !isShutDown else { return }
        client.shutdown { _ in withExtendedLifetime(client) {} }
    }

    public func handles(_ url: String) -> Bool {
        let scheme = URLResolver.scheme(of: url)
        return scheme == "http" || scheme == "https"
    }

    public func load(_ resource: Resource) async -> Response {
        let cancellation = ExchangeCancellation()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                cancellation.set(start(resource) { continuation.resume(returning: $0) })
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Hands the answer to `answer` from the event loop it arrives on: no task, and no hop to
    /// another thread, per load.
    public func start(_ resource: Resource, answering answer: @escaping @Sendable (Response) -> Void) -> @Sendable () -> Void {
        let cancellation = ExchangeCancellation()
        let allowed = options.deadline.map { min($0, options.readTimeout + options.connectTimeout) } ?? options.readTimeout + options.connectTimeout
        let watch = deadlines.watch(until: .now() + TimeAmount(allowed)) { cancellation.cancel() }
        let load = Load(resource: resource, headers: headers(for: resource), watch: watch, cancellation: cancellation, answer: answer)
        send(resource.url, load, after: [])
        return { cancellation.cancel() }
    }

    /// One load under way: what it asks, its deadline's watch, how to give it up, and where its
    /// answer goes.
    private struct Load: Sendable {
        let resource: Resource
        let headers: [(name: String, value: String)]
        let watch: Int
        let cancellation: ExchangeCancellation
        let answer: @Sendable (Response) -> Void
    }

    /// The request's headers.
    private func headers(for resource: Resource) -> [(name: String, value: String)] {
        var headers = [(name: "User-Agent", value: options.userAgent)]
        if let range = resource.dataRange {
            // Byte ranges are of the stored bytes: no content coding, which would change them.
            headers.append((name: "Range", value: "bytes=\(range.lowerBound)-" + (range.upperBound == .max ? "" : "\(range.upperBound)")))
        } else {
            headers.append((name: "Accept-Encoding", value: "gzip, deflate"))
        }
        if let etag = resource.prior?.etag {
            headers.append((name: "If-None-Match", value: etag))
        } else if let modified = resource.prior?.modified {
            headers.append((name: "If-Modified-Since", value: modified.description))
        }
        return headers
    }

    /// Sends `url` for `load`, `redirected` from the URLs before it: a plain `http://` URL with
    /// mapsim's client, which leaves redirects to this loader, anything else with AsyncHTTPClient,
    /// which follows them itself. AsyncHTTPClient does not say whether a connection was kept alive
    /// from an earlier request, so a request of its whose connection closes before any of the answer
    /// came is sent again, once, unless `resent` already.
    private func send(_ url: String, _ load: Load, after redirected: [String], resent: Bool = false) {
        if let (target, path) = PlainHTTPClient.route(url) {
            let exchange = plain.get(path, from: target, headers: load.headers) { result in
                self.received(result, from: url, load, after: redirected)
            }
            load.cancellation.set { exchange.cancel() }
            return
        }
        let request: HTTPClient.Request
        do {
            var headers = HTTPHeaders()
            for (name, value) in load.headers { headers.add(name: name, value: value) }
            request = try HTTPClient.Request(url: url, method: .GET, headers: headers)
        } catch {
            finish(load, .failure(error))
            return
        }
        let accumulator = AnswerNotingAccumulator(request: request, maxBodySize: options.maximumResponseSize)
        let task = client.execute(request: request, delegate: accumulator)
        load.cancellation.set { task.cancel() }
        task.futureResult.whenComplete { result in
            if !resent, case .failure(let error) = result, error as? HTTPClientError == .remoteConnectionClosed, !accumulator.answerBegan {
                self.send(url, load, after: redirected, resent: true)
                return
            }
            self.finish(load, result.flatMap { response in
                Result {
                    let (body, zlib) = try ContentDecoding.decode(response.body.map { Array($0.readableBytesView) } ?? [], headers: response.headers,
                                                                  limit: self.options.maximumResponseSize)
                    return PlainHTTPClient.Answer(status: Int(response.status.code), headers: response.headers, body: body, zlib: zlib)
                }
            })
        }
    }

    /// Follows a redirect of a plain `http://` URL, as AsyncHTTPClient follows them (at most 5,
    /// never back to a URL already asked), else finishes the load.
    private func received(_ result: Result<PlainHTTPClient.Answer, any Error>, from url: String, _ load: Load, after redirected: [String]) {
        guard case .success(let answer) = result, [301, 302, 303, 307, 308].contains(answer.status),
              let location = answer.headers["location"].last else {
            finish(load, result)
            return
        }
        let next = URLResolver.resolve(location, against: url)
        guard handles(next) else {
            finish(load, result)
            return
        }
        if redirected.count >= Self.maximumRedirects {
            finish(load, .failure(HTTPClientError.redirectLimitReached))
        } else if next == url || redirected.contains(next) {
            finish(load, .failure(HTTPClientError.redirectCycleDetected))
        } else {
            send(next, load, after: redirected + [url])
        }
    }

    /// Redirects followed at most, as AsyncHTTPClient's default.
    private static let maximumRedirects = 5

    /// Hands `load` its `Response`; one past its deadline timed out.
    private func finish(_ load: Load, _ result: Result<PlainHTTPClient.Answer, any Error>) {
        let inTime = deadlines.finish(load.watch)
        switch result {
        case .success(let answer):
            load.answer(HTTPResponseMapping.response(status: answer.status, headers: answer.headers.map { ($0.name, $0.value) }, body: answer.body, zlib: answer.zlib,
                                                     for: load.resource, now: .now))
        case .failure(let error):
            guard inTime else {
                load.answer(.failure(.connection, "\(load.resource.url) timed out", source: .network))
                return
            }
            load.answer(Self.failure(error, url: load.resource.url, limit: options.maximumResponseSize))
        }
    }

    /// A failed exchange as a `Response` with the right reason.
    static func failure(_ error: any Error, url: String, limit: Int) -> Response {
        if error is ResponseAccumulator.ResponseTooBigError || error is PlainHTTPConnection.BodyTooLarge {
            return .failure(.other, "the response of \(url) is larger than the limit of \(limit) bytes", source: .network)
        }
        if let undecodable = error as? PlainHTTPConnection.UndecodableBody {
            return .failure(.other, "the response of \(url) is not what it says: \(undecodable)", source: .network)
        }
        if let clientError = error as? HTTPClientError {
            switch clientError {
            case .connectTimeout: return .failure(.connection, "connecting to \(url) timed out", source: .network)
            case .readTimeout: return .failure(.connection, "\(url) timed out", source: .network)
            case .remoteConnectionClosed: return .failure(.connection, "the server closed the connection of \(url)", source: .network)
            case .cancelled: return .failure(.other, "\(url) was cancelled", source: .network)
            case .redirectLimitReached: return .failure(.other, "\(url) redirects more than \(maximumRedirects) times", source: .network)
            case .redirectCycleDetected: return .failure(.other, "\(url) redirects round a cycle", source: .network)
            case .invalidURL, .emptyHost, .emptyScheme: return .failure(.other, "invalid URL \(url)", source: .network)
            default: return .failure(.other, "\(url): \(clientError)", source: .network)
            }
        }
        if error is CancellationError { return .failure(.other, "\(url) was cancelled", source: .network) }
        // A connection failure, as curl's (MapLibre Native's) is, but the server answered: say so.
        if let malformed = error as? HTTPParserError {
            return .failure(.connection, "the answer of \(url) is not valid HTTP: \(MalformedAnswer.reason(malformed))", source: .network)
        }
        // Name resolution, refused or reset connections: NIO's connection and socket errors.
        return .failure(.connection, "cannot connect to \(url): \(HTTPConnectionFailure.reason(error))", source: .network)
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

extension HTTPDate {
    /// The current wall-clock time.
    static var now: HTTPDate {
        HTTPDate(secondsSince1970: Int64(Date().timeIntervalSince1970))
    }
}
