#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AsyncHTTPClient
import MapSim
import NIOCore
import NIOHTTP1

/// A `PlainHTTPClient` connection's handler: runs one exchange at a time on its event loop, keeps
/// the body within the limit, fails an exchange the server goes silent on for the read timeout or
/// closes under, and says when the connection is free again. An exchange on a connection kept alive
/// from an earlier one, closed before any of its answer came, is handed back to be sent again on a
/// new connection, once, as curl and browsers do: the server most likely closed it as idle just as
/// the request went out.
final class PlainHTTPConnection: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    /// A body over the limit, as sent or as inflated.
    struct BodyTooLarge: Error {}

    /// A body whose content coding does not inflate.
    struct UndecodableBody: Error, CustomStringConvertible {
        let coding: String
        let reason: String
        var description: String { "its \(coding) body does not inflate: \(reason)" }
    }

    private struct Running {
        let exchange: PlainHTTPExchange
        /// Called once answered: whether the connection may carry another exchange.
        let released: (Bool) -> Void
        /// Sends the exchange again on a new connection, when this one is closed before any of the
        /// answer came; nil on a new connection, whose exchange then fails.
        let resend: (() -> Void)?
        /// Whether any part of an answer (an informational one too) has come.
        var answerBegan = false
        var head: HTTPResponseHead?
        /// An informational answer (1xx) is under way, to be passed over.
        var skippingInformational = false
        var body = ByteBuffer()
        var lastRead = NIODeadline.now()
        var timeout: Scheduled<Void>?
    }

    /// The exchange under way. The handler keeps no context of its own: one would hold the
    /// pipeline that holds the handler.
    private var running: Running?

    /// Sends `exchange`'s request; `released` is told, once it is answered, whether the connection
    /// may carry another, and `resend` (given for a connection kept alive from an earlier exchange)
    /// is called instead of failing the exchange when the connection closes before any of the
    /// answer came. Runs on the connection's event loop, after whatever it was reading: false, and
    /// nothing sent, when the connection has closed since (the server's doing, or an answer no
    /// request asked for).
    func run(_ exchange: PlainHTTPExchange, in context: ChannelHandlerContext, released: @escaping (Bool) -> Void,
             resend: (() -> Void)?) -> Bool {
        guard context.channel.isActive, running == nil else { return false }
        guard exchange.attach(context.channel) else {
            released(true)
            return true
        }
        running = Running(exchange: exchange, released: released, resend: resend)
        scheduleTimeout(after: exchange.readTimeout, context: context)
        context.write(wrapOutboundOut(.head(exchange.head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        return true
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // `running` is changed in place: a copy of it would copy the body at every part.
        guard running != nil else {
            // An answer no request asked for: the connection carries no other.
            context.close(promise: nil)
            return
        }
        running!.lastRead = .now()
        running!.answerBegan = true
        switch unwrapInboundIn(data) {
        case .head(let head) where (100..<200).contains(head.status.code) && head.status.code != 101:
            running!.skippingInformational = true
        case .head(let head):
            running!.head = head
        case .body(var part):
            guard !running!.skippingInformational else { return }
            guard running!.body.readableBytes + part.readableBytes <= running!.exchange.maximumBodySize else {
                fail(BodyTooLarge(), context: context)
                return
            }
            running!.body.writeBuffer(&part)
        case .end:
            guard !running!.skippingInformational else {
                running!.skippingInformational = false
                return
            }
            let answered = running!
            running = nil
            answered.timeout?.cancel()
            finish(answered, context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed(by: HTTPClientError.remoteConnectionClosed, context: context)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error as? HTTPParserError == .invalidEOFState {
            // A body cut short by the server closing is the server closing the connection.
            closed(by: HTTPClientError.remoteConnectionClosed, context: context)
        } else if let error = error as? IOError, [ECONNRESET, EPIPE].contains(error.errnoCode) {
            closed(by: error, context: context)
        } else {
            fail(error, context: context)
        }
        context.close(promise: nil)
    }

    /// The server closed the connection (`error` says how) under the exchange under way, if any:
    /// sent again on a new connection when the connection carried an earlier exchange and none of
    /// the answer has come, else failed.
    private func closed(by error: any Error, context: ChannelHandlerContext) {
        guard let current = stop(context: context) else { return }
        if !current.answerBegan, let resend = current.resend {
            resend()
        } else {
            current.exchange.fail(error)
        }
    }

    /// Hands the answer on, after the connection is free again (or closed, when the server does not
    /// keep it alive).
    private func finish(_ exchange: Running, context: ChannelHandlerContext) {
        guard let head = exchange.head else {
            exchange.exchange.fail(HTTPClientError.remoteConnectionClosed)
            context.close(promise: nil)
            return
        }
        if !head.isKeepAlive { context.close(promise: nil) }
        exchange.released(head.isKeepAlive)
        do {
            let (body, zlib) = try ContentDecoding.decode(Array(exchange.body.readableBytesView), headers: head.headers, limit: exchange.exchange.maximumBodySize)
            exchange.exchange.succeed(PlainHTTPClient.Answer(status: Int(head.status.code), headers: head.headers, body: body, zlib: zlib))
        } catch {
            exchange.exchange.fail(error)
        }
    }

    /// Ends the exchange under way, if any, with `error`, and closes the connection.
    private func fail(_ error: any Error, context: ChannelHandlerContext) {
        stop(context: context)?.exchange.fail(error)
    }

    /// Ends the exchange under way, if any, without an answer: its timer cancelled, the connection
    /// closed. Returns it, for the caller to say how it ends.
    private func stop(context: ChannelHandlerContext) -> Running? {
        guard let current = running else { return nil }
        running = nil
        current.timeout?.cancel()
        context.close(promise: nil)
        return current
    }

    /// Fails the exchange when the server has been silent for the read timeout: one timer per
    /// exchange, set again for what is left of the timeout when something came since.
    private func scheduleTimeout(after delay: TimeAmount, context: ChannelHandlerContext) {
        // The timer holds the context until it fires or is cancelled, which every exchange's end does.
        running?.timeout = context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
            guard let current = running else { return }
            let silent = NIODeadline.now() - current.lastRead
            if silent >= current.exchange.readTimeout {
                fail(HTTPClientError.readTimeout, context: context)
            } else {
                scheduleTimeout(after: current.exchange.readTimeout - silent, context: context)
            }
        }
    }
}
