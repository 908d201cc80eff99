import NIOCore
import NIOWebSocket

/// The frames of an upgraded `WebSocketFeedClient` connection (NIOWebSocket's frame codecs before
/// it): text messages — also fragmented, and binary ones read as UTF-8 — go to the events, pings are
/// answered, a close is answered and ends the connection. Anything a server must not send (a masked
/// frame, reserved bits, a fragmented or long control frame, a message over the limit) ends it with
/// the reason. It lives on its channel's event loop: nothing in it is shared.
final class WebSocketFeedHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let report: WebSocketConnectionReport
    private let maximumMessageSize: Int
    private var fragments: ByteBuffer?

    init(report: WebSocketConnectionReport, maximumMessageSize: Int) {
        self.report = report
        self.maximumMessageSize = maximumMessageSize
    }

    func handlerAdded(context: ChannelHandlerContext) {
        report.opened()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        do throws(WebSocketFeedError) {
            try check(frame)
            switch frame.opcode {
            case .continuation, .text, .binary:
                try assemble(frame, context: context)
            case .connectionClose:
                reply(.connectionClose, data: closeCode(1000, context: context), context: context)
                context.close(promise: nil)
            case .ping:
                reply(.pong, data: frame.unmaskedData, context: context)
            case .pong:
                break
            default:
                throw WebSocketFeedError(.protocolViolation, "a frame with the reserved opcode \(frame.opcode)")
            }
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
        if let frameError = error as? NIOWebSocketError, frameError == .invalidFrameLength {
            reply(.connectionClose, data: closeCode(1009, context: context), context: context)
            report.failed(WebSocketFeedError(.protocolViolation, "a frame longer than the \(maximumMessageSize) bytes taken"))
        } else {
            report.failed(WebSocketFeedError.connection(error))
        }
        context.close(promise: nil)
    }

    /// What a server must not send.
    private func check(_ frame: WebSocketFrame) throws(WebSocketFeedError) {
        guard !frame.rsv1 && !frame.rsv2 && !frame.rsv3 else { throw WebSocketFeedError(.protocolViolation, "a frame with reserved bits set (no extension was agreed)") }
        guard frame.maskKey == nil else { throw WebSocketFeedError(.protocolViolation, "a masked frame from the server") }
        if frame.opcode.isControlOpcode && (frame.length > 125 || !frame.fin) {
            throw WebSocketFeedError(.protocolViolation, "a control frame that is fragmented or longer than 125 bytes")
        }
    }

    /// Adds a data frame to the message it belongs to; a final one delivers the message.
    private func assemble(_ frame: WebSocketFrame, context: ChannelHandlerContext) throws(WebSocketFeedError) {
        guard frame.opcode == .continuation || fragments == nil else { throw WebSocketFeedError(.protocolViolation, "a new message began inside a fragmented one") }
        guard frame.opcode != .continuation || fragments != nil else { throw WebSocketFeedError(.protocolViolation, "a continuation frame with no message to continue") }
        var message = fragments ?? context.channel.allocator.buffer(capacity: frame.length)
        var data = frame.data
        message.writeBuffer(&data)
        guard message.readableBytes <= maximumMessageSize else {
            reply(.connectionClose, data: closeCode(1009, context: context), context: context)
            throw WebSocketFeedError(.protocolViolation, "a message longer than \(maximumMessageSize) bytes")
        }
        if frame.fin {
            fragments = nil
            report.received(String(buffer: message))
        } else {
            fragments = message
        }
    }

    /// A client's frames are always masked.
    private func reply(_ opcode: WebSocketOpcode, data: ByteBuffer, context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data)), promise: nil)
    }

    private func closeCode(_ code: UInt16, context: ChannelHandlerContext) -> ByteBuffer {
        var buffer = context.channel.allocator.buffer(capacity: 2)
        buffer.writeInteger(code)
        return buffer
    }
}
