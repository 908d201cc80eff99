import NIOCore

/// The connection's side on its event loop: sends CONNECT the moment the connection is up and keeps
/// it alive — a PINGREQ every half keep-alive period from then on (MQTT 3.1.1, 3.1.2.10), the
/// connection closed when the broker has been silent for one and a half — so that neither waits for
/// a thread of the concurrency pool: a busy process still connects and pings in time, and a broker
/// never drops it as silent (Mosquitto closes a connection that sent no CONNECT within 90 s).
///
/// Hands the packets (framed by `MQTTFrameDecoder` before it) to the client: a QoS 1 delivery is
/// acknowledged at once, on the event loop, and goes to the messages; every other packet to the
/// client's reader. A malformed packet closes the connection, and says why in the report.
/// It lives on its channel's event loop: nothing in it is shared.
final class MQTTChannelHandler: ChannelInboundHandler {
    typealias InboundIn = MQTTPacket
    typealias OutboundOut = ByteBuffer

    private let connect: MQTTPacket.Connect
    private let packets: AsyncStream<MQTTPacket>.Continuation
    private let messages: AsyncStream<MQTTPacket.Publish>.Continuation
    private let report: MQTTConnectionReport
    private var acknowledged = false
    private var pings: RepeatedTask?

    init(connect: MQTTPacket.Connect, packets: AsyncStream<MQTTPacket>.Continuation, messages: AsyncStream<MQTTPacket.Publish>.Continuation,
         report: MQTTConnectionReport) {
        self.connect = connect
        self.packets = packets
        self.messages = messages
        self.report = report
    }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: MQTTPacket.connect(connect).encoded)), promise: nil)
        keepAlive(context: context)
        context.fireChannelActive()
    }

    private func keepAlive(context: ChannelHandlerContext) {
        guard connect.keepAlive > 0 else { return }
        let interval = TimeAmount.seconds(Int64(connect.keepAlive))
        let half = TimeAmount.milliseconds(Int64(connect.keepAlive) * 500)
        let (report, channel) = (report, context.channel)
        pings = context.eventLoop.scheduleRepeatedTask(initialDelay: half, delay: half) { task in
            // Nothing from the broker for one and a half keep-alive periods: the connection is gone.
            if NIODeadline.now() - report.lastHeard > interval + half {
                task.cancel()
                channel.close(promise: nil)
            } else {
                channel.writeAndFlush(ByteBuffer(bytes: MQTTPacket.pingreq.encoded), promise: nil)
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let packet = unwrapInboundIn(data)
        report.heard()
        guard case .publish(let publish) = packet else {
            packets.yield(packet)
            return
        }
        if publish.qos == 1, let id = publish.packetID {
            context.write(wrapOutboundOut(ByteBuffer(bytes: MQTTPacket.puback(packetID: id).encoded)), promise: nil)
            acknowledged = true
        }
        if case .dropped = messages.yield(publish) { report.countMissed() }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if acknowledged {
            acknowledged = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        pings?.cancel()
        pings = nil
        packets.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let malformed = error as? MQTTError { report.closed(malformed: "the broker sent a malformed packet: \(malformed)") }
        context.close(promise: nil)
    }
}
