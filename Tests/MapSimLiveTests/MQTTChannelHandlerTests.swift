import NIOCore
import NIOEmbedded
import Testing
@testable import MapSimLive

/// The MQTT connection's own work on its event loop, on an embedded channel whose clock moves only
/// when told: nothing of it waits for a task of the client.
@Suite("MQTTChannelHandler")
struct MQTTChannelHandlerTests {
    @Test func connectGoesOutWhenTheConnectionIsUpAndPingsEveryHalfPeriodFromThen() async throws {
        let connect = MQTTPacket.Connect(clientID: "early", keepAlive: 10)
        let (packets, packetContinuation) = AsyncStream<MQTTPacket>.makeStream()
        let (_, messages) = AsyncStream<MQTTPacket.Publish>.makeStream()
        let channel = EmbeddedChannel(handler: MQTTChannelHandler(connect: connect, packets: packetContinuation, messages: messages,
                                                                  report: MQTTConnectionReport()))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil, "nothing before the connection is up")
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1883)).get()
        #expect(try channel.readOutbound(as: ByteBuffer.self) == ByteBuffer(bytes: MQTTPacket.connect(connect).encoded),
                "CONNECT at once, by the handler, with no CONNACK awaited by anyone")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(4_999))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == ByteBuffer(bytes: MQTTPacket.pingreq.encoded), "a PINGREQ half a period after CONNECT")
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == ByteBuffer(bytes: MQTTPacket.pingreq.encoded))
        // The broker's packets go to the client's reader; when the connection ends, so do the pings and the stream.
        try channel.writeInbound(MQTTPacket.pingresp)
        _ = try await channel.close()
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil, "no ping after the connection closed")
        var received: [MQTTPacket] = []
        for await packet in packets { received.append(packet) }
        #expect(received == [.pingresp])
    }
}
