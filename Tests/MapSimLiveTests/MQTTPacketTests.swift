import Testing
import MapSim
@testable import MapSimLive

/// The MQTT 3.1.1 codec: every packet round-trips, partial input waits, and malformed or oversized
/// input is a protocol error, never a crash.
@Suite("MQTT packets")
struct MQTTPacketTests {
    private let packets: [MQTTPacket] = [
        .connect(.init(clientID: "mapsim-1", keepAlive: 30, cleanSession: true, username: "reader", password: Array("s3cret".utf8))),
        .connect(.init(clientID: "", keepAlive: 0, cleanSession: false)),
        .connack(sessionPresent: false, returnCode: 0),
        .connack(sessionPresent: true, returnCode: 5),
        .publish(.init(topic: "ds/v/b/f/r/room-1/occupancy", payload: Array(#"{"id":"room-1"}"#.utf8))),
        .publish(.init(topic: "ds/v/b/f/r/room-1/position", payload: [], qos: 1, retain: true, duplicate: true, packetID: 7)),
        .puback(packetID: 7),
        .subscribe(packetID: 1, filters: [(filter: "ds/+/+/+/+/+/occupancy", qos: 1), (filter: "ds/#", qos: 0)]),
        .suback(packetID: 1, returnCodes: [1, MQTTPacket.subscriptionFailure]),
        .unsubscribe(packetID: 2, filters: ["ds/#"]),
        .unsuback(packetID: 2),
        .pingreq, .pingresp, .disconnect,
    ]

    @Test func everyPacketRoundTripsWholeAndByteByByte() throws {
        var decoder = MQTTPacketDecoder()
        for packet in packets {
            decoder.append(packet.encoded)
            #expect(try decoder.next() == packet)
            #expect(try decoder.next() == nil)
        }
        var slow = MQTTPacketDecoder()
        var decoded: [MQTTPacket] = []
        for byte in packets.flatMap(\.encoded) {
            slow.append([byte])
            while let packet = try slow.next() { decoded.append(packet) }
        }
        #expect(decoded == packets)
    }

    @Test func theWireFormatIsMQTT311() {
        #expect(MQTTPacket.pingreq.encoded == [0xC0, 0x00])
        #expect(MQTTPacket.suback(packetID: 0x0102, returnCodes: [0x80]).encoded == [0x90, 0x03, 0x01, 0x02, 0x80])
        let connect = MQTTPacket.connect(.init(clientID: "c", keepAlive: 60)).encoded
        #expect(connect == [0x10, 13, 0, 4, 0x4D, 0x51, 0x54, 0x54, 4, 0x02, 0, 60, 0, 1, 0x63])
        #expect(MQTTPacket.remainingLength(321) == [0xC1, 0x02])
        #expect(MQTTPacket.remainingLength(268_435_455) == [0xFF, 0xFF, 0xFF, 0x7F])
    }

    @Test func malformedPacketsAreProtocolErrors() {
        let cases: [([UInt8], String)] = [
            ([0x00, 0x00], "packet type 0"),
            ([0xF0, 0x00], "packet type 15"),
            ([0xC1, 0x00], "PINGREQ has flags 1"),
            ([0x80, 0x02, 0x00, 0x01], "SUBSCRIBE has flags 0"),
            ([0x36, 0x05, 0x00, 0x01, 0x61, 0x00, 0x01], "QoS 3"),
            ([0x30, 0x03, 0x00, 0x05, 0x61], "runs past the end"),
            ([0x30, 0x04, 0x00, 0x02, 0xC3, 0x28], "not valid UTF-8"),
            ([0x30, 0x03, 0x00, 0x01, 0x2B], "invalid topic"),
            ([0xD0, 0x01, 0x00], "1 bytes too many"),
            ([0x90, 0x03, 0x00, 0x01, 0x03], "invalid return codes"),
            ([0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], "more than 4 bytes"),
        ]
        for (bytes, message) in cases {
            var decoder = MQTTPacketDecoder()
            decoder.append(bytes)
            do {
                let packet = try decoder.next()
                Issue.record("\(bytes) decoded as \(String(describing: packet))")
            } catch {
                #expect(error.message.contains(message), "\(bytes): \(error.message)")
            }
        }
    }

    @Test func anOversizedPacketIsRefusedBeforeItArrives() {
        var decoder = MQTTPacketDecoder(maximumPacketSize: 1_024)
        decoder.append([0x30] + MQTTPacket.remainingLength(1_000_000))
        #expect(throws: MQTTError.self) { try decoder.next() }
    }

    @Test func randomBytesNeverCrashTheDecoder() {
        var random = SplitMix64(seed: 5)
        var errors = 0
        for _ in 0..<5_000 {
            var decoder = MQTTPacketDecoder(maximumPacketSize: 4_096)
            let count = Int(random.next() % 64)
            decoder.append((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            do {
                while try decoder.next() != nil {}
            } catch {
                errors += 1
            }
        }
        #expect(errors > 1_000)
    }
}
