import AsyncHTTPClient
import MapSim
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// HTTP/1.1 over plain TCP, for the `http://` URLs a load or a download asks most of: a request
/// goes out on a kept-alive connection to its host (a new one when none is free, with no cap: the
/// request pipeline caps what is in flight), and its answer is handed on from the connection's
/// event loop. It does what `HTTPResourceLoader` asked of AsyncHTTPClient — connect and read
/// timeouts, a body limit, gzip and deflate content codings inflated within that limit — with
/// failures named as AsyncHTTPClient names them, and none of its per-request bookkeeping (a
/// request's state machines, futures and logger, its URL parsed by Foundation), which cost a
/// region download more than the rest of its HTTP. Redirects are followed by the loader.
final class PlainHTTPClient: Sendable {
    /// Where a connection goes.
    struct Target: Hashable, Sendable {
        let host: String
        let port: Int
    }

    /// What an exchange ends with.
    struct Answer: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let body: [UInt8]
        /// The body as the server deflated it, in zlib's format, when it came as one gzip member.
        var zlib: [UInt8]? = nil
    }

    private let connectTimeout: TimeAmount
    private let readTimeout: TimeAmount
    private let maximumBodySize: Int
    /// Connections free for a request, by target, and whether `shutdown()` closed the client.
    private let free = Mutex<(connections: [Target: [any Channel]], isShutDown: Bool)>(([:], false))

    init(connectTimeout: TimeAmount, readTimeout: TimeAmount, maximumBodySize: Int) {
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.maximumBodySize = maximumBodySize
    }

    /// The target and request target (path and query) of `url` when this client sends it exactly as
    /// AsyncHTTPClient would: an `http://` URL with a host name or IPv4 address, an optional port,
    /// and a path and query of printable ASCII that needs no percent-encoding. Nil for anything
    /// else (https, user info, an IPv6 literal, a fragment), which AsyncHTTPClient sends.
    static func route(_ url: String) -> (target: Target, path: String)? {
        // Read through the bytes in place: this is asked of every request a download makes.
        var url = url
        return url.withUTF8(route(bytes:))
    }

    private static func route(bytes: UnsafeBufferPointer<UInt8>) -> (target: Target, path: String)? {
        let scheme = 7
        guard bytes.count > scheme, ASCIIBytes.equalsIgnoringCase(bytes[..<scheme], "http://") else { return nil }
        var authorityEnd = scheme
        while authorityEnd < bytes.count, bytes[authorityEnd] != UInt8(ascii: "/"), bytes[authorityEnd] != UInt8(ascii: "?") { authorityEnd += 1 }
        var hostEnd = authorityEnd
        for index in scheme..<authorityEnd where !isHostByte(bytes[index]) {
            guard bytes[index] == UInt8(ascii: ":") else { return nil }
            if hostEnd == authorityEnd { hostEnd = index }
        }
        var port = 80
        if hostEnd < authorityEnd {
            let digits = bytes[(hostEnd + 1)..<authorityEnd]
            guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                  let parsed = ASCIIBytes.integer(digits), (1...65_535).contains(parsed) else { return nil }
            port = Int(parsed)
        }
        guard hostEnd > scheme, bytes[authorityEnd...].allSatisfy(isRequestTargetByte) else { return nil }
        let pathBytes = String(decoding: UnsafeBufferPointer(rebasing: bytes[authorityEnd...]), as: UTF8.self)
        let path = bytes[authorityEnd...].first == UInt8(ascii: "/") ? pathBytes : "/" + pathBytes
        return (Target(host: String(decoding: UnsafeBufferPointer(rebasing: bytes[scheme..<hostEnd]), as: UTF8.self).lowercased(), port: port), path)
    }

    /// Letters, digits, `-` and `.`: a host name or an IPv4 address.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(ASCIIBytes.lowercased(byte)) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// Printable ASCII that a URL parser keeps as it is in a path or query: no space, quote, angle
    /// bracket, backslash, caret, backquote, brace, bar or `#`.
    private static func isRequestTargetByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "{"),
             UInt8(ascii: "|"), UInt8(ascii: "}"), UInt8(ascii: "#"):
            false
        default:
            byte > 0x20 && byte < 0x7F
        }
    }

    /// Sends a GET of `path` to `target` and hands how it ended to `completion` once, from the
    /// connection's event loop. Returns the exchange, to cancel it.
    func get(_ path: String, from target: Target, headers: [(name: String, value: String)],
             completion: @escaping @Sendable (Result<Answer, any Error>) -> Void) -> PlainHTTPExchange {
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
        head.headers.add(name: "Host", value: target.port == 80 ? target.host : "\(target.host):\(target.port)")
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        let exchange = PlainHTTPExchange(head: head, readTimeout: readTimeout, maximumBodySize: maximumBodySize, completion: completion)
        // A free connection the server has closed since is dropped as it comes up.
        let (connection, isShutDown) = free.withLock { state -> ((any Channel)?, Bool) in
            while let connection = state.connections[target]?.popLast() {
                if connection.isActive { return (connection, state.isShutDown) }
            }
            return (nil, state.isShutDown)
        }
        if isShutDown {
            exchange.fail(HTTPClientError.alreadyShutdown)
        } else if let connection {
            send(exchange, on: connection, target: target, isNew: false)
        } else {
            connect(to: target, for: exchange)
        }
        return exchange
    }

    /// Closes the free connections; requests afterwards fail, as AsyncHTTPClient's do once shut down.
    func shutdown() {
        let connections = free.withLock { state -> [any Channel] in
            state.isShutDown = true
            defer { state.connections = [:] }
            return state.connections.values.flatMap { $0 }
        }
        for connection in connections { connection.close(promise: nil) }
    }

    private func connect(to target: Target, for exchange: PlainHTTPExchange) {
        let connected = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(connectTimeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(PlainHTTPConnection())
                }
            }
            .connect(host: target.host, port: target.port)
        connected.whenComplete { result in
            switch result {
            case .success(let channel): self.send(exchange, on: channel, target: target, isNew: true)
            case .failure(ChannelError.connectTimeout): exchange.fail(HTTPClientError.connectTimeout)
            case .failure(let error): exchange.fail(error)
            }
        }
    }

    /// Runs `exchange` on `channel`; once answered, a connection the server keeps alive is free again.
    /// A free connection found closed by then, or closed before any of the answer came, is replaced
    /// by a new one; a new one closed so fails the exchange.
    private func send(_ exchange: PlainHTTPExchange, on channel: any Channel, target: Target, isNew: Bool) {
        channel.eventLoop.execute {
            let context = try? channel.pipeline.syncOperations.context(handlerType: PlainHTTPConnection.self)
            let resend = isNew ? nil : { self.connect(to: target, for: exchange) }
            let sent = (context?.handler as? PlainHTTPConnection)?.run(exchange, in: context!, released: { keptAlive in
                guard keptAlive else { return }
                let isShutDown = self.free.withLock { state in
                    if !state.isShutDown { state.connections[target, default: []].append(channel) }
                    return state.isShutDown
                }
                if isShutDown { channel.close(promise: nil) }
            }, resend: resend)
            guard sent != true else { return }
            if let resend {
                resend()
            } else {
                exchange.fail(HTTPClientError.remoteConnectionClosed)
            }
        }
    }

}
