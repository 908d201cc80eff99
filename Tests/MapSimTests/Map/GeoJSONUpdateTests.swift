import Testing
import MapSimJSON
import MapSimStyle
import MapSimTesting
@testable import MapSim

@Suite("Map.GeoJSONUpdates")
struct GeoJSONUpdateTests {
    /// Two rooms whose icon names come from their live state; the style has no sprite, so every icon
    /// a room shows is reported missing, once per name.
    private static let style = """
    {"version": 8, "transition": {"duration": 0},
     "sources": {"rooms": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
        {"type": "Feature", "id": "room-1", "properties": {"name": "A"}, "geometry": {"type": "Point", "coordinates": [0.001, 0.001]}},
        {"type": "Feature", "id": "room-2", "properties": {"name": "B"}, "geometry": {"type": "Point", "coordinates": [0.002, 0.001]}}]}}},
     "layers": [{"id": "icons", "type": "symbol", "source": "rooms",
                 "layout": {"icon-image": ["concat", "room-", ["coalesce", ["get", "live.occupancy.state"], "free"]]}}]}
    """

    private func loadedMap() async -> (Map, EventRecorder) {
        let map = Map(backends: .only(StubLoader()), camera: Camera(center: LngLat(longitude: 0, latitude: 0), zoom: 14))
        let recorder = EventRecorder(map)
        await map.setStyleJSON(Self.style)
        _ = await map.run(until: .mapIdle, timeout: .seconds(5))
        return (map, recorder)
    }

    private func occupancy(_ id: String, _ state: String) -> GeoJSONSourceDiff {
        var diff = GeoJSONSourceDiff()
        diff.change(.string(id), .init(properties: JSONObject([("live.occupancy.state", .string(state))])))
        return diff
    }

    @Test func anUpdateIsAppliedAfterTheWorkerAndLayersReEvaluate() async throws {
        let (map, recorder) = await loadedMap()
        #expect(recorder.payloads(of: MapEvents.styleImageMissing) == ["room-free"])
        let start = await map.now
        try await map.updateGeoJSONSource(id: "rooms", diff: occupancy("room-1", "busy"), dataID: "d1")
        #expect(await map.geoJSONFeature(source: "rooms", id: .string("room-1"))?["properties"]?["live.occupancy.state"] == nil, "not before the worker is done")
        let outcome = await map.run(until: .mapIdle, timeout: .seconds(5))
        let metadata = recorder.events.filter { $0.payload.sourceData?.dataID != nil }
        #expect(metadata.map { $0.payload.sourceData?.dataID } == ["d1"])
        // 1 ms plus 1 µs for each of the two features and the one change.
        #expect(metadata.first?.end == start + .milliseconds(1) + SimTime(microseconds: 3))
        #expect(recorder.payloads(of: MapEvents.styleImageMissing) == ["room-free", "room-busy"])
        #expect(await map.geoJSONFeature(source: "rooms", id: .string("room-1"))?["properties"]?["live.occupancy.state"] == .string("busy"))
        guard case .reached = outcome else { Issue.record("not idle again: \(outcome)"); return }
    }

    @Test func updatesArrivingFasterThanTheWorkerAreMerged() async throws {
        let (map, recorder) = await loadedMap()
        for (index, state) in ["busy", "free", "away", "busy", "gone"].enumerated() {
            try await map.updateGeoJSONSource(id: "rooms", diff: occupancy("room-2", state), dataID: "d\(index)")
        }
        var move = GeoJSONSourceDiff()
        move.change(.string("room-2"), .init(geometry: .object(JSONObject([("type", .string("Point")), ("coordinates", .array([.number(0.003), .number(0.002)]))]))))
        try await map.updateGeoJSONSource(id: "rooms", diff: move, dataID: "moved")
        _ = await map.run(until: .mapIdle, timeout: .seconds(5))
        // The first went to the worker at once; the five after it were merged into one.
        #expect(recorder.events.compactMap { $0.payload.sourceData?.dataID } == ["d0", "moved"])
        let room = try #require(await map.geoJSONFeature(source: "rooms", id: .string("room-2")))
        #expect(room["properties"]?["live.occupancy.state"] == .string("gone"))
        #expect(room["properties"]?["name"] == .string("B"), "a move keeps the properties")
        #expect(room["geometry"]?["coordinates"] == .array([.number(0.003), .number(0.002)]))
        #expect(!recorder.payloads(of: MapEvents.styleImageMissing).contains("room-away"), "a merged-away state is never drawn")
    }

    @Test func aChangeForAnUnknownFeatureWithAGeometryAddsItAndRemovalsRemove() async throws {
        let (map, _) = await loadedMap()
        var diff = GeoJSONSourceDiff()
        diff.change(.string("van-7"), .init(geometry: .object(JSONObject([("type", .string("Point")), ("coordinates", .array([.number(0), .number(0)]))]))))
        diff.change(.string("room-1"), .init(isRemoval: true))
        diff.change(.string("nobody"), .init(properties: JSONObject([("x", .string("y"))])))
        try await map.updateGeoJSONSource(id: "rooms", diff: diff)
        await map.advance(by: .milliseconds(10))
        #expect(await map.geoJSONFeature(source: "rooms", id: .string("van-7")) != nil)
        #expect(await map.geoJSONFeature(source: "rooms", id: .string("room-1")) == nil)
        #expect(await map.geoJSONFeature(source: "rooms", id: .string("nobody")) == nil, "properties alone add nothing")
    }

    @Test func onlyGeoJSONSourcesTakeUpdates() async {
        let (map, _) = await loadedMap()
        await #expect(throws: LoadingError.self) { try await map.updateGeoJSONSource(id: "nope", diff: GeoJSONSourceDiff()) }
    }

    @Test func diffsMergeFeatureByFeature() {
        var first = GeoJSONSourceDiff()
        first.change(.string("a"), .init(properties: JSONObject([("x", .string("1")), ("y", .string("1"))])))
        var later = GeoJSONSourceDiff()
        later.change(.string("a"), .init(properties: JSONObject([("x", .string("2"))]), removedProperties: ["y"]))
        later.change(.number(7), .init(isRemoval: true))
        first.merge(later)
        #expect(first.ids == [.string("a"), .number(7)])
        #expect(first.change(of: .string("a")) == .init(properties: JSONObject([("x", .string("2"))]), removedProperties: ["y"]))
        #expect(first.change(of: .string("7")) == nil, "7 and \"7\" are different ids")
        first.change(.number(7), .init(properties: JSONObject([("z", .bool(true))])))
        #expect(first.change(of: .number(7))?.isRemoval == true, "properties of a removed feature change nothing")
        let point = JSONValue.object(JSONObject([("type", .string("Point")), ("coordinates", .array([.number(1), .number(2)]))]))
        first.change(.number(7), .init(geometry: point))
        #expect(first.change(of: .number(7)) == .init(geometry: point), "a geometry brings it back")
    }
}
