import MapSim
import NIOCore
import Synchronization

/// The bytes of a `WebSocketFeedClient` connection: writes the upgrade request, checks the `101`
/// answer, then decodes frames from whatever follows it in the same buffer — text messages (also
/// fragmented) go to the events, pings are answered, a close is answered and ends the connection.
/// Anything else a server must not send ends it with the reason.
final class WebSocketFeedHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private struct State {
        var buffer: [UInt8] = []
        var isOpen = false
        var fragments: [UInt8]?
        var missed = 0
        var failure: WebSocketFeedError?
    }

    private let request: [UInt8]
    private let expectedAccept: String
    private let events: AsyncThrowingStream<WebSocketFeedClient.Event, any Error>.Continuation
    private let state = Mutex(State())
    /// The longest answer to the upgrade request read before giving up on it.
    private static let maximumHeaderSize = 64 * 1024

    init(request: [UInt8], expectedAccept: String, events: AsyncThrowingStream<WebSocketFeedClient.Event, any Error>.Continuation) {
        self.request = request
        self.expectedAccept = expectedAccept
        self.events = events
    }

    /// Messages dropped because the backlog was full.
    var missed: Int { state.withLock { $0.missed } }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(NIOAny(ByteBuffer(bytes: request)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        let bytes = incoming.readBytes(length: incoming.readableBytes) ?? []
        var replies: [[UInt8]] = []
        let outcome = state.withLock { state -> ReadOutcome in
            state.buffer += bytes
            do throws(WebSocketFeedError) {
                if !state.isOpen {
                    guard try readHandshake(&state) else { return .more }
                    events.yield(.opened)
                }
                return try readFrames(&state, replies: &replies)
            } catch {
                state.failure = error
                return .close
            }
        }
        for reply in replies { context.write(NIOAny(ByteBuffer(bytes: reply)), promise: nil) }
        if !replies.isEmpty { context.flush() }
        if outcome == .close { context.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        let failure = state.withLock { state -> WebSocketFeedError? in
            if let failure = state.failure { return failure }
            return state.isOpen ? nil : WebSocketFeedError("the server closed the connection before the WebSocket handshake")
        }
        events.finish(throwing: failure)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        state.withLock { $0.failure = $0.failure ?? WebSocketFeedError(TransportFailure.reason(error)) }
        context.close(promise: nil)
    }

    private enum ReadOutcome {
        case more
        case close
    }

    /// Reads the answer to the upgrade request, if it is all there; throws unless it is a `101`
    /// with the right `Sec-WebSocket-Accept`. What follows it stays in the buffer.
    private func readHandshake(_ state: inout State) throws(WebSocketFeedError) -> Bool {
        let end: [UInt8] = [13, 10, 13, 10]
        guard let range = state.buffer.firstRange(of: end) else {
            if state.buffer.count > Self.maximumHeaderSize { throw WebSocketFeedError("the server's answer to the upgrade has no end") }
            return false
        }
        let lines = String(decoding: state.buffer[..<range.lowerBound], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        state.buffer.removeSubrange(..<range.upperBound)
        let status = lines.first.map(String.init) ?? ""
        guard status.hasPrefix("HTTP/1.1 101") else {
            throw WebSocketFeedError("the server refused the WebSocket upgrade: \(status.isEmpty ? "no status" : status)")
        }
        let accept = lines.dropFirst().first { $0.lowercased().hasPrefix("sec-websocket-accept:") }
            .map { $0.dropFirst("sec-websocket-accept:".count).trimmingCharacters(in: .whitespaces) }
        guard accept == expectedAccept else { throw WebSocketFeedError("the server's Sec-WebSocket-Accept does not match the key sent") }
        state.isOpen = true
        return true
    }

    /// Reads every whole frame in the buffer.
    private func readFrames(_ state: inout State, replies: inout [[UInt8]]) throws(WebSocketFeedError) -> ReadOutcome {
        var offset = 0
        defer { state.buffer.removeSubrange(..<offset) }
        while let frame = try WebSocketFrameReader.frame(in: state.buffer, at: offset, maximumSize: WebSocketFeedClient.maximumMessageSize) {
            offset = frame.end
            switch frame.opcode {
            case 0x0, 0x1, 0x2:
                // Text, or binary holding text (some servers send JSON lines so): both are read as UTF-8.
                guard frame.opcode == 0x0 || state.fragments == nil else { throw WebSocketFeedError("a new message began inside a fragmented one") }
                guard frame.opcode != 0x0 || state.fragments != nil else { throw WebSocketFeedError("a continuation frame with no message to continue") }
                let message = (state.fragments ?? []) + state.buffer[frame.payload]
                guard message.count <= WebSocketFeedClient.maximumMessageSize else {
                    replies.append(WebSocketFrameReader.closeFrame(code: 1009))
                    throw WebSocketFeedError("a message longer than \(WebSocketFeedClient.maximumMessageSize) bytes")
                }
                if frame.isFinal {
                    state.fragments = nil
                    if case .dropped = events.yield(.text(String(decoding: message, as: UTF8.self))) { state.missed += 1 }
                } else {
                    state.fragments = message
                }
            case 0x8:
                replies.append(WebSocketFrameReader.closeFrame(code: 1000))
                return .close
            case 0x9:
                replies.append(WebSocketFrameReader.pongFrame(Array(state.buffer[frame.payload])))
            case 0xA:
                continue
            default:
                throw WebSocketFeedError("a frame with the reserved opcode \(frame.opcode)")
            }
        }
        return .more
    }
}
