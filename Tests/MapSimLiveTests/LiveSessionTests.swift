import Synchronization
import Testing
import MapSim
import MapSimJSON
import MapSimStyle
import MapSimTesting
@testable import MapSimLive

/// The manager, the simulated broker and the map together, on the virtual clock.
@Suite("LiveSession")
struct LiveSessionTests {
    private static let start: Int64 = 1_795_000_000_000_000

    private func update(_ item: Int, _ domain: String = "occupancy", at offset: Int64, _ properties: [String: String]) -> LiveUpdate {
        LiveUpdate(topic: LiveTopic(dataset: "ds", venue: "v", building: "b", floor: "1", room: "r\(item)", location: "room-\(item)", domainType: domain),
                   id: "room-\(item)", timestamp: Self.start + offset, properties: properties)
    }

    private final class Log: Sendable {
        private let recorded = Mutex<[MapEvent]>([])
        var observer: @Sendable (MapEvent) -> Void { { event in self.recorded.withLock { $0.append(event) } } }
        var events: [MapEvent] { recorded.withLock { $0 } }
        func types() -> [String] { events.map(\.type.rawValue) }
    }

    @Test func chaosNeverLetsAnOlderUpdateWin() async throws {
        let chaos = SimulatedBroker.Chaos(dropRate: 0.2, duplicateRate: 0.2, maximumExtraDelay: .milliseconds(500))
        let log = Log()
        let session = LiveSession(map: nil, broker: .init(chaos: chaos), seed: 42, observer: log.observer)
        await session.subscribe(TopicCriteria(dataset: "ds"))
        await session.advance(by: .seconds(1))
        var generator = SplitMix64(seed: 7)
        var newest: [String: Int64] = [:]
        for index in 0..<10_000 {
            let item = Int(generator.next() % 1_000)
            // Timestamps jump around: what is published later is not always newer.
            let offset = Int64(index) * 1_000 - Int64(generator.next() % 50_000)
            let sent = update(item, at: offset, ["count": String(index)])
            newest[sent.id] = max(newest[sent.id] ?? .min, sent.timestamp)
            await session.publish(sent)
            if index % 10 == 0 { await session.advance(by: .milliseconds(10)) }
        }
        await session.advance(by: .seconds(60))
        let store = await session.store
        #expect(store.count == newest.count, "one entry per item and domain: memory does not grow with the updates")
        for (id, timestamp) in newest {
            #expect(store.update(id: id, domainType: "occupancy")?.timestamp == timestamp, "\(id)")
        }
        // As they were applied, each item's timestamps only went forward.
        var applied: [String: Int64] = [:]
        var backwards = 0
        var count = 0
        for event in log.events {
            guard case .live(.update(let update)) = event.payload else { continue }
            count += 1
            let timestamp = try #require(ISO8601Timestamp.microseconds(update.timestamp))
            if let previous = applied[update.id], previous > timestamp { backwards += 1 }
            applied[update.id] = timestamp
        }
        #expect(backwards == 0 && count >= newest.count)
    }

    @Test func aReconnectSubscribesAgainAndLosesNothingAfterIt() async throws {
        let log = Log()
        let session = LiveSession(map: nil, seed: 1, observer: log.observer)
        let criteria = TopicCriteria(dataset: "ds", domainType: "occupancy")
        await session.subscribe(criteria)
        await session.advance(by: .seconds(1))
        await session.stopBroker()
        await session.advance(by: .seconds(5))
        await session.publish(update(1, at: 1, ["occupied": "true"]))
        await session.startBroker()
        await session.advance(by: .seconds(30))
        #expect(await session.state == .connected)
        await session.publish(update(2, at: 2, ["occupied": "false"]))
        await session.advance(by: .seconds(1))
        let states = log.events.compactMap { if case .live(.stateChanged(let state, _)) = $0.payload { state } else { nil } }
        #expect(Array(states.prefix(2)) == [.connecting, .connected])
        #expect(Array(states.suffix(3)) == [.closed, .connecting, .connected])
        #expect(log.types().filter { $0 == "live-subscribed" }.count == 2, "subscribed again after the reconnect")
        let updates = log.events.compactMap { if case .live(.update(let update)) = $0.payload { update.id } else { nil } }
        #expect(updates == ["room-2"], "published while the broker was down: gone; after: delivered")
    }

    @Test func aRefusedSubscriptionIsOneErrorAndNeverRetried() async throws {
        let log = Log()
        let denied = TopicCriteria(dataset: "ds", domainType: "secret")
        let session = LiveSession(map: nil, broker: .init(refused: [denied]), seed: 1, observer: log.observer)
        await session.subscribe(TopicCriteria(dataset: "ds", domainType: "occupancy"))
        await session.subscribe(denied)
        await session.advance(by: .seconds(1))
        await session.dropConnection()
        await session.advance(by: .seconds(30))
        #expect(log.types().filter { $0 == "live-subscription-error" }.count == 1)
        #expect(log.types().filter { $0 == "live-subscribed" }.count == 2, "the granted one, twice")
    }

    @Test func theSameScriptGivesTheSameEvents() async throws {
        func run() async -> [String] {
            let log = Log()
            let session = LiveSession(map: nil, broker: .init(chaos: .init(dropRate: 0.3, duplicateRate: 0.3, maximumExtraDelay: .milliseconds(200))),
                                      seed: 9, observer: log.observer)
            await session.subscribe(TopicCriteria(dataset: "ds"))
            for index in 0..<200 {
                await session.publish(update(index % 20, at: Int64(index), ["n": String(index)]))
                if index == 100 { await session.dropConnection() }
                await session.advance(by: .milliseconds(7))
            }
            await session.advance(by: .seconds(20))
            return log.events.map(\.jsonLine)
        }
        let first = await run()
        #expect(first.count > 50)
        #expect(await run() == first)
    }

    @Test func updatesChangeTheBoundSource() async throws {
        let map = Map(backends: .only(StubLoader()), camera: Camera(center: LngLat(longitude: 0, latitude: 0), zoom: 14))
        let recorder = EventRecorder(map)
        await map.setStyleJSON("""
        {"version": 8, "sources": {"rooms": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
            {"type": "Feature", "id": "room-1", "properties": {}, "geometry": {"type": "Point", "coordinates": [0.001, 0.001]}}]}}},
         "layers": [{"id": "c", "type": "circle", "source": "rooms"}]}
        """)
        _ = await map.run(until: .mapIdle, timeout: .seconds(5))
        let session = LiveSession(map: map, binding: LiveBinding(sourceID: "rooms"), seed: 1)
        await session.subscribe(TopicCriteria(dataset: "ds"))
        await session.advance(by: .seconds(1))
        await session.publish(update(1, at: 1, ["occupied": "true"]))
        await session.publish(update(1, "position", at: 1, ["longitude": "0.004", "latitude": "0.003"]))
        await session.advance(by: .seconds(1))
        #expect(await map.isInState(.mapIdle))
        let room = try #require(await map.geoJSONFeature(source: "rooms", id: .string("room-1")))
        #expect(room["properties"]?["live.occupancy.occupied"] == .string("true"))
        #expect(room["geometry"]?["coordinates"] == .array([.number(0.004), .number(0.003)]))
        let types = recorder.events.map(\.type.rawValue)
        #expect(types.contains("live-update") && types.contains("live-subscribed"), "live events are in the map's stream")
        #expect(recorder.payloads(of: MapEvents.sourceDataLoaded).contains { $0.dataID == "live-2" })
    }
}
