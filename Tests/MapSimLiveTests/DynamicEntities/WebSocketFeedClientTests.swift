import Testing
import MapSim
@testable import MapSimLive

/// The WebSocket feed client's handshake and frames, as RFC 6455 has them.
@Suite("WebSocketFeedClient")
struct WebSocketFeedClientTests {
    @Test func theAcceptValueIsTheRFCsExample() {
        #expect(WebSocketFeedClient.acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func framesAreReadWholeOrNotYetAndWhatAServerMustNotSendIsRefused() throws {
        let text = Array("hello".utf8)
        let frame: [UInt8] = [0x81, UInt8(text.count)] + text
        let read = try #require(try WebSocketFrameReader.frame(in: frame, at: 0, maximumSize: 1 << 20))
        #expect(read.isFinal && read.opcode == 1 && Array(frame[read.payload]) == text && read.end == frame.count)
        #expect(try WebSocketFrameReader.frame(in: Array(frame.dropLast()), at: 0, maximumSize: 1 << 20) == nil, "not all there yet")
        let long: [UInt8] = [0x81, 126, 0x01, 0x00] + Array(repeating: 0x61, count: 256)
        #expect(try WebSocketFrameReader.frame(in: long, at: 0, maximumSize: 1 << 20)?.payload == 4..<260)
        #expect(throws: WebSocketFeedError.self) { try WebSocketFrameReader.frame(in: [0x81, 0x85, 1, 2, 3, 4] + text, at: 0, maximumSize: 1 << 20) }
        let huge: [UInt8] = [0x81, 127, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(throws: WebSocketFeedError.self) { try WebSocketFrameReader.frame(in: huge, at: 0, maximumSize: 1 << 20) }
        #expect(throws: WebSocketFeedError.self) { try WebSocketFrameReader.frame(in: [0x09, 0], at: 0, maximumSize: 1 << 20) }
    }

    @Test func aClientsFramesAreMasked() {
        let close = WebSocketFrameReader.closeFrame(code: 1000)
        #expect(close.count == 8 && close[0] == 0x88 && close[1] == 0x82)
        let mask = Array(close[2..<6])
        #expect([close[6] ^ mask[0], close[7] ^ mask[1]] == [0x03, 0xE8])
    }
}
