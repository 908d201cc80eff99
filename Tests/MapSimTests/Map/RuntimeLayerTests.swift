import Testing
import MapSimJSON
import MapSimStyle
import MapSimTesting
@testable import MapSim

/// `Map.addLayer` / `removeLayer`, as `Style.addLayer` / `removeLayer` in the SDKs.
@Suite("Map.RuntimeLayers")
struct RuntimeLayerTests {
    private static let style = """
    {"version": 8, "transition": {"duration": 0},
     "sources": {"rooms": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
        {"type": "Feature", "id": "room-1", "properties": {"state": "busy"}, "geometry": {"type": "Point", "coordinates": [0.001, 0.001]}},
        {"type": "Feature", "id": "room-2", "properties": {"state": "free"}, "geometry": {"type": "Polygon", "coordinates": [[[0.002, 0.001], [0.004, 0.001], [0.004, 0.003], [0.002, 0.001]]]}}]}}},
     "layers": [{"id": "dots", "type": "circle", "source": "rooms"}]}
    """

    private func loadedMap() async -> (Map, EventRecorder) {
        let map = Map(backends: .only(StubLoader()), camera: Camera(center: LngLat(longitude: 0, latitude: 0), zoom: 14))
        let recorder = EventRecorder(map)
        await map.setStyleJSON(Self.style)
        _ = await map.run(until: .mapIdle, timeout: .seconds(5))
        return (map, recorder)
    }

    private func iconLayer(_ id: String = "icons") throws -> JSONValue {
        try JSONParser.parse(#"{"id": "\#(id)", "type": "symbol", "source": "rooms", "layout": {"icon-image": ["concat", "room-", ["get", "state"]]}}"#)
    }

    @Test func anAddedLayerIsLaidOutOnTheLoadedTilesAndItsImagesRequested() async throws {
        let (map, recorder) = await loadedMap()
        #expect(recorder.payloads(of: MapEvents.styleImageMissing).isEmpty)
        try await map.addLayer(try iconLayer(), before: "dots")
        #expect(await !map.isInState(.mapIdle), "the map works again")
        _ = await map.run(until: .mapIdle, timeout: .seconds(5))
        #expect(await map.style?.layers.map(\.id) == ["icons", "dots"])
        #expect(Set(recorder.payloads(of: MapEvents.styleImageMissing)) == ["room-busy", "room-free"])
        #expect(await map.tileData.imagesByLayer["icons"] == ["room-busy", "room-free"])
        try await map.removeLayer(id: "icons")
        _ = await map.run(until: .mapIdle, timeout: .seconds(5))
        #expect(await map.tileData.imagesByLayer["icons"] == nil)
        #expect(await map.style?.layers.map(\.id) == ["dots"])
    }

    @Test func whatCannotBeAddedOrRemovedIsRefusedWithTheReason() async throws {
        let unloaded = Map(backends: .only(StubLoader()))
        await #expect(throws: LoadingError.self) { try await unloaded.addLayer(try iconLayer()) }
        let (map, _) = await loadedMap()
        let refusals: [(JSONValue, String?, String)] = [
            (try iconLayer("dots"), nil, "already exists"),
            (try JSONParser.parse(#"{"id": "x", "type": "circle", "source": "nosuch"}"#), nil, "nosuch"),
            (try JSONParser.parse(#"{"id": "x", "type": "nosuch", "source": "rooms"}"#), nil, "nosuch"),
            (try iconLayer("y"), "nosuch", "before \"nosuch\""),
        ]
        for (layer, before, reason) in refusals {
            do {
                try await map.addLayer(layer, before: before)
                Issue.record("\(layer) was added")
            } catch {
                #expect("\(error)".contains(reason), "\(error)")
            }
        }
        await #expect(throws: LoadingError.self) { try await map.removeLayer(id: "nosuch") }
        #expect(await map.style?.layers.map(\.id) == ["dots"])
    }

    @Test func featuresAreListedWithWhereTheyAre() async throws {
        let (map, _) = await loadedMap()
        let features = try #require(await map.geoJSONFeatures(source: "rooms"))
        #expect(features.map(\.id) == [.string("room-1"), .string("room-2")])
        #expect(abs(features[0].anchor.longitude - 0.001) < 1e-9 && abs(features[0].anchor.latitude - 0.001) < 1e-9)
        #expect(abs(features[1].anchor.longitude - 0.003) < 1e-9 && abs(features[1].anchor.latitude - 0.002) < 1e-6, "the centre of its box")
        #expect(await map.geoJSONFeatures(source: "nosuch") == nil)
    }
}
