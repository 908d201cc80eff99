import Foundation
import MapSim
import NIOCore
import NIOHTTP1

/// One connection of `mapsim serve`, on its event loop: each request, once its head and end have
/// come, is answered by the `ServeResponder` — at once, on the loop, when the answer is in memory and
/// no condition applies; else in a task, whose reply is written back on the loop. The pipeline's
/// `HTTPServerPipelineHandler` keeps a pipelining client's requests one at a time, and closes the
/// connection after its answer when the server stops. A connection waiting longer than its idle time
/// for a whole request — open and silent, or sending its headers slowly — is closed.
final class ServeChannelHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let responder: ServeResponder
    /// The request whose end has not come yet.
    private var head: HTTPRequestHead?
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
            waitingSince = nil
            switch responder.reply(to: ServeRequest(head)) {
            case .now(let reply):
                write(reply, to: head, context: context)
            case .later(let pending):
                let responder = responder
                let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
                Task {
                    let reply = await responder.finish(pending)
                    bound.eventLoop.execute {
                        let (handler, context) = bound.value
                        handler.write(reply, to: head, context: context)
                    }
                }
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset or a client gone: nothing to answer on this connection any more.
        context.close(promise: nil)
    }

    /// Writes `reply` to the request `head` on the connection.
    private func write(_ reply: ServeReply, to head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        switch reply {
        case .drop:
            context.close(promise: nil)
        case .answer(let answer):
            let keepAlive = head.isKeepAlive
            context.write(wrapOutboundOut(.head(responseHead(answer, to: head, keepAlive: keepAlive))), promise: nil)
            if !answer.body.isEmpty {
                context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: answer.body)))), promise: nil)
            }
            if keepAlive {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                waitingSince = .now()
            } else {
                let channel = context.channel
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
            }
        case .truncated(let answer):
            // The length says all of it; half comes, then the connection closes.
            context.write(wrapOutboundOut(.head(responseHead(answer, to: head, keepAlive: false))), promise: nil)
            let half = context.channel.allocator.buffer(bytes: answer.body.prefix(answer.body.count / 2))
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(half)))).whenComplete { _ in channel.close(promise: nil) }
        }
    }

    /// The head of `answer`: its status and headers, the length of its body (a `HEAD`'s says what a
    /// `GET` would carry), the date, and whether the connection stays open.
    private func responseHead(_ answer: FileAnswer, to head: HTTPRequestHead, keepAlive: Bool) -> HTTPResponseHead {
        var headers = HTTPHeaders()
        headers.reserveCapacity(answer.headers.count + 3)
        for (name, value) in answer.headers { headers.add(name: name, value: value) }
        headers.add(name: "Content-Length", value: String(answer.contentLength))
        headers.add(name: "Date", value: dateText())
        if !keepAlive {
            headers.add(name: "Connection", value: "close")
        } else if head.version.major == 1 && head.version.minor == 0 {
            headers.add(name: "Connection", value: "keep-alive")
        }
        return HTTPResponseHead(version: head.version, status: HTTPResponseStatus(statusCode: answer.status), headers: headers)
    }

    /// The `Date` header's value now.
    private func dateText() -> String {
        let second = Int64(time(nil))
        if second != date.second { date = (second, HTTPDate(secondsSince1970: second).description) }
        return date.text
    }
}
