/// The packets of MQTT 3.1.1 that a subscribing client and a publisher exchange with a broker, and
/// their encoding on the wire.
public enum MQTTPacket: Sendable, Equatable {
    /// CONNECT: who the client is, how long it may stay silent, whether the broker forgets its
    /// session, and its credentials.
    case connect(Connect)
    /// CONNACK: whether the broker accepted the connection (return code 0) or why not.
    case connack(sessionPresent: Bool, returnCode: UInt8)
    case publish(Publish)
    case puback(packetID: UInt16)
    /// SUBSCRIBE: topic filters with the QoS asked for each.
    case subscribe(packetID: UInt16, filters: [(filter: String, qos: UInt8)])
    /// SUBACK: the QoS granted to each filter, or `0x80` for a refused one.
    case suback(packetID: UInt16, returnCodes: [UInt8])
    case unsubscribe(packetID: UInt16, filters: [String])
    case unsuback(packetID: UInt16)
    case pingreq
    case pingresp
    case disconnect

    /// What a CONNECT carries.
    public struct Connect: Sendable, Equatable {
        public var clientID: String
        public var keepAlive: UInt16
        public var cleanSession: Bool
        public var username: String?
        public var password: [UInt8]?

        public init(clientID: String, keepAlive: UInt16 = 60, cleanSession: Bool = true, username: String? = nil, password: [UInt8]? = nil) {
            self.clientID = clientID
            self.keepAlive = keepAlive
            self.cleanSession = cleanSession
            self.username = username
            self.password = password
        }
    }

    /// What a PUBLISH carries; `packetID` is there for QoS 1 and 2.
    public struct Publish: Sendable, Equatable {
        public var topic: String
        public var payload: [UInt8]
        public var qos: UInt8
        public var retain: Bool
        public var duplicate: Bool
        public var packetID: UInt16?

        public init(topic: String, payload: [UInt8], qos: UInt8 = 0, retain: Bool = false, duplicate: Bool = false, packetID: UInt16? = nil) {
            self.topic = topic
            self.payload = payload
            self.qos = qos
            self.retain = retain
            self.duplicate = duplicate
            self.packetID = packetID
        }
    }

    /// The SUBACK return code of a refused subscription.
    public static let subscriptionFailure: UInt8 = 0x80

    public static func == (lhs: MQTTPacket, rhs: MQTTPacket) -> Bool {
        lhs.encoded == rhs.encoded
    }

    /// The packet on the wire: fixed header (type, flags, remaining length) and the rest.
    public var encoded: [UInt8] {
        var body: [UInt8] = []
        let header: UInt8
        switch self {
        case .connect(let connect):
            header = 0x10
            body += Self.string("MQTT") + [4]
            var flags: UInt8 = connect.cleanSession ? 0x02 : 0
            if connect.username != nil { flags |= 0x80 }
            if connect.password != nil { flags |= 0x40 }
            body += [flags] + Self.uint16(connect.keepAlive) + Self.string(connect.clientID)
            if let username = connect.username { body += Self.string(username) }
            if let password = connect.password { body += Self.uint16(UInt16(min(password.count, 65_535))) + password.prefix(65_535) }
        case .connack(let sessionPresent, let returnCode):
            header = 0x20
            body = [sessionPresent ? 1 : 0, returnCode]
        case .publish(let publish):
            header = 0x30 | (publish.duplicate ? 0x08 : 0) | (publish.qos & 3) << 1 | (publish.retain ? 1 : 0)
            body = Self.string(publish.topic)
            if publish.qos > 0 { body += Self.uint16(publish.packetID ?? 0) }
            body += publish.payload
        case .puback(let packetID):
            header = 0x40
            body = Self.uint16(packetID)
        case .subscribe(let packetID, let filters):
            header = 0x82
            body = Self.uint16(packetID)
            for (filter, qos) in filters { body += Self.string(filter) + [qos] }
        case .suback(let packetID, let returnCodes):
            header = 0x90
            body = Self.uint16(packetID) + returnCodes
        case .unsubscribe(let packetID, let filters):
            header = 0xA2
            body = Self.uint16(packetID) + filters.flatMap(Self.string)
        case .unsuback(let packetID):
            header = 0xB0
            body = Self.uint16(packetID)
        case .pingreq: header = 0xC0
        case .pingresp: header = 0xD0
        case .disconnect: header = 0xE0
        }
        return [header] + Self.remainingLength(body.count) + body
    }

    static func uint16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    static func string(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8.prefix(65_535))
        return uint16(UInt16(bytes.count)) + bytes
    }

    /// The remaining length: 7 bits a byte, least significant first, the high bit saying more follow.
    static func remainingLength(_ length: Int) -> [UInt8] {
        var value = length
        var bytes: [UInt8] = []
        repeat {
            var byte = UInt8(value & 0x7F)
            value >>= 7
            if value > 0 { byte |= 0x80 }
            bytes.append(byte)
        } while value > 0
        return bytes
    }
}
