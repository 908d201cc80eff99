import Testing
import MapSim
import NIOCore
import NIOEmbedded
import NIOWebSocket
@testable import MapSimLive

/// The WebSocket feed client's handshake value and its frame handler, as RFC 6455 has them, on an
/// embedded channel.
@Suite("WebSocketFeedClient")
struct WebSocketFeedClientTests {
    @Test func theAcceptValueIsTheRFCsExample() {
        #expect(WebSocketFeedClient.acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    /// A feed handler on an embedded channel, and what it delivers.
    private func connection(maximumMessageSize: Int = 1 << 20) throws
        -> (EmbeddedChannel, AsyncThrowingStream<WebSocketFeedClient.Event, any Error>) {
        let (events, continuation) = AsyncThrowingStream<WebSocketFeedClient.Event, any Error>.makeStream()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(WebSocketFeedHandler(report: WebSocketConnectionReport(events: continuation),
                                                                            maximumMessageSize: maximumMessageSize))
        return (channel, events)
    }

    private func frame(_ opcode: WebSocketOpcode, _ text: String, fin: Bool = true, maskKey: WebSocketMaskingKey? = nil) -> WebSocketFrame {
        WebSocketFrame(fin: fin, opcode: opcode, maskKey: maskKey, data: ByteBuffer(string: text))
    }

    private func all(_ events: AsyncThrowingStream<WebSocketFeedClient.Event, any Error>) async -> ([WebSocketFeedClient.Event], String?) {
        var seen: [WebSocketFeedClient.Event] = []
        do {
            for try await event in events { seen.append(event) }
            return (seen, nil)
        } catch {
            return (seen, "\(error)")
        }
    }

    @Test func messagesWholeOrFragmentedArriveAndPingsAndACloseAreAnsweredMasked() async throws {
        let (channel, events) = try connection()
        try channel.writeInbound(frame(.text, "hel", fin: false))
        try channel.writeInbound(frame(.continuation, "lo"))
        try channel.writeInbound(frame(.binary, "world"))
        try channel.writeInbound(frame(.ping, "p"))
        let pong = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(pong.opcode == .pong && pong.maskKey != nil && String(buffer: pong.data) == "p")
        try channel.writeInbound(frame(.connectionClose, ""))
        let close = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(close.opcode == .connectionClose && close.maskKey != nil && close.data.getInteger(at: 0, as: UInt16.self) == 1000)
        #expect(!channel.isActive)
        let (seen, failure) = await all(events)
        #expect(seen == [.opened, .text("hello"), .text("world")] && failure == nil)
    }

    @Test(arguments: [
        (WebSocketFrame(fin: true, opcode: .text, maskKey: [1, 2, 3, 4], data: ByteBuffer(string: "x")), "a masked frame from the server"),
        (WebSocketFrame(fin: true, rsv1: true, opcode: .text, data: ByteBuffer(string: "x")), "reserved bits"),
        (WebSocketFrame(fin: false, opcode: .ping, data: ByteBuffer(string: "x")), "a control frame that is fragmented"),
        (WebSocketFrame(fin: true, opcode: .continuation, data: ByteBuffer(string: "x")), "a continuation frame with no message"),
        (WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: String(repeating: "x", count: 65))), "a message longer than 64 bytes"),
    ])
    func whatAServerMustNotSendEndsTheConnectionWithWhy(_ bad: WebSocketFrame, _ reason: String) async throws {
        let (channel, events) = try connection(maximumMessageSize: 64)
        try channel.writeInbound(bad)
        #expect(!channel.isActive)
        let (seen, failure) = await all(events)
        #expect(seen == [.opened] && failure?.contains(reason) == true, "\(failure ?? "no failure")")
    }
}
