/// Reads MQTT 3.1.1 packets from a byte stream as it arrives: whole packets come out, a partial one
/// waits for more bytes, and anything malformed or larger than the limit is an `MQTTError` (`protocolViolation`)
/// (the connection should then be closed), never a crash and never a buffer that grows without end.
public struct MQTTPacketDecoder: Sendable {
    /// The largest packet accepted, fixed header included.
    public let maximumPacketSize: Int
    private var buffer: [UInt8] = []
    private var start = 0

    public init(maximumPacketSize: Int = 1 << 20) {
        self.maximumPacketSize = maximumPacketSize
    }

    /// Adds bytes received.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole packet, or nil until more bytes arrive.
    public mutating func next() throws(MQTTError) -> MQTTPacket? {
        guard let (packet, length) = try Self.packet(at: buffer[start...], maximumPacketSize: maximumPacketSize) else { return nil }
        start += length
        if start > 1 << 16 {
            buffer.removeFirst(start)
            start = 0
        }
        return packet
    }

    /// The packet at the start of `bytes` and how many bytes it takes; nil while it is not whole.
    static func packet<Bytes: RandomAccessCollection<UInt8>>(at bytes: Bytes, maximumPacketSize: Int) throws(MQTTError)
        -> (packet: MQTTPacket, length: Int)? where Bytes.Index == Int {
        guard let (bodyStart, total) = try frame(at: bytes, maximumPacketSize: maximumPacketSize) else { return nil }
        let start = bytes.startIndex
        return (try packet(header: bytes[start], body: Array(bytes[(start + bodyStart)..<(start + total)])), total)
    }

    /// Where the body of the packet at the start of `bytes` begins and where the packet ends, as
    /// offsets from its start; nil while it is not whole.
    static func frame<Bytes: RandomAccessCollection<UInt8>>(at bytes: Bytes, maximumPacketSize: Int) throws(MQTTError)
        -> (bodyStart: Int, total: Int)? where Bytes.Index == Int {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return nil }
        var length = 0
        var multiplier = 1
        var index = start + 1
        while true {
            guard index < bytes.endIndex else { return nil }
            let byte = bytes[index]
            length += Int(byte & 0x7F) * multiplier
            index += 1
            if byte & 0x80 == 0 { break }
            multiplier *= 128
            guard index - start - 1 < 4 else { throw MQTTError(.protocolViolation, "the remaining length takes more than 4 bytes") }
        }
        let total = index - start + length
        guard total <= maximumPacketSize else {
            throw MQTTError(.protocolViolation, "a packet of \(total) bytes is larger than the limit of \(maximumPacketSize)")
        }
        guard bytes.count >= total else { return nil }
        return (index - start, total)
    }

    /// The packet of this fixed header byte and body.
    static func packet(header: UInt8, body: [UInt8]) throws(MQTTError) -> MQTTPacket {
        var reader = Reader(bytes: body)
        let type = header >> 4
        let flags = header & 0x0F
        func expectFlags(_ wanted: UInt8, _ name: String) throws(MQTTError) {
            guard flags == wanted else { throw MQTTError(.protocolViolation, "\(name) has flags \(flags), not \(wanted)") }
        }
        let packet: MQTTPacket
        switch type {
        case 1:
            try expectFlags(0, "CONNECT")
            guard try reader.string() == "MQTT", try reader.byte() == 4 else { throw MQTTError(.protocolViolation, "CONNECT is not for MQTT 3.1.1") }
            let connectFlags = try reader.byte()
            guard connectFlags & 0x01 == 0 else { throw MQTTError(.protocolViolation, "CONNECT sets the reserved flag") }
            let keepAlive = try reader.uint16()
            var connect = MQTTPacket.Connect(clientID: try reader.string(), keepAlive: keepAlive, cleanSession: connectFlags & 0x02 != 0)
            if connectFlags & 0x04 != 0 {
                _ = try reader.string()
                _ = try reader.binary()
            }
            if connectFlags & 0x80 != 0 { connect.username = try reader.string() }
            if connectFlags & 0x40 != 0 { connect.password = try reader.binary() }
            packet = .connect(connect)
        case 2:
            try expectFlags(0, "CONNACK")
            let acknowledge = try reader.byte()
            packet = .connack(sessionPresent: acknowledge & 1 != 0, returnCode: try reader.byte())
        case 3:
            let qos = (flags >> 1) & 3
            guard qos < 3 else { throw MQTTError(.protocolViolation, "PUBLISH has QoS 3") }
            let topic = try reader.string()
            guard !topic.isEmpty, !topic.contains("+"), !topic.contains("#") else { throw MQTTError(.protocolViolation, "PUBLISH to the invalid topic \"\(topic)\"") }
            let packetID = qos > 0 ? try reader.uint16() : nil
            packet = .publish(MQTTPacket.Publish(topic: topic, payload: reader.rest(), qos: qos, retain: flags & 1 != 0,
                                                 duplicate: flags & 0x08 != 0, packetID: packetID))
        case 4:
            try expectFlags(0, "PUBACK")
            packet = .puback(packetID: try reader.uint16())
        case 8:
            try expectFlags(2, "SUBSCRIBE")
            let packetID = try reader.uint16()
            var filters: [(String, UInt8)] = []
            repeat {
                let filter = try reader.string()
                let qos = try reader.byte()
                guard qos < 3 else { throw MQTTError(.protocolViolation, "SUBSCRIBE asks for QoS \(qos)") }
                filters.append((filter, qos))
            } while !reader.isAtEnd
            packet = .subscribe(packetID: packetID, filters: filters)
        case 9:
            try expectFlags(0, "SUBACK")
            let packetID = try reader.uint16()
            let codes = reader.rest()
            guard !codes.isEmpty, codes.allSatisfy({ $0 <= 2 || $0 == MQTTPacket.subscriptionFailure }) else {
                throw MQTTError(.protocolViolation, "SUBACK has invalid return codes \(codes)")
            }
            packet = .suback(packetID: packetID, returnCodes: codes)
        case 10:
            try expectFlags(2, "UNSUBSCRIBE")
            let packetID = try reader.uint16()
            var filters: [String] = []
            repeat { filters.append(try reader.string()) } while !reader.isAtEnd
            packet = .unsubscribe(packetID: packetID, filters: filters)
        case 11:
            try expectFlags(0, "UNSUBACK")
            packet = .unsuback(packetID: try reader.uint16())
        case 12:
            try expectFlags(0, "PINGREQ")
            packet = .pingreq
        case 13:
            try expectFlags(0, "PINGRESP")
            packet = .pingresp
        case 14:
            try expectFlags(0, "DISCONNECT")
            packet = .disconnect
        default:
            throw MQTTError(.protocolViolation, "packet type \(type) is not one a client and broker exchange in MQTT 3.1.1")
        }
        guard reader.isAtEnd else { throw MQTTError(.protocolViolation, "packet type \(type) has \(body.count - reader.position) bytes too many") }
        return packet
    }

    /// Reads the body of one packet, checking every length against it.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        var isAtEnd: Bool { position >= bytes.count }

        mutating func byte() throws(MQTTError) -> UInt8 {
            guard position < bytes.count else { throw MQTTError(.protocolViolation, "the packet ends early") }
            position += 1
            return bytes[position - 1]
        }

        mutating func uint16() throws(MQTTError) -> UInt16 {
            UInt16(try byte()) << 8 | UInt16(try byte())
        }

        mutating func binary() throws(MQTTError) -> [UInt8] {
            let count = Int(try uint16())
            guard position + count <= bytes.count else { throw MQTTError(.protocolViolation, "a field of \(count) bytes runs past the end of the packet") }
            position += count
            return Array(bytes[(position - count)..<position])
        }

        mutating func string() throws(MQTTError) -> String {
            let raw = try binary()
            guard let text = String(validating: raw, as: UTF8.self), !text.unicodeScalars.contains("\u{0}") else {
                throw MQTTError(.protocolViolation, "a string is not valid UTF-8")
            }
            return text
        }

        mutating func rest() -> [UInt8] {
            defer { position = bytes.count }
            return Array(bytes[position...])
        }
    }
}
