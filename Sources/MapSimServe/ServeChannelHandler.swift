import Foundation
import MapSim
import NIOCore
import NIOHTTP1

/// One connection of `mapsim serve`, on its event loop, after NIO's request decoder: each request,
/// once its head and end have come, is answered by the `ServeResponder` — at once, on the loop,
/// when the answer is in memory and no condition applies; else in a task, whose reply is written
/// back on the loop. Each answer goes out as one buffer, head and body, framed here
/// (`ServeResponseHead`), as a static server frames it.
///
/// A pipelining client's requests are answered in order: those that come while a reply is awaited
/// wait behind it, and the connection reads no more until it is written. A request the decoder
/// cannot read is answered 400 and the connection closed. When the server stops
/// (`ChannelShouldQuiesceEvent`) an idle connection closes at once and a busy one after its answer.
/// A connection waiting longer than its idle time for a whole request — open and silent, or
/// sending its headers slowly — is closed.
final class ServeChannelHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let responder: ServeResponder
    /// The request whose end has not come yet.
    private var head: HTTPRequestHead?
    /// Whether a reply is being awaited (a task's); the requests after it wait in `waiting`.
    private var awaitingReply = false
    /// Whole requests that came while a reply was awaited, in their order.
    private var waiting: [HTTPRequestHead] = []
    /// Whether a read was asked for while a reply was awaited, to be done once it is written.
    private var readHeld = false
    /// Whether the server is stopping: the connection closes once no request is in progress.
    private var quiescing = false
    /// Whether the connection closes after the answer written: no later request is answered.
    private var closing = false
    /// Whether the decoder failed on bytes after the requests still to answer: once they are
    /// answered, the connection is refused (400) and closed.
    private var unreadableAfterWaiting = false
    /// The `Date` header, made once a second.
    private var date = (second: Int64.min, text: "")
    /// How long a connection may wait for a whole request.
    private let idleTimeout: TimeAmount
    /// Since when the connection has been waiting for a whole request; nil while one is answered.
    private var waitingSince: NIODeadline?
    /// The check of the idle time, one at a time per connection.
    private var idleCheck: Scheduled<Void>?

    init(responder: ServeResponder, idleTimeout: TimeAmount) {
        self.responder = responder
        self.idleTimeout = idleTimeout
    }

    func channelActive(context: ChannelHandlerContext) {
        let now = NIODeadline.now()
        waitingSince = now
        scheduleIdleCheck(at: now + idleTimeout, context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        idleCheck?.cancel()
        idleCheck = nil
        waiting.removeAll()
        context.fireChannelInactive()
    }

    /// Closes the connection when it has waited for a request longer than its idle time, else
    /// checks again when it would have.
    private func scheduleIdleCheck(at deadline: NIODeadline, context: ChannelHandlerContext) {
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        idleCheck = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = bound.value
            guard let since = handler.waitingSince else {
                handler.scheduleIdleCheck(at: .now() + handler.idleTimeout, context: context)
                return
            }
            if NIODeadline.now() - since >= handler.idleTimeout {
                context.close(promise: nil)
            } else {
                handler.scheduleIdleCheck(at: since + handler.idleTimeout, context: context)
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            // Nothing served takes a body: it is read and left.
            break
        case .end:
            guard let head else { return }
            self.head = nil
            guard !closing else { return }
            if awaitingReply {
                waiting.append(head)
            } else {
                answer(head, context: context)
            }
        }
    }

    /// Holds the connection's reads while a reply is awaited, so that a pipelining client's
    /// requests wait in the kernel rather than here.
    func read(context: ChannelHandlerContext) {
        if awaitingReply {
            readHeld = true
        } else {
            context.read()
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        quiescing = true
        waiting.removeAll()
        if head == nil && !awaitingReply { context.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A request the decoder cannot read (its headers beyond the limit, bytes after an HTTP/1.0
        // request's end included) is refused once the requests before it are answered; a reset or
        // a client gone: nothing to answer on this connection any more.
        guard error is HTTPParserError else { return context.close(promise: nil) }
        if awaitingReply {
            unreadableAfterWaiting = true
        } else {
            refuseUnreadable(context: context)
        }
    }

    /// Answers 400 to bytes the decoder cannot read, and closes the connection (at once when an
    /// answer already said it closes).
    private func refuseUnreadable(context: ChannelHandlerContext) {
        guard !closing else { return }
        closing = true
        var buffer = context.channel.allocator.buffer(capacity: 96)
        ServeResponseHead.writeBadRequest(into: &buffer)
        writeThenClose(buffer, context: context)
    }

    /// Writes `buffer`, the connection's last answer, and closes the connection once it is out.
    private func writeThenClose(_ buffer: ByteBuffer, context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Answers the whole request `head`: at once, or in a task, while the requests after it wait.
    private func answer(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        waitingSince = nil
        switch responder.reply(to: ServeRequest(head)) {
        case .now(let reply):
            write(reply, to: head, context: context)
        case .later(let pending):
            awaitingReply = true
            let responder = responder
            let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
            Task {
                let reply = await responder.finish(pending)
                bound.eventLoop.execute {
                    let (handler, context) = bound.value
                    handler.awaitingReply = false
                    handler.write(reply, to: head, context: context)
                    handler.answerWaiting(context: context)
                }
            }
        }
    }

    /// Answers the requests that waited behind a reply, until one must be awaited again; then
    /// reads again, or closes a stopping connection with nothing left to answer.
    private func answerWaiting(context: ChannelHandlerContext) {
        while !awaitingReply && !closing && !waiting.isEmpty {
            answer(waiting.removeFirst(), context: context)
        }
        guard !awaitingReply else { return }
        if unreadableAfterWaiting {
            unreadableAfterWaiting = false
            return refuseUnreadable(context: context)
        }
        if readHeld && !closing {
            readHeld = false
            context.read()
        }
    }

    /// Writes `reply` to the request `head` on the connection, and closes it after an answer
    /// that says so, a cut answer, a dropped one, or the last answer of a stopping server.
    private func write(_ reply: ServeReply, to head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        let buffer: ByteBuffer
        switch reply {
        case .drop:
            closing = true
            context.close(promise: nil)
            return
        case .answer(let answer):
            let keepAlive = head.isKeepAlive && !quiescing
            buffer = ServeResponseHead.encode(answer, version: head.version, keepAlive: keepAlive, date: dateText(),
                                              body: answer.body[...], allocator: context.channel.allocator)
            guard keepAlive else { break }
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
            if self.head == nil && waiting.isEmpty { waitingSince = .now() }
            return
        case .truncated(let answer):
            // The length says all of it; half comes, then the connection closes.
            buffer = ServeResponseHead.encode(answer, version: head.version, keepAlive: false, date: dateText(),
                                              body: answer.body.prefix(answer.body.count / 2), allocator: context.channel.allocator)
        }
        closing = true
        waiting.removeAll()
        writeThenClose(buffer, context: context)
    }

    /// The `Date` header's value now.
    private func dateText() -> String {
        let second = Int64(time(nil))
        if second != date.second { date = (second, HTTPDate(secondsSince1970: second).description) }
        return date.text
    }
}
