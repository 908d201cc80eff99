import AsyncHTTPClient
import Foundation
import MapSim
import NIOCore
import NIOHTTP1
import Synchronization

/// The network backend: loads `http(s)` URLs with one shared AsyncHTTPClient.
///
/// Requests are conditional when a cached copy is being revalidated (`If-None-Match` preferred,
/// else `If-Modified-Since`), say `User-Agent: mapsim/<version>` and accept gzip. Answers are mapped
/// by `HTTPResponseMapping`; DNS, connect, timeout and reset failures are `connection` errors, and a
/// body over the size limit is an `other` error. The client, and the event loop threads under it,
/// start with the first request: a run that never uses the network never starts them. Call
/// `shutdown()` when done.
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
    /// The client, once a request needed it, and whether `shutdown()` closed it.
    private let started = Mutex<(client: HTTPClient?, isShutDown: Bool)>((nil, false))

    /// A loader; its client starts with the first request. Call `shutdown()` before releasing it.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// The client, started on first use.
    private var client: HTTPClient {
        started.withLock { state in
            if let client = state.client { return client }
            var configuration = HTTPClient.Configuration(
                timeout: .init(connect: .init(options.connectTimeout), read: .init(options.readTimeout)),
                decompression: .enabled(limit: .size(options.maximumResponseSize)))
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
        let (client, isShutDown) = started.withLock { ($0.client, $0.isShutDown) }
        guard let client, !isShutDown else { return }
        client.shutdown { _ in withExtendedLifetime(client) {} }
    }

    public func handles(_ url: String) -> Bool {
        let scheme = URLResolver.scheme(of: url)
        return scheme == "http" || scheme == "https"
    }

    public func load(_ resource: Resource) async -> Response {
        let exchange: Exchange
        switch begin(resource) {
        case .success(let begun): exchange = begun
        case .failure(let failure): return failure.response
        }
        do {
            let response = try await withTaskCancellationHandler {
                try await exchange.task.futureResult.get()
            } onCancel: {
                exchange.task.cancel()
            }
            return answer(to: resource, .success(response), watch: exchange.watch)
        } catch {
            return answer(to: resource, .failure(error), watch: exchange.watch)
        }
    }

    /// Hands the answer to `answer` from the client's event loop as it completes: no task, and no
    /// hop to another thread, per load.
    public func start(_ resource: Resource, answering answer: @escaping @Sendable (Response) -> Void) -> @Sendable () -> Void {
        let exchange: Exchange
        switch begin(resource) {
        case .success(let begun): exchange = begun
        case .failure(let failure):
            answer(failure.response)
            return {}
        }
        exchange.task.futureResult.whenComplete { result in
            answer(self.answer(to: resource, result, watch: exchange.watch))
        }
        return { exchange.task.cancel() }
    }

    /// An exchange under way, and its place among the deadlines.
    private struct Exchange {
        let task: HTTPClient.Task<HTTPClient.Response>
        let watch: Int
    }

    /// A request that could not be made, answered at once.
    private struct Unsent: Error {
        let response: Response
    }

    /// Sends the request for `resource`, watched by its deadline.
    private func begin(_ resource: Resource) -> Result<Exchange, Unsent> {
        var headers = HTTPHeaders()
        headers.add(name: "User-Agent", value: options.userAgent)
        if let range = resource.dataRange {
            // Byte ranges are of the stored bytes: no content coding, which would change them.
            headers.add(name: "Range", value: "bytes=\(range.lowerBound)-" + (range.upperBound == .max ? "" : "\(range.upperBound)"))
        } else {
            headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        }
        if let etag = resource.prior?.etag {
            headers.add(name: "If-None-Match", value: etag)
        } else if let modified = resource.prior?.modified {
            headers.add(name: "If-Modified-Since", value: modified.description)
        }
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(url: resource.url, method: .GET, headers: headers)
        } catch {
            return .failure(Unsent(response: Self.failure(error, url: resource.url, limit: options.maximumResponseSize)))
        }
        let task = client.execute(request: request, delegate: ResponseAccumulator(request: request, maxBodySize: options.maximumResponseSize))
        let allowed = options.deadline.map { min($0, options.readTimeout + options.connectTimeout) } ?? options.readTimeout + options.connectTimeout
        let watch = deadlines.watch(until: .now() + TimeAmount(allowed)) { task.cancel() }
        return .success(Exchange(task: task, watch: watch))
    }

    /// The `Response` for how an exchange ended; one past its deadline timed out.
    private func answer(to resource: Resource, _ result: Result<HTTPClient.Response, any Error>, watch: Int) -> Response {
        let inTime = deadlines.finish(watch)
        switch result {
        case .success(let response):
            return HTTPResponseMapping.response(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
                                                body: response.body.map { Array($0.readableBytesView) } ?? [], for: resource, now: .now)
        case .failure(let error):
            guard inTime else { return .failure(.connection, "\(resource.url) timed out", source: .network) }
            return Self.failure(error, url: resource.url, limit: options.maximumResponseSize)
        }
    }

    /// A failed exchange as a `Response` with the right reason.
    static func failure(_ error: any Error, url: String, limit: Int) -> Response {
        if error is ResponseAccumulator.ResponseTooBigError || String(describing: error).contains("DecompressionError") {
            return .failure(.other, "the response of \(url) is larger than the limit of \(limit) bytes", source: .network)
        }
        if let clientError = error as? HTTPClientError {
            switch clientError {
            case .connectTimeout: return .failure(.connection, "connecting to \(url) timed out", source: .network)
            case .readTimeout: return .failure(.connection, "\(url) timed out", source: .network)
            case .remoteConnectionClosed: return .failure(.connection, "the server closed the connection of \(url)", source: .network)
            case .cancelled: return .failure(.other, "\(url) was cancelled", source: .network)
            case .invalidURL, .emptyHost, .emptyScheme: return .failure(.other, "invalid URL \(url)", source: .network)
            default: return .failure(.other, "\(url): \(clientError)", source: .network)
            }
        }
        if error is CancellationError { return .failure(.other, "\(url) was cancelled", source: .network) }
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
