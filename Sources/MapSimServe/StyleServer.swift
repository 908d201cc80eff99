import Foundation
import MapSim
import NIOCore
import NIOHTTP1
import NIOPosix

/// `mapsim serve`: a style and everything it needs over HTTP from the style's folder, for a real
/// map SDK, with every request reported as a `resource-request` event — the URL the client asked
/// for, the kind the map would give it, the answer, its size and its time — so that a real client's
/// requests can be compared with the simulated map's. Its own page (`ServePage`, at `/_mapsim/`)
/// shows those requests as they come, the conditions, and the style drawn by MapLibre GL JS.
///
/// ```swift
/// let server = try await StyleServer.start(.init(style: "styles/sample/style.json", port: 0)) { event in print(event.jsonLine) }
/// print(server.baseURL)   // http://127.0.0.1:PORT/ — the style is at /style.json
/// await server.stop()
/// ```
public final class StyleServer: Sendable {
    /// How to serve.
    public struct Configuration: Sendable {
        /// The style file, whose folder is served; or the `http(s)` URL of a style on another
        /// server, served from `remote`.
        public var style: String
        /// The address to listen on.
        public var host: String
        /// The port; 0 for any free one.
        public var port: Int
        /// The `Cache-Control: max-age` of every answer, in seconds.
        public var maxAge: Int
        /// The most connections open at once; more wait to be accepted.
        public var maximumConnections: Int
        /// How long a connection may stay idle (a slow client's headers included) before it is closed.
        public var idleTimeout: Duration
        /// The most bytes of request headers.
        public var maximumHeaderBytes: Int
        /// The network's conditions: profile, faults, offline windows.
        public var conditions: ServeConditions
        /// Where resources of other servers come from (a cache, their origin); nil to leave their
        /// URLs as they are.
        public var remote: RemoteResources?

        public init(style: String, host: String = "127.0.0.1", port: Int = 8080, maxAge: Int = 3600, maximumConnections: Int = 256,
                    idleTimeout: Duration = .seconds(30), maximumHeaderBytes: Int = 16 * 1024, conditions: ServeConditions = ServeConditions(),
                    remote: RemoteResources? = nil) {
            self.conditions = conditions
            self.remote = remote
            self.style = style
            self.host = host
            self.port = port
            self.maxAge = maxAge
            self.maximumConnections = maximumConnections
            self.idleTimeout = idleTimeout
            self.maximumHeaderBytes = maximumHeaderBytes
        }
    }

    /// The port it listens on.
    public let port: Int
    /// The host it listens on.
    public let host: String
    /// The listening channel, whose pipeline holds the connections' keeper (`ServeConnections`).
    private let listener: any Channel
    private let conditions: ServeConditionsLoop?

    /// The URL clients reach it at, `http://HOST:PORT/`.
    public var baseURL: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/" }

    private init(host: String, port: Int, listener: any Channel, conditions: ServeConditionsLoop?) {
        self.host = host
        self.port = port
        self.listener = listener
        self.conditions = conditions
    }

    /// Starts serving; `report` hears every request's event, at its end, with times in
    /// microseconds since the server started. A style that cannot be read, or an address that
    /// cannot be listened on, is an error saying which.
    public static func start(_ configuration: Configuration, report: @escaping @Sendable (MapEvent) -> Void) async throws(ServeError) -> StyleServer {
        let started = ContinuousClock.now
        let (folder, style) = try await served(configuration)
        let log = ServedRequestLog()
        let page = ServePage(log: log, conditions: configuration.conditions, style: configuration.style, start: started)
        // Without conditions every request is answered at once: no loop to ask.
        let conditions = configuration.conditions.answersAtOnce ? nil : ServeConditionsLoop(configuration.conditions.machine())
        let responder = ServeResponder(folder: folder, style: style, remote: configuration.remote, maxAge: configuration.maxAge,
                                       conditions: conditions, start: started, page: page) { event in
            log.record(event)
            report(event)
        }
        // Each connection's requests are answered on its event loop (`ServeChannelHandler`): no task per request.
        let limits = {
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = configuration.maximumHeaderBytes
            limits.maxHeaderListSize = configuration.maximumHeaderBytes
            limits.maxHeaderFieldCount = 100
            return limits
        }()
        let idle = TimeAmount(configuration.idleTimeout)
        let maximumConnections = configuration.maximumConnections
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(ServeConnections(maximum: maximumConnections)) }
            }
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    // NIO's decoder reads the requests; the answers are framed by the handler itself, one buffer each
                    // (their headers are the responder's own, a fault rule's checked there).
                    try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .drop,
                                                                                    limitConfiguration: limits)))
                    try pipeline.addHandler(ServeChannelHandler(responder: responder, idleTimeout: idle))
                }
            }
        do {
            let listener = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
            return StyleServer(host: configuration.host, port: listener.localAddress?.port ?? configuration.port, listener: listener, conditions: conditions)
        } catch {
            await conditions?.stop()
            throw ServeError(.unavailable, "cannot listen on \(configuration.host):\(configuration.port): \(listenFailure(error))", underlying: error)
        }
    }

    /// Why an address cannot be listened on, in the words users read (NIO's names its system call),
    /// with what to do about it.
    private static func listenFailure(_ error: any Error) -> String {
        guard let failure = error as? IOError else { return "\(error)" }
        switch failure.errnoCode {
        case EADDRINUSE: return "the port is in use (another server listens there; --port 0 picks a free one)"
        case EACCES: return "permission denied (a port below 1024 needs privileges; --port 0 picks a free one)"
        case EADDRNOTAVAIL: return "the address is not one of this machine's"
        default: return String(cString: strerror(failure.errnoCode))
        }
    }

    /// The folder and style a configuration serves: a style file and its folder, or a style on
    /// another server from the cache or its origin; the TileJSONs of other servers are fetched so
    /// that their tiles are known.
    private static func served(_ configuration: Configuration) async throws(ServeError) -> (ServedFolder?, ServedStyle) {
        let remote = configuration.remote
        var folder: ServedFolder?
        var style: ServedStyle
        if let path = RemoteResources.servedPath(configuration.style) {
            guard let remote, let url = RemoteResources.originalURL(path) else {
                throw ServeError(.unreadable, "\(configuration.style): a style on another server is served from a cache (--cache) or its origin (--proxy)")
            }
            let response = await remote.load(.style(url))
            guard let data = response.data, response.error == nil else {
                throw ServeError(.unreadable, "\(url): \(response.error?.message ?? "no content")")
            }
            style = try ServedStyle(data, url: url, modified: response.modified ?? HTTPDate(secondsSince1970: Int64(Date().timeIntervalSince1970)), folder: nil, servesRemote: true)
        } else {
            let styleFile = URL(fileURLWithPath: configuration.style).standardizedFileURL
            guard let found = ServedFolder(path: styleFile.deletingLastPathComponent().path) else {
                throw ServeError(.unreadable, "\(configuration.style): its folder cannot be read")
            }
            folder = found
            style = try ServedStyle(folder: found, stylePath: styleFile.lastPathComponent, servesRemote: remote != nil)
        }
        if let remote {
            for (path, scheme) in style.remoteTileJSONs {
                guard let url = RemoteResources.originalURL(path) else { continue }
                let response = await remote.load(.source(url))
                if let data = response.data, response.error == nil { style.learnTileJSON(data, at: path, scheme: scheme) }
            }
        }
        return (folder, style)
    }

    /// Stops serving: no new connection is accepted, the answers in flight are finished, and what a
    /// client keeps open after `grace` is closed anyway.
    public func stop(grace: Duration = .seconds(2)) async {
        let listener = self.listener
        // The conditions' loop first: a request waiting for its delay is answered at once, so that its connection can close.
        await conditions?.stop()
        try? await listener.eventLoop.flatSubmit {
            (try? listener.pipeline.syncOperations.handler(type: ServeConnections.self))?.stop(grace: TimeAmount(grace), on: listener.eventLoop)
                ?? listener.close()
        }.get()
    }
}
