import Foundation
import NIOCore
import NIOWebSocket

/// The opening handshake of a `WebSocketFeedClient` connection (RFC 6455 §4.1): writes the upgrade
/// request once connected, reads the answer, and on a `101` with the right `Sec-WebSocket-Accept`
/// puts NIOWebSocket's frame decoder and encoder and the feed's handler in its place — in the same
/// event-loop turn, and handing them the bytes that followed the answer in the same read, so the
/// frames a server sends right behind its `101`, and its close, are never lost. Any other answer
/// ends the connection, saying why.
final class WebSocketHandshakeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The longest answer to the upgrade request read before giving up on it.
    private static let maximumHeaderSize = 64 * 1024

    private let target: String
    private let host: String
    private let key: String
    private let report: WebSocketConnectionReport
    private let maximumMessageSize: Int
    private var answer: ByteBuffer?

    /// The handshake for `target` on `host`, sending `key` (`Sec-WebSocket-Key`).
    init(target: String, host: String, key: String, report: WebSocketConnectionReport, maximumMessageSize: Int) {
        self.target = target
        self.host = host
        self.key = key
        self.report = report
        self.maximumMessageSize = maximumMessageSize
    }

    func channelActive(context: ChannelHandlerContext) {
        let request = "GET \(target) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: request)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        var received = answer ?? context.channel.allocator.buffer(capacity: incoming.readableBytes)
        received.writeBuffer(&incoming)
        answer = received
        do throws(WebSocketFeedError) {
            guard let head = try Self.head(of: &received) else { return }
            try check(head)
            answer = nil
            let operations = context.pipeline.syncOperations
            let handlers: [any ChannelHandler] = [ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: maximumMessageSize)), WebSocketFrameEncoder(),
                                                  WebSocketFeedHandler(report: report, maximumMessageSize: maximumMessageSize)]
            do {
                try operations.addHandlers(handlers, position: .after(self))
            } catch {
                throw WebSocketFeedError.connection(error)
            }
            if received.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(received)) }
            operations.removeHandler(context: context, promise: nil)
        } catch {
            report.failed(error)
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        report.ended()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        report.failed(WebSocketFeedError.connection(error))
        context.close(promise: nil)
    }

    /// The answer's head, once it is all there (read off `buffer`, which keeps what follows it).
    private static func head(of buffer: inout ByteBuffer) throws(WebSocketFeedError) -> [Substring]? {
        let view = buffer.readableBytesView
        guard let end = view.firstRange(of: [13, 10, 13, 10]) else {
            if view.count > maximumHeaderSize { throw WebSocketFeedError(.protocolViolation, "the server's answer to the upgrade has no end") }
            return nil
        }
        let text = String(decoding: view[..<end.lowerBound], as: UTF8.self)
        buffer.moveReaderIndex(to: end.upperBound)
        return text.split(separator: "\r\n", omittingEmptySubsequences: false)
    }

    /// Throws unless the answer is a `101` with the `Sec-WebSocket-Accept` of the key sent.
    private func check(_ lines: [Substring]) throws(WebSocketFeedError) {
        let status = lines.first.map(String.init) ?? ""
        guard status.hasPrefix("HTTP/1.1 101") else {
            throw WebSocketFeedError(.refused, "the server refused the WebSocket upgrade: \(status.isEmpty ? "no status" : status)")
        }
        let accept = lines.dropFirst().first { $0.lowercased().hasPrefix("sec-websocket-accept:") }
            .map { $0.dropFirst("sec-websocket-accept:".count).trimmingCharacters(in: .whitespaces) }
        guard accept == WebSocketFeedClient.acceptValue(for: key) else {
            throw WebSocketFeedError(.refused, "the server's Sec-WebSocket-Accept does not match the key sent")
        }
    }
}
