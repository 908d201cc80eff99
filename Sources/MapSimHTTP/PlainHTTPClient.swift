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
        let bytes = url.utf8
        guard bytes.count > 7, ASCIIBytes.equalsIgnoringCase(bytes.prefix(7), "http://") else { return nil }
        let afterScheme = bytes.index(bytes.startIndex, offsetBy: 7)
        let rest = bytes[afterScheme...]
        let authorityEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.isEmpty, authority.allSatisfy({ isHostByte($0) || $0 == UInt8(ascii: ":") }) else { return nil }
        var host = authority[...]
        var port = 80
        if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
            host = authority[..<colon]
            let digits = authority[authority.index(after: colon)...]
            guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                  let parsed = ASCIIBytes.integer(digits), (1...65_535).contains(parsed) else { return nil }
            port = Int(parsed)
        }
        guard !host.isEmpty else { return nil }
        let pathBytes = rest[authorityEnd...]
        guard pathBytes.allSatisfy(isRequestTargetByte) else { return nil }
        let path = pathBytes.first == UInt8(ascii: "/") ? String(Substring(pathBytes)) : "/" + String(Substring(pathBytes))
        return (Target(host: String(Substring(host)).lowercased(), port: port), path)
    }

    /// Letters, digits, `-` and `.`: a host name or an IPv4 address.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(ASCIIBytes.lowercased(byte)) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// Printable ASCII that a URL parser keeps as it is in a path or query: no space, quote, angle
    /// bracket, backslash, caret, backquote, brace, bar or `#`.
    private static func isRequestTargetByte(_ byte: UInt8) -> Bool {
        guard byte > 0x20, byte < 0x7F else { return false }
        return !"\"<>\\^`{|}#".utf8.contains(byte)
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
    /// A free connection found closed by then is replaced by a new one; a new one closed at once
    /// fails the exchange.
    private func send(_ exchange: PlainHTTPExchange, on channel: any Channel, target: Target, isNew: Bool) {
        channel.eventLoop.execute {
            let context = try? channel.pipeline.syncOperations.context(handlerType: PlainHTTPConnection.self)
            let sent = (context?.handler as? PlainHTTPConnection)?.run(exchange, in: context!) { keptAlive in
                guard keptAlive else { return }
                let isShutDown = self.free.withLock { state in
                    if !state.isShutDown { state.connections[target, default: []].append(channel) }
                    return state.isShutDown
                }
                if isShutDown { channel.close(promise: nil) }
            }
            guard sent != true else { return }
            if isNew {
                exchange.fail(HTTPClientError.remoteConnectionClosed)
            } else {
                self.connect(to: target, for: exchange)
            }
        }
    }

}
