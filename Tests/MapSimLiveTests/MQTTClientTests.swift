import Foundation
import Testing
import MapSimTesting
@testable import MapSimLive

/// The MQTT client against a real Mosquitto on loopback.
@Suite("MQTTClient", .serialized)
struct MQTTClientTests {
    @Test func subscribesReceivesWhatMatchesOnceAndUnsubscribes() async throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let reader = try await MQTTClient.connect(host: "127.0.0.1", port: broker.port, options: .init(clientID: "reader", keepAlive: 30))
        let publisher = try await MQTTClient.connect(host: "127.0.0.1", port: broker.port, options: .init(clientID: "publisher"))
        #expect(try await reader.subscribe(["ds/+/+/+/+/+/occupancy"], qos: 1) == [1])
        for index in 1...3 {
            try await publisher.publish("ds/v/b/f/r/room-\(index)/occupancy", payload: Array("\(index)".utf8), qos: 1)
        }
        try await publisher.publish("ds/v/b/f/r/room-9/position", payload: Array("no".utf8), qos: 1)
        try await publisher.publish("ds/v/b/f/r/room-4/occupancy", payload: Array("4".utf8), qos: 0)
        var received: [String] = []
        for await message in reader.messages {
            received.append(message.topic + "=" + String(decoding: message.payload, as: UTF8.self))
            if received.count == 4 { break }
        }
        #expect(received == ["ds/v/b/f/r/room-1/occupancy=1", "ds/v/b/f/r/room-2/occupancy=2", "ds/v/b/f/r/room-3/occupancy=3", "ds/v/b/f/r/room-4/occupancy=4"])
        try await reader.unsubscribe(["ds/+/+/+/+/+/occupancy"])
        await reader.disconnect()
        await publisher.disconnect()
    }

    @Test func aDeniedSubscriptionIsRefusedWithTheFailureCode() async throws {
        let broker = try MosquittoBroker(deniedSubscriptions: ["ds/secret/#"])
        defer { broker.stop() }
        let reader = try await MQTTClient.connect(host: "127.0.0.1", port: broker.port, options: .init(clientID: "reader"))
        #expect(try await reader.subscribe(["ds/secret/#", "ds/open/#"], qos: 1) == [MQTTPacket.subscriptionFailure, 1])
        await reader.disconnect()
    }

    @Test func aBrokerThatIsNotThereIsAClearError() async throws {
        let broker = try MosquittoBroker()
        let port = broker.port
        broker.stop()
        await #expect(throws: MQTTError.self) {
            try await MQTTClient.connect(host: "127.0.0.1", port: port, options: .init(clientID: "nobody"), timeout: .seconds(2))
        }
    }

    @Test func theKeepAliveRunsFromConnectSoABusyProcessStillPingsInTime() async throws {
        // MQTT lets a client send packets before CONNACK; a broker that answers only once it has been
        // pinged connects a client whose pings run from CONNECT, on the connection's event loop. (Run
        // from CONNACK, by a task, they waited for a free thread of the pool: in a busy test run,
        // Mosquitto closed a connected client that had been silent for one and a half periods.)
        let pingreq = MQTTPacket.pingreq.encoded
        let broker = try DroppingServer(.answerAfter(pingreq, answer: [0x20, 0x02, 0x00, 0x00]))
        defer { broker.stop() }
        let client = try await MQTTClient.connect(host: "127.0.0.1", port: broker.port, options: .init(clientID: "early", keepAlive: 1),
                                                  timeout: .seconds(30))
        await client.disconnect()
    }

    @Test func theClientSeesTheConnectionEnd() async throws {
        let broker = try MosquittoBroker()
        let reader = try await MQTTClient.connect(host: "127.0.0.1", port: broker.port, options: .init(clientID: "reader"))
        _ = try await reader.subscribe(["ds/#"])
        broker.stop()
        for await _ in reader.messages {}
        await #expect(throws: MQTTError.self) { try await reader.subscribe(["ds/#"]) }
    }

    @Test func aBurstOfQoS1MessagesIsReceivedWholeAndAcknowledged() async throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let reader = try await MQTTClient.connect(host: "127.0.0.1", port: broker.port, options: .init(clientID: "reader"))
        #expect(try await reader.subscribe(["burst/#"], qos: 1) == [1])
        let publisher = try await MQTTClient.connect(host: "127.0.0.1", port: broker.port, options: .init(clientID: "publisher"))
        let total = 5_000
        // Far more than Mosquitto's 1,000 queued messages for a client that does not acknowledge.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<16 {
                group.addTask {
                    for number in stride(from: lane, to: total, by: 16) { try await publisher.publish("burst/\(number)", payload: [1], qos: 1) }
                }
            }
            try await group.waitForAll()
        }
        var received = 0
        for await message in reader.messages {
            #expect(message.qos == 1)
            received += 1
            if received == total { break }
        }
        #expect(received == total && reader.missedMessages == 0)
        await publisher.disconnect()
        await reader.disconnect()
    }
}
