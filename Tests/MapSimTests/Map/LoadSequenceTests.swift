import Testing
import MapSimJSON
@testable import MapSim
@testable import MapSimStyle

/// The load sequence driven directly, one test per input: it asks for resources by purpose and
/// never sees a request id.
@Suite("LoadSequence")
struct LoadSequenceTests {
    private func sequence() -> LoadSequence {
        LoadSequence(camera: Camera(center: LngLat(longitude: 0, latitude: 0), zoom: 0), viewport: Viewport(width: 512, height: 512))
    }

    private let style = """
    {"version": 8, "sprite": "https://h/sprite", "sources": {"v": {"type": "vector", "url": "https://h/v.json"}},
     "layers": [{"id": "f", "type": "fill", "source": "v", "source-layer": "l"}]}
    """

    private let tileJSON = Resource(url: "https://h/v.json", kind: .source)

    @Test func setStyleURLRequestsTheStyle() {
        var machine = sequence()
        #expect(machine.handle(.setStyleURL("https://h/style.json"), at: .zero) == [.request(.style, Resource(url: "https://h/style.json", kind: .style))])
        #expect(machine.phase == .loadingStyle)
    }

    @Test func aParsedStyleRequestsSpriteAndMetadataTogether() {
        var machine = sequence()
        _ = machine.handle(.setStyleURL("https://h/style.json"), at: .zero)
        let actions = machine.handle(.receive(.style, .style("https://h/style.json"), .success(Array(style.utf8), source: .network), final: true), at: .zero)
        #expect(actions == [
            .emit(.styleDataLoaded(StyleDataLoaded(type: .style))),
            .invalidate,
            .request(.spriteJSON(0), Resource(url: "https://h/sprite.json", kind: .spriteJSON)),
            .request(.spriteImage(0), Resource(url: "https://h/sprite.png", kind: .spriteImage)),
            .request(.metadata("v"), tileJSON),
        ])
    }

    @Test func aStyleThatFailsToLoadIsCancelledAndFatal() {
        var machine = sequence()
        _ = machine.handle(.setStyleURL("https://h/style.json"), at: .zero)
        let actions = machine.handle(.receive(.style, .style("https://h/style.json"), .failure(.server, "HTTP 500", source: .network), final: false), at: .zero)
        #expect(actions == [.cancel(.style), .emit(.mapLoadingError(MapLoadingError(type: .style, message: "failed to load the style https://h/style.json: HTTP 500")))])
        #expect(machine.phase == .failed("failed to load the style https://h/style.json: HTTP 500"))
    }

    @Test func tilesAreRequestedAtTheRenderUpdateOnceMetadataIsLoaded() {
        var machine = sequence()
        _ = machine.handle(.setStyleJSON(Array(style.utf8), baseURL: "https://h/style.json"), at: .zero)
        #expect(machine.handle(.updateTiles, at: .zero).isEmpty)
        let metadata = machine.handle(.receive(.metadata("v"), tileJSON, .success(Array(#"{"tiles": ["https://h/{z}/{x}/{y}.pbf"], "maxzoom": 0}"#.utf8),
                                                                                     source: .network), final: true), at: .zero)
        #expect(metadata == [.emit(.sourceDataLoaded(SourceDataLoaded(id: "v", type: .metadata))), .invalidate, .emit(.styleDataLoaded(StyleDataLoaded(type: .sources)))])
        let tile = CanonicalTileID(z: 0, x: 0, y: 0)
        let key = TileKey(canonical: tile, wrap: 0)
        let resource = Resource(url: "https://h/0/0/0.pbf", kind: .tile, tileData: Resource.TileData(urlTemplate: "https://h/{z}/{x}/{y}.pbf", pixelRatio: 1, id: tile))
        #expect(machine.handle(.updateTiles, at: .zero) == [.request(.tile("v", key), resource)])
        #expect(machine.handle(.receive(.tile("v", key), resource, Response(noContent: true, source: .network), final: true), at: .zero)
            == [.emit(.sourceDataLoaded(SourceDataLoaded(id: "v", type: .tile, loaded: true, tileID: tile))), .invalidate])
        #expect(machine.handle(.drawFrame(afterFirstIdle: false), at: .zero) == [.drew(.init(isFull: false, placementChanged: false, animationEnd: .milliseconds(300)))],
                "the sprite has not settled: the frame is partial, and the style's 300 ms transition starts")
    }

    @Test func aNewStyleCancelsWhatTheOldOneStillLoads() {
        var machine = sequence()
        _ = machine.handle(.setStyleJSON(Array(style.utf8), baseURL: "https://h/style.json"), at: .zero)
        #expect(machine.handle(.setStyleURL("https://h/other.json"), at: .zero)
            == [.cancelStyleLoad, .request(.style, Resource(url: "https://h/other.json", kind: .style))])
    }

    @Test func theCameraAndTheViewReportAChangeOnlyWhenThereIsOne() {
        var machine = sequence()
        #expect(machine.handle(.setCamera(CameraOptions(zoom: 3)), at: .zero) == [.emit(.cameraChanged), .invalidate])
        #expect(machine.handle(.setCamera(CameraOptions(zoom: 3)), at: .zero).isEmpty)
        #expect(machine.handle(.setViewport(Viewport(width: 800, height: 600)), at: .zero) == [.emit(.cameraChanged), .invalidate])
        #expect(machine.handle(.setViewport(Viewport(width: 800, height: 600)), at: .zero).isEmpty)
    }

    @Test func sourcesAreAddedAndRemovedOnlyWhenTheCallCanBeMade() {
        var machine = sequence()
        let points = StyleSource(id: "p", kind: .geojson, inlineData: .object(JSONObject([("type", .string("FeatureCollection")), ("features", .array([]))])))
        #expect(machine.handle(.addSource(points), at: .zero) == [.refuse(.invalidCall("cannot add source \"p\": no style is loaded yet"))])
        _ = machine.handle(.setStyleJSON(Array(style.utf8), baseURL: "https://h/style.json"), at: .zero)
        #expect(machine.handle(.addSource(points), at: .zero) == [.emit(.sourceAdded(id: "p")), .emit(.sourceDataLoaded(SourceDataLoaded(id: "p", type: .metadata))), .invalidate])
        #expect(machine.handle(.addSource(points), at: .zero) == [.refuse(.invalidCall("source \"p\" already exists"))])
        #expect(machine.handle(.removeSource("v"), at: .zero) == [.refuse(.invalidCall("source \"v\" is in use by layer \"f\""))])
        #expect(machine.handle(.removeSource("p"), at: .zero) == [.emit(.sourceRemoved(id: "p")), .invalidate])
        #expect(machine.handle(.removeSource("p"), at: .zero) == [.refuse(.invalidCall("source \"p\" does not exist"))])
    }

    @Test func layersAreAddedAndRemovedOnlyWhenTheCallCanBeMadeAndPlacedWhereAsked() throws {
        var machine = sequence()
        var empty = sequence()
        let json = try JSONParser.parse(#"{"id": "g", "type": "line", "source": "v", "source-layer": "l"}"#)
        _ = machine.handle(.setStyleJSON(Array(style.utf8), baseURL: "https://h/style.json"), at: .zero)
        let layer = try MapReadout.layer(json, in: machine.style)
        #expect(empty.handle(.addLayer(layer, before: nil), at: .zero) == [.refuse(.invalidCall("cannot add layer \"g\": no style is loaded yet"))])
        #expect(machine.handle(.addLayer(layer, before: "nope"), at: .zero)
            == [.refuse(.invalidCall("cannot add layer \"g\" before \"nope\", which does not exist"))])
        #expect(machine.handle(.addLayer(layer, before: "f"), at: .zero) == [.invalidate])
        #expect(machine.style?.layers.map(\.id) == ["g", "f"])
        #expect(machine.handle(.addLayer(layer, before: nil), at: .zero) == [.refuse(.invalidCall("layer \"g\" already exists"))])
        #expect(machine.handle(.removeLayer("g"), at: .zero) == [.invalidate])
        #expect(machine.style?.layers.map(\.id) == ["f"])
        #expect(machine.handle(.removeLayer("g"), at: .zero) == [.refuse(.invalidCall("layer \"g\" does not exist"))])
    }

    @Test func aRuntimeImageIsAVisibleChange() {
        var machine = sequence()
        #expect(machine.handle(.addImage("pin"), at: .zero) == [.invalidate])
        #expect(machine.runtimeImages == ["pin"])
    }

    @Test func aGeoJSONUpdateGoesThroughTheWorkerAndIsReportedWithItsDataID() {
        var machine = sequence()
        let geojson = """
        {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
         "layers": [{"id": "c", "type": "circle", "source": "g"}]}
        """
        _ = machine.handle(.setStyleJSON(Array(geojson.utf8), baseURL: nil), at: .zero)
        #expect(machine.handle(.updateGeoJSON(source: "nope", diff: GeoJSONSourceDiff(), dataID: nil), at: .zero)
            == [.refuse(.invalidCall("source \"nope\" does not exist"))])
        let queued = machine.handle(.updateGeoJSON(source: "g", diff: GeoJSONSourceDiff(), dataID: "d1"), at: .zero)
        #expect(queued == [.scheduleGeoJSONUpdate(source: "g", token: 0, at: .milliseconds(1)), .invalidate])
        #expect(machine.handle(.finishGeoJSONUpdate(source: "g", token: 0), at: .milliseconds(1))
            == [.emit(.sourceDataLoaded(SourceDataLoaded(id: "g", type: .metadata, dataID: "d1"))), .invalidate])
        #expect(machine.handle(.finishGeoJSONUpdate(source: "g", token: 0), at: .milliseconds(2)).isEmpty, "a stale answer of the worker changes nothing")
    }
}
