import Testing
import MapSim
import MapSimJSON
import MapSimStyle
import MapSimTesting
@testable import MapSimLive

/// `enableLiveData` on a map: subscriptions after the map settles, the default display rule, the
/// floor shown, `live-locations-updated`.
@Suite("LiveData.followsTheView")
struct LiveDataFollowsTheViewTests {
    private static let rooms = (1...2).flatMap { floor in
        (1...3).map { number in
            #"{"type": "Feature", "id": "room-\#(floor)0\#(number)", "properties": {"dataset": "ds", "venue": "v", "building": "b", "floor": \#(floor), "room": "r\#(number)"}, "geometry": {"type": "Point", "coordinates": [0.000\#(number), 0.0001]}}"#
        }
    }

    private func loadedMap() async -> (Map, EventRecorder) {
        let map = Map(backends: .only(StubLoader()), camera: Camera(center: LngLat(longitude: 0.0002, latitude: 0.0001), zoom: 17))
        let recorder = EventRecorder(map)
        await map.setStyleJSON("""
        {"version": 8, "sources": {"rooms": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(Self.rooms.joined(separator: ","))]}}},
         "layers": [{"id": "c", "type": "circle", "source": "rooms"}]}
        """)
        _ = await map.run(until: .mapIdle, timeout: .seconds(5))
        return (map, recorder)
    }

    private func update(floor: Int, room: Int, at second: Int, _ properties: [String: String]) -> LiveUpdate {
        LiveUpdate(topic: LiveTopic(dataset: "ds", venue: "v", building: "b", floor: "\(floor)", room: "r\(room)", location: "room-\(floor)0\(room)", domainType: "occupancy"),
                   id: "room-\(floor)0\(room)", timestamp: 1_795_000_000_000_000 + Int64(second) * 1_000_000, properties: properties)
    }

    private func criteria(_ recorder: EventRecorder, _ kind: (LiveEvent) -> String?) -> [String] {
        recorder.payloads(of: MapEvents.live).compactMap(kind)
    }

    @Test func theLowestFloorIsFollowedAndItsLiveStateDrawnWithTheStatesIcon() async throws {
        let (map, recorder) = await loadedMap()
        let session = LiveSession(map: map, binding: LiveBinding(sourceID: "rooms"), seed: 1)
        try await session.enableLiveData(domain: "occupancy")
        await session.advance(by: .seconds(1))
        #expect(criteria(recorder) { if case .subscribed(let c) = $0 { c } else { nil } } == ["ds/v/b/1/+/+/occupancy"])
        await session.publish(update(floor: 1, room: 1, at: 1, ["state": "busy"]))
        await session.publish(update(floor: 2, room: 2, at: 1, ["state": "busy"]))
        await session.advance(by: .seconds(1))
        #expect(await map.tileData.imagesByLayer["mapsim-live-occupancy"] == ["live-occupancy-busy"])
        #expect(criteria(recorder) { if case .locationsUpdated(let domain, let ids) = $0 { "\(domain) \(ids)" } else { nil } } == [#"occupancy ["room-101"]"#],
                "floor 2 is not subscribed")
        #expect(recorder.payloads(of: MapEvents.styleImageMissing).contains("live-occupancy-busy"), "the style has no sprite: the icon is missing")
    }

    @Test func switchingFloorsRedrawsAtOnceAndMovesTheSubscriptionOnceSettled() async throws {
        let (map, recorder) = await loadedMap()
        let session = LiveSession(map: map, binding: LiveBinding(sourceID: "rooms"), seed: 1)
        await session.subscribe(TopicCriteria(dataset: "ds"))
        try await session.enableLiveData(domain: "occupancy")
        await session.advance(by: .seconds(1))
        await session.publish([update(floor: 1, room: 1, at: 1, ["state": "busy"]), update(floor: 2, room: 3, at: 1, ["count": "3"])])
        await session.advance(by: .seconds(1))
        #expect(await map.tileData.imagesByLayer["mapsim-live-occupancy"] == ["live-occupancy-busy"], "floor 1 only")
        await session.setFloor("2")
        #expect(await !map.isInState(.mapIdle), "the display layer changed at once")
        _ = await session.run(until: .mapIdle, timeout: .seconds(5))
        #expect(await map.tileData.imagesByLayer["mapsim-live-occupancy"] == ["live-occupancy"], "a state without a state property has the domain's icon")
        #expect(await session.viewCriteria["occupancy"]?.map(\.mqttFilter) == ["ds/v/b/2/+/+/occupancy"])
        await session.disableLiveData(domain: "occupancy")
        await session.advance(by: .seconds(1))
        #expect(await map.tileData.imagesByLayer["mapsim-live-occupancy"] == nil)
        #expect(await map.style?.layers.map(\.id) == ["c"])
        let unsubscribed = criteria(recorder) { if case .unsubscribed(let c) = $0 { c } else { nil } }
        #expect(unsubscribed == ["ds/v/b/1/+/+/occupancy", "ds/v/b/2/+/+/occupancy"])
        #expect(await session.state == .connected, "the application's own subscription keeps the connection")
    }

    @Test func aDomainThatIsNotOneTopicLevelIsRefused() async throws {
        let (map, _) = await loadedMap()
        let session = LiveSession(map: map, binding: LiveBinding(sourceID: "rooms"))
        for domain in ["", "a/b", "+", "occ#"] {
            await #expect(throws: LiveTopicError.self, "\(domain)") { try await session.enableLiveData(domain: domain) }
        }
        #expect(await session.liveDataDomains.isEmpty)
    }

    @Test func theSameScriptGivesTheSameEventsEveryRun() async throws {
        func run() async throws -> [String] {
            let (map, recorder) = await loadedMap()
            let session = LiveSession(map: map, binding: LiveBinding(sourceID: "rooms"), seed: 3)
            try await session.enableLiveData(domain: "occupancy")
            await session.advance(by: .milliseconds(500))
            for second in 0..<20 {
                await map.setCamera(CameraOptions(center: LngLat(longitude: 0.0002 + Double(second % 3) * 0.01, latitude: 0.0001)))
                await session.publish(update(floor: 1, room: second % 3 + 1, at: second, ["state": second % 2 == 0 ? "busy" : "free"]))
                await session.advance(by: .milliseconds(700))
            }
            return recorder.events.map(\.jsonLine)
        }
        let first = try await run()
        #expect(first.filter { $0.contains("live-subscribed") }.count > 3)
        #expect(try await run() == first)
    }
}
