import Testing
@testable import MapSim
@testable import MapSimStyle

@Suite("LoadSequence")
struct LoadSequenceTests {
    private func sequence() -> LoadSequence {
        LoadSequence(camera: Camera(center: LngLat(longitude: 0, latitude: 0), zoom: 0), viewport: Viewport(width: 512, height: 512))
    }

    private let style = """
    {"version": 8, "sprite": "https://h/sprite", "sources": {"v": {"type": "vector", "url": "https://h/v.json"}},
     "layers": [{"id": "f", "type": "fill", "source": "v", "source-layer": "l"}]}
    """

    @Test func setStyleURLRequestsTheStyle() {
        var machine = sequence()
        machine.setStyleURL("https://h/style.json")
        #expect(machine.takeActions() == [.request(RequestID(value: 0), Resource(url: "https://h/style.json", kind: .style))])
        #expect(machine.takeActions().isEmpty)
    }

    @Test func aParsedStyleRequestsSpriteAndMetadataTogether() {
        var machine = sequence()
        machine.setStyleURL("https://h/style.json")
        _ = machine.takeActions()
        machine.receive(.success(Array(style.utf8), source: .network), for: RequestID(value: 0))
        #expect(machine.takeActions() == [
            .emit(.styleDataLoaded(StyleDataLoaded(type: .style))),
            .invalidate,
            .request(RequestID(value: 1), Resource(url: "https://h/sprite.json", kind: .spriteJSON)),
            .request(RequestID(value: 2), Resource(url: "https://h/sprite.png", kind: .spriteImage)),
            .request(RequestID(value: 3), Resource(url: "https://h/v.json", kind: .source)),
        ])
    }

    @Test func tilesAreRequestedAtTheRenderUpdateOnceMetadataIsLoaded() {
        var machine = sequence()
        machine.setStyleJSON(Array(style.utf8), baseURL: "https://h/style.json")
        _ = machine.takeActions()
        machine.updateTiles()
        #expect(machine.takeActions().isEmpty)
        machine.receive(.success(Array(#"{"tiles": ["https://h/{z}/{x}/{y}.pbf"], "maxzoom": 0}"#.utf8), source: .network), for: RequestID(value: 2))
        #expect(machine.takeActions() == [
            .emit(.sourceDataLoaded(SourceDataLoaded(id: "v", type: .metadata))), .invalidate, .emit(.styleDataLoaded(StyleDataLoaded(type: .sources))),
        ])
        machine.updateTiles()
        let tile = CanonicalTileID(z: 0, x: 0, y: 0)
        #expect(machine.takeActions() == [.request(RequestID(value: 3), Resource(url: "https://h/0/0/0.pbf", kind: .tile,
            tileData: Resource.TileData(urlTemplate: "https://h/{z}/{x}/{y}.pbf", pixelRatio: 1, id: tile)))])
        machine.receive(Response(noContent: true, source: .network), for: RequestID(value: 3))
        #expect(machine.takeActions() == [.emit(.sourceDataLoaded(SourceDataLoaded(id: "v", type: .tile, loaded: true, tileID: tile))), .invalidate])
        #expect(machine.renderFrame(at: .zero).isFull == false)
    }

    @Test func aResponseForAnUnknownRequestIsIgnored() {
        var machine = sequence()
        machine.receive(.success([1], source: .network), for: RequestID(value: 42))
        #expect(machine.takeActions().isEmpty)
    }

    @Test func aNewStyleCancelsWhatTheOldOneStillLoads() {
        var machine = sequence()
        machine.setStyleJSON(Array(style.utf8), baseURL: "https://h/style.json")
        _ = machine.takeActions()
        machine.setStyleURL("https://h/other.json")
        #expect(machine.takeActions() == [
            .cancelRequest(RequestID(value: 0)), .cancelRequest(RequestID(value: 1)), .cancelRequest(RequestID(value: 2)),
            .request(RequestID(value: 3), Resource(url: "https://h/other.json", kind: .style)),
        ])
    }
}

@Suite("RenderModel")
struct RenderModelTests {
    @Test func framesLandOnTheNext60HzTick() {
        var model = RenderModel()
        #expect(model.invalidate(at: .zero) == [.scheduleFrame(at: .zero)])
        #expect(model.invalidate(at: .zero).isEmpty)
        model.beginFrame(at: .zero)
        #expect(model.invalidate(at: .zero) == [.scheduleFrame(at: SimTime(microseconds: 16_666))])
        model.beginFrame(at: SimTime(microseconds: 16_666))
        #expect(model.invalidate(at: SimTime(microseconds: 20_000)) == [.scheduleFrame(at: SimTime(microseconds: 33_333))])
    }

    @Test func mapLoadedOnceThenIdleWhenQuiet() {
        var model = RenderModel()
        _ = model.invalidate(at: .zero)
        model.beginFrame(at: .zero)
        let animating = model.finishFrame(at: .zero, state: .init(isFull: true, placementChanged: true, animationEnd: .milliseconds(20)))
        #expect(animating == [.emit(.renderFrameFinished(RenderFrameFinished(renderMode: .full, needsRepaint: true, placementChanged: true))),
                              .emit(.mapLoaded), .scheduleFrame(at: SimTime(microseconds: 16_666))])
        model.beginFrame(at: SimTime(microseconds: 16_666))
        let stillAnimating = model.finishFrame(at: SimTime(microseconds: 16_666), state: .init(isFull: true, placementChanged: false, animationEnd: .milliseconds(20)))
        #expect(stillAnimating == [.emit(.renderFrameFinished(RenderFrameFinished(renderMode: .full, needsRepaint: true, placementChanged: false))),
                                   .scheduleFrame(at: SimTime(microseconds: 33_333))])
        model.beginFrame(at: SimTime(microseconds: 33_333))
        let quiet = model.finishFrame(at: SimTime(microseconds: 33_333), state: .init(isFull: true, placementChanged: false, animationEnd: nil))
        #expect(quiet == [.emit(.renderFrameFinished(RenderFrameFinished(renderMode: .full, needsRepaint: false, placementChanged: false))), .emit(.mapIdle)])
        #expect(model.isIdle)
    }

    @Test func partialFramesNeverMakeTheMapLoadedOrIdle() {
        var model = RenderModel()
        model.beginFrame(at: .zero)
        let outcome = model.finishFrame(at: .zero, state: .init(isFull: false, placementChanged: false, animationEnd: nil))
        #expect(outcome == [.emit(.renderFrameFinished(RenderFrameFinished(renderMode: .partial, needsRepaint: false, placementChanged: false)))])
    }
}
