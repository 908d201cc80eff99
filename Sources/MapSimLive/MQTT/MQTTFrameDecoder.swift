import NIOCore

/// MQTT 3.1.1 framing on a connection, as SwiftNIO's `ByteToMessageHandler` runs it: whole packets
/// are read from the inbound bytes as they arrive and passed on; a partial one waits for more; a
/// malformed packet, or one larger than `maximumPacketSize`, is an `MQTTError` the pipeline reports.
struct MQTTFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = MQTTPacket

    /// The largest packet accepted, fixed header included.
    let maximumPacketSize: Int

    init(maximumPacketSize: Int = 1 << 20) {
        self.maximumPacketSize = maximumPacketSize
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let (bodyStart, total) = try MQTTPacketDecoder.frame(at: buffer.readableBytesView, maximumPacketSize: maximumPacketSize),
              let header = buffer.readInteger(as: UInt8.self) else {
            return .needMoreData
        }
        buffer.moveReaderIndex(forwardBy: bodyStart - 1)
        let body = buffer.readBytes(length: total - bodyStart) ?? []
        context.fireChannelRead(wrapInboundOut(try MQTTPacketDecoder.packet(header: header, body: body)))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // What is left when the connection ends is an unfinished packet: nothing to pass on.
        try decode(context: context, buffer: &buffer)
    }
}
