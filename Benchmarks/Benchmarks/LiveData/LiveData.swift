import Benchmark
import MapSim
import MapSimJSON
import MapSimLive
import MapSimStyle
import MapSimTesting

/// Live updates applied to a map: a GeoJSON source of 10,000 rooms, restyled by their live state.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .peakMemoryResident, .mallocCountTotal],
                                           maxDuration: .seconds(20), maxIterations: 5)

    // The whole path: MQTT payloads from the simulated broker, the manager (newest wins), the
    // binding, and the map's GeoJSON worker, which merges what comes faster than it applies.
    Benchmark("Apply 100k live updates to a 10k-feature GeoJSON source (whole live path)") { benchmark in
        let map = await LiveBenchmark.loadedMap()
        let session = LiveSession(map: map, broker: .init(latency: .milliseconds(5)), binding: LiveBinding(sourceID: "rooms"), seed: 1)
        await session.subscribe(TopicCriteria(dataset: "acme"))
        await session.advance(by: .milliseconds(100))
        let updates = LiveBenchmark.updates(count: 100_000)
        benchmark.startMeasurement()
        // 100k updates a second of virtual time: 100 each millisecond.
        for batch in stride(from: 0, to: updates.count, by: 100) {
            await session.publish(Array(updates[batch..<batch + 100]))
            await session.advance(by: .milliseconds(1))
        }
        await session.advance(by: .milliseconds(100))
        _ = await session.run(until: .mapIdle, timeout: .seconds(60))
        benchmark.stopMeasurement()
        let held = await session.store.count
        precondition(held == 10_000, "every room has its newest state")
    }

    // A real Mosquitto on loopback: 100k QoS 1 messages wait for a persistent session (published
    // by 8 clients, 32 in flight each, before the measurement); the subscriber comes back and must
    // read and acknowledge every one — the broker sends 20 at a time and waits for their
    // acknowledgements — with none missed. 100k / the time is the messages a second the client
    // takes from a broker (the issue asks for at least 50,000).
    Benchmark("Receive 100k QoS 1 messages from Mosquitto (MQTTClient, loopback)", configuration: .init(maxIterations: 3)) { benchmark in
        let broker = try MosquittoBroker(settings: ["max_queued_messages 0"])
        defer { broker.stop() }
        let session = MQTTPacket.Connect(clientID: "bench-subscriber", cleanSession: false)
        let away = try await MQTTClient.connect(host: "127.0.0.1", port: broker.port, options: session)
        _ = try await away.subscribe(["bench/#"], qos: 1)
        await away.disconnect()
        let publishers = try await (0..<8).asyncMap { try await MQTTClient.connect(host: "127.0.0.1", port: broker.port, options: .init(clientID: "bench-\($0)")) }
        let payload = Array(#"{"id": "room-1", "timestamp": "2026-11-24T09:00:00Z", "properties": {"state": "busy"}}"#.utf8)
        let total = 100_000
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, publisher) in publishers.enumerated() {
                for lane in 0..<32 {
                    group.addTask {
                        for number in stride(from: index * 32 + lane, to: total, by: 256) {
                            try await publisher.publish("bench/\(number % 100)", payload: payload, qos: 1)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        for publisher in publishers { await publisher.disconnect() }
        benchmark.startMeasurement()
        let subscriber = try await MQTTClient.connect(host: "127.0.0.1", port: broker.port, options: session)
        var count = 0
        for await _ in subscriber.messages {
            count += 1
            if count == total { break }
        }
        benchmark.stopMeasurement()
        precondition(count == total && subscriber.missedMessages == 0, "every message received: \(count), missed \(subscriber.missedMessages)")
        await subscriber.disconnect()
    }

    // A real Mosquitto on loopback, through the live session: 100k QoS 1 updates published by 8
    // clients (32 in flight each) while the session listens, then a last one; the time until that
    // last update has come out of the session's manager as an event. The same client as above
    // underneath, plus the manager (newest wins) and the map's loop on the wall clock around it.
    Benchmark("Receive 100k QoS 1 live updates from Mosquitto through MQTTLiveSession (loopback)", configuration: .init(maxIterations: 3)) { benchmark in
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let (signals, signal) = AsyncStream<String>.makeStream()
        let session = MQTTLiveSession(endpoint: .init(host: "127.0.0.1", port: broker.port, clientID: "bench-session")) { _, event in
            switch event {
            case .subscribed: signal.yield("subscribed")
            case .update(let update) where update.id == "last": signal.yield("last")
            default: break
            }
        }
        var heard = signals.makeAsyncIterator()
        await session.subscribe(TopicCriteria(dataset: "acme"))
        _ = await heard.next()
        let publishers = try await (0..<8).asyncMap { try await MQTTClient.connect(host: "127.0.0.1", port: broker.port, options: .init(clientID: "bench-\($0)")) }
        let updates = LiveBenchmark.updates(count: 100_000)
        benchmark.startMeasurement()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, publisher) in publishers.enumerated() {
                for lane in 0..<32 {
                    group.addTask {
                        for number in stride(from: index * 32 + lane, to: updates.count, by: 256) {
                            try await publisher.publish(updates[number].topic.description, payload: updates[number].payload, qos: 1)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let last = LiveUpdate(topic: LiveTopic(dataset: "acme", venue: "hq", building: "main", floor: "1", room: "end", location: "last", domainType: "occupancy"),
                              id: "last", timestamp: 1_795_000_000_000_000, properties: ["state": "done"])
        try await publishers[0].publish(last.topic.description, payload: last.payload, qos: 1)
        _ = await heard.next()
        benchmark.stopMeasurement()
        for publisher in publishers { await publisher.disconnect() }
        await session.close()
    }

    // The map alone: feature changes straight into the source, 100 per millisecond of virtual time.
    Benchmark("Apply 100k feature changes to a 10k-feature GeoJSON source (map only, 100 a diff)") { benchmark in
        let map = await LiveBenchmark.loadedMap()
        let updates = LiveBenchmark.updates(count: 100_000)
        let binding = LiveBinding(sourceID: "rooms")
        benchmark.startMeasurement()
        // 100 changes each millisecond of virtual time, one diff each, as `updateData` takes them.
        for batch in stride(from: 0, to: updates.count, by: 100) {
            var diff = GeoJSONSourceDiff()
            for update in updates[batch..<batch + 100] {
                let (id, change) = binding.change(for: update.event)
                diff.change(id, change)
            }
            try await map.updateGeoJSONSource(id: "rooms", diff: diff, dataID: "d\(batch)")
            await map.advance(by: .milliseconds(1))
        }
        _ = await map.run(until: .mapIdle, timeout: .seconds(60))
        benchmark.stopMeasurement()
    }
}

enum LiveBenchmark {
    /// 10,000 rooms on a 100×100 grid in the view, each with a circle and an icon by its state.
    static func loadedMap() async -> Map {
        var features: [String] = []
        for index in 0..<10_000 {
            let longitude = 12.5600 + Double(index % 100) * 0.00015
            let latitude = 55.6700 + Double(index / 100) * 0.00008
            features.append(#"{"type": "Feature", "id": "room-\#(index)", "properties": {"name": "Room \#(index)"}, "geometry": {"type": "Point", "coordinates": [\#(longitude), \#(latitude)]}}"#)
        }
        let style = """
        {"version": 8, "sources": {"rooms": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features.joined(separator: ","))]}}},
         "layers": [
           {"id": "rooms", "type": "circle", "source": "rooms", "paint": {"circle-color": ["match", ["get", "live.occupancy.state"], "busy", "#c00", "#0a0"]}},
           {"id": "icons", "type": "symbol", "source": "rooms", "layout": {"icon-image": ["concat", "room-", ["coalesce", ["get", "live.occupancy.state"], "free"]]}}]}
        """
        let map = Map(backends: .only(StubLoader()), camera: Camera(center: LngLat(longitude: 12.5675, latitude: 55.674), zoom: 15))
        await map.setStyleJSON(style)
        _ = await map.run(until: .mapIdle, timeout: .seconds(60))
        return map
    }

    /// `count` occupancy updates spread over the 10,000 rooms, newer and newer.
    static func updates(count: Int) -> [LiveUpdate] {
        let start: Int64 = 1_795_000_000_000_000
        return (0..<count).map { index in
            let room = (index &* 7_919) % 10_000
            return LiveUpdate(topic: LiveTopic(dataset: "acme", venue: "hq", building: "main", floor: "1", room: "r\(room)", location: "room-\(room)", domainType: "occupancy"),
                              id: "room-\(room)", timestamp: start + Int64(index), properties: ["state": index % 3 == 0 ? "busy" : "free"])
        }
    }
}

extension Sequence {
    /// The results of `transform` on each element, in order, one after the other.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
