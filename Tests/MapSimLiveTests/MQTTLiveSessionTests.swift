import Testing
import MapSim
import MapSimTesting
@testable import MapSimLive

/// The manager on a real Mosquitto: subscriptions, refusals, a broker killed and restarted.
@Suite("MQTTLiveSession", .serialized)
struct MQTTLiveSessionTests {
    private let fast = LiveDataManager.Backoff(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(200))

    private func publish(_ port: Int, _ topics: [String], timestamp: String = "2026-11-24T09:00:00Z") async throws {
        let publisher = try await MQTTClient.connect(host: "127.0.0.1", port: port, options: .init(clientID: "publisher"))
        for topic in topics {
            try await publisher.publish(topic, payload: Array(#"{"timestamp": "\#(timestamp)", "properties": {"state": "busy"}}"#.utf8), qos: 1)
        }
        await publisher.disconnect()
    }

    private static func count(_ events: [LiveEvent], _ type: MapEventType) -> Int {
        events.count { $0.type == type }
    }

    @Test func matchingUpdatesArriveOnceAndADeniedTopicIsOneErrorNeverRetried() async throws {
        let broker = try MosquittoBroker(deniedSubscriptions: ["acme/+/+/+/+/+/co2"])
        defer { broker.stop() }
        let feed = EventFeed<LiveEvent>()
        let session = MQTTLiveSession(endpoint: .init(host: "127.0.0.1", port: broker.port), backoff: fast, handler: feed.handler())
        await session.subscribe(try TopicCriteria(parsing: "acme/hq/+/+/+/+/occupancy"))
        await session.subscribe(try TopicCriteria(parsing: "acme/+/+/+/+/+/co2"))
        let subscribed = try await feed.events { Self.count($0, .liveSubscribed) + Self.count($0, .liveSubscriptionError) == 2 }
        #expect(Self.count(subscribed, .liveSubscriptionError) == 1)
        try await publish(broker.port, ["acme/hq/b/1/r/room-1/occupancy", "acme/hq/b/1/r/room-1/co2", "acme/other/b/1/r/room-9/occupancy",
                                        "acme/hq/b/1/r/room-2/occupancy", "acme/hq/b/1/r/room-3/occupancy"])
        let updates = try await feed.events { Self.count($0, .liveUpdate) == 3 }
        let ids = updates.compactMap { if case .update(let update) = $0 { update.id } else { nil } }
        #expect(ids == ["room-1", "room-2", "room-3"], "each matching update once, in order; nothing else")
        await session.close()
        // Nothing more came: no retry of the refused subscription, no stray update.
        let rest = await feed.finish()
        #expect(Self.count(rest, .liveSubscriptionError) == 0 && Self.count(rest, .liveUpdate) == 0, "\(rest)")
    }

    @Test func aRestartedBrokerIsReconnectedAndEverythingSubscribedAgain() async throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let feed = EventFeed<LiveEvent>()
        let session = MQTTLiveSession(endpoint: .init(host: "127.0.0.1", port: broker.port), backoff: fast, handler: feed.handler())
        await session.subscribe(try TopicCriteria(parsing: "acme/hq/+/+/+/+/occupancy"))
        await session.subscribe(try TopicCriteria(parsing: "acme/hq/+/+/+/+/position"))
        _ = try await feed.events { Self.count($0, .liveSubscribed) == 2 }
        try await publish(broker.port, ["acme/hq/b/1/r/room-1/occupancy"])
        _ = try await feed.events { Self.count($0, .liveUpdate) == 1 }

        broker.stop()
        let lost = try await feed.events { $0.contains { if case .stateChanged(.closed, _) = $0 { true } else { false } } }
        #expect(Self.count(lost, .liveError) >= 1)
        try broker.start()
        let back = try await feed.events { Self.count($0, .liveSubscribed) == 2 }
        let states = back.compactMap { if case .stateChanged(let state, _) = $0 { state } else { nil } }
        #expect(Array(states.suffix(2)) == [.connecting, .connected], "\(states)")
        #expect(await session.state == .connected)

        try await publish(broker.port, (1...20).map { "acme/hq/b/1/r/room-\($0)/occupancy" } + ["acme/hq/b/1/r/van-1/position"], timestamp: "2026-11-24T10:00:00Z")
        let after = try await feed.events { Self.count($0, .liveUpdate) == 21 }
        #expect(Self.count(after, .liveUpdate) == 21, "every update published after the restart arrives")
        await session.close()
    }

    @Test func aBrokerThatCannotBeReachedIsRetried() async throws {
        let broker = try MosquittoBroker()
        let port = broker.port
        broker.stop()
        let feed = EventFeed<LiveEvent>()
        let session = MQTTLiveSession(endpoint: .init(host: "127.0.0.1", port: port), backoff: fast, handler: feed.handler())
        await session.subscribe(try TopicCriteria(parsing: "acme/#"))
        let failures = try await feed.events { Self.count($0, .liveError) == 3 }
        #expect(Self.count(failures, .liveStateChanged) >= 5, "closed → connecting → closed, again and again")
        let failed = await session.failedConnects
        let connected = await session.hasConnected
        #expect(failed >= 3 && !connected)
        await session.close()
    }
}
