import Testing
import MapSim
import MapSimTesting
@testable import MapSimLive

/// The dynamic-entity source on real transports: a WebSocket server and a Mosquitto broker on loopback.
@Suite("DynamicEntityStream", .serialized)
struct DynamicEntityStreamTests {
    private static func lines(_ range: Range<Int>) -> [String] {
        range.map { #"{"geometry": {"x": 12.\#($0)}, "attributes": {"MMSI": \#($0 % 3)}}"#.replacingOccurrences(of: "}, \"attributes", with: ", \"y\": 55.5}, \"attributes") }
    }

    private static func received(_ events: [DynamicEntityEvent]) -> Int {
        events.count { if case .observationReceived = $0 { true } else { false } }
    }

    private static func statuses(_ events: [DynamicEntityEvent]) -> [String] {
        events.compactMap { event in
            guard case .connectionStatusChanged(let status, _, let attempt, _) = event else { return nil }
            return status.rawValue + (attempt.map { " \($0)" } ?? "")
        }
    }

    private let fast = DynamicEntityConnection.Schedule(attempts: 3, immediateAttempts: 2, interval: .milliseconds(50))

    @Test func aWebSocketFeedThatDropsIsReconnectedAndNothingAfterIsLost() async throws {
        let server = try await WebSocketFeedServer.start(batches: [Self.lines(0..<5), Self.lines(5..<12)])
        let feed = EventFeed<DynamicEntityEvent>()
        let stream = DynamicEntityStream(transport: .webSocket(server.url), format: .init(trackIDField: "MMSI"), schedule: fast, handler: feed.handler())
        await stream.connect()
        let events = try await feed.events { Self.received($0) == 12 }
        #expect(Self.statuses(events) == ["connecting", "connected", "connecting 1", "connected"])
        let summary = await stream.summary
        #expect(summary.counts.entitiesReceived == 3 && summary.observationsKept == 12)
        await stream.disconnect()
        await server.stop()
    }

    @Test func aWebSocketFeedThatStaysDownFailsAfterTheSchedule() async throws {
        let server = try await WebSocketFeedServer.start(batches: [Self.lines(0..<2)], keepsLastOpen: false)
        let feed = EventFeed<DynamicEntityEvent>()
        let stream = DynamicEntityStream(transport: .webSocket(server.url), format: .init(trackIDField: "MMSI"), schedule: fast, handler: feed.handler())
        await stream.connect()
        let events = try await feed.events { Self.statuses($0).last == "failed" }
        #expect(Self.statuses(events) == ["connecting", "connected", "connecting 1", "connecting 2", "connecting 3", "failed"])
        #expect(await stream.status == .failed)
        await server.stop()
    }

    @Test func aServerThatDropsEveryConnectionSoonIsNotStormedAndEachConnectionsMessagesAreDelivered() async throws {
        let batches = (0..<30).map { Self.lines($0 * 10..<$0 * 10 + 10) }
        let server = try await WebSocketFeedServer.start(batches: batches, keepsLastOpen: false)
        let feed = EventFeed<DynamicEntityEvent>()
        let stream = DynamicEntityStream(transport: .webSocket(server.url), format: .init(trackIDField: "MMSI"), handler: feed.handler())
        await stream.connect()
        let events = try await feed.events { Self.statuses($0).count == 7 }
        #expect(Self.statuses(events) == ["connecting", "connected", "connecting 1", "connected", "connecting 2", "connected", "connecting"],
                "the third drop waits 10 s")
        #expect(server.connectionCount == 3)
        #expect(Self.received(events) == 30, "every message sent before each close")
        await stream.disconnect()
        await server.stop()
    }

    @Test func anMQTTTopicCarriesObservations() async throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let feed = EventFeed<DynamicEntityEvent>()
        let stream = DynamicEntityStream(transport: .mqtt(.init(host: "127.0.0.1", port: broker.port, clientID: "entities"), topic: "ais/#"),
                                         format: .init(trackIDField: "MMSI"), options: .init(maximumObservationsPerTrack: 1), handler: feed.handler())
        await stream.connect()
        _ = try await feed.events { Self.statuses($0).last == "connected" }
        let publisher = try await MQTTClient.connect(host: "127.0.0.1", port: broker.port, options: .init(clientID: "publisher"))
        try await publisher.publish("ais/north", payload: Array((Self.lines(0..<2).joined(separator: "\n")).utf8), qos: 1)
        try await publisher.publish("ais/south", payload: Array((Self.lines(3..<4)[0]).utf8), qos: 1)
        try await publisher.publish("ais/south", payload: Array("not json".utf8), qos: 1)
        await publisher.disconnect()
        let events = try await feed.events { Self.received($0) == 3 }
        #expect(events.count { if case .observationPurged(_, _, _, .track) = $0 { true } else { false } } == 1, "MMSI 0 twice, one kept")
        let summary = await stream.summary
        #expect(summary.observationsKept == 2)
        await stream.disconnect()
    }
}
