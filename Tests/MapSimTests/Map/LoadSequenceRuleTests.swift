import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimStyle
import MapSimJSON

/// One test per rule of the load sequence (README, "How the simulated map behaves"), each driving the pure
/// machines with inputs and reading the events they ask for — no actor, no task, no file.
@Suite("LoadSequence.Rules")
struct LoadSequenceRuleTests {
    static let tiles = ["10/163/395", "10/163/396", "10/164/395", "10/164/396"]
    /// The tile MapLibre Native prefetches for the view in continuous mode, four zooms below.
    static let prefetched = "6/10/24"

    /// A style on the sample's data, with `extra` layers and top-level members spliced in.
    static func style(sprite: Bool = true, source: String = #"{"type": "vector", "url": "tiles.json"}"#, layers: String = "", extra: String = "") -> String {
        """
        {"version": 8, \(sprite ? #""sprite": "sprite","# : "") "glyphs": "glyphs/{fontstack}/{range}.pbf", \(extra)
         "sources": {"city": \(source)},
         "layers": [{"id": "water", "type": "fill", "source": "city", "source-layer": "water"}\(layers)]}
        """
    }

    private func loaded(_ style: String, overrides: [String: Response] = [:], prepare: (MachineDriver) -> Void = { _ in }) async -> MachineDriver {
        let driver = MachineDriver()
        driver.overrides = overrides
        prepare(driver)
        driver.load(style)
        await driver.run()
        return driver
    }

    @Test func theStyleLoadsStyleThenSpriteThenSourcesThenTilesThenFrames() async {
        let driver = await loaded(Self.style())
        #expect(driver.milestones == [
            "style-data-loaded style", "style-data-loaded sprite", "source-data-loaded city metadata", "style-data-loaded sources", "style-loaded",
        ] + ([Self.prefetched] + Self.tiles).map { "source-data-loaded city tile \($0)" } + ["map-loaded", "map-idle"])
        // The sprite's two parts and the TileJSON are asked for together, as soon as the style is parsed.
        #expect(driver.loads.prefix(3).map(\.url) == ["https://h/sprite.json", "https://h/sprite.png", "https://h/tiles.json"])
        #expect(driver.loads.prefix(3).map(\.kind) == [.spriteJSON, .spriteImage, .source])
    }

    @Test func aStyleThatFailsToLoadIsFatal() async {
        let driver = MachineDriver()
        driver.feed(.setStyleURL("https://h/none.json"))
        await driver.run()
        #expect(driver.milestones == ["map-loading-error style"])
        #expect(driver.machine.sequence.phase == .failed("failed to load the style https://h/none.json: no file for https://h/none.json"))
    }

    @Test func aStyleThatFailsToParseIsFatal() async {
        let driver = await loaded("{\"version\": 8, ")
        #expect(driver.milestones == ["map-loading-error style"])
        #expect(driver.loads.isEmpty && driver.frames.allSatisfy { $0.renderMode == .partial })
    }

    @Test func aStyleWithoutASpriteHasItsSpriteLoadedAtOnce() async {
        let driver = await loaded(Self.style(sprite: false))
        #expect(Array(driver.milestones.prefix(2)) == ["style-data-loaded style", "style-data-loaded sprite"])
        #expect(!driver.loads.contains { $0.kind == .spriteJSON || $0.kind == .spriteImage })
        #expect(driver.milestones.last == "map-idle")
    }

    @Test func aSpriteErrorIsReportedButNotFatal() async {
        let driver = await loaded(Self.style(), overrides: ["sprite.png": .failure(.notFound, "gone", source: .network)])
        #expect(Array(driver.milestones.prefix(3)) == ["style-data-loaded style", "map-loading-error sprite", "style-data-loaded sprite"])
        #expect(driver.milestones.contains("style-loaded") && driver.milestones.last == "map-idle")
    }

    @Test func anInlineTilesetIsLoadedWithTheStyle() async {
        let driver = await loaded(Self.style(source: #"{"type": "vector", "tiles": ["https://h/tiles/{z}/{x}/{y}.pbf"], "maxzoom": 11}"#))
        #expect(Array(driver.milestones.prefix(2)) == ["style-data-loaded style", "source-data-loaded city metadata"])
        #expect(!driver.loads.contains { $0.kind == .source })
        #expect(driver.milestones.last == "map-idle")
    }

    @Test func aTileJSONErrorLeavesTheSourceUnloadedAndTheMapNeverLoaded() async {
        let driver = await loaded(Self.style(), overrides: ["tiles.json": .success(Array("{\"tiles\": 5}".utf8), source: .network)])
        #expect(driver.milestones == ["style-data-loaded style", "style-data-loaded sprite", "map-loading-error source city"])
        #expect(!driver.loads.contains { $0.kind == .tile })
        #expect(!driver.frames.isEmpty && driver.frames.allSatisfy { $0.renderMode == .partial })
    }

    @Test func aTileErrorIsReportedAndTheTileCountsAsComplete() async {
        let broken = "tiles/10/163/396.pbf"
        let driver = await loaded(Self.style(), overrides: [broken: .success([0xFF, 0x01], source: .network)])
        #expect(driver.milestones.contains("map-loading-error tile city 10/163/396"))
        #expect(!driver.milestones.contains("source-data-loaded city tile 10/163/396"))
        #expect(Array(driver.milestones.suffix(2)) == ["map-loaded", "map-idle"])
    }

    @Test func styleLoadedWaitsForTheSpriteAndEverySourcesMetadata() async {
        let driver = MachineDriver()
        driver.overrides["sprite.png"] = .success([], source: .network)
        driver.load(Self.style(source: #"{"type": "geojson", "data": "https://h/none.geojson"}"#))
        await driver.run()
        // The GeoJSON fails: its source never loads, so style-loaded never comes, sprite or not.
        #expect(driver.milestones.contains("style-data-loaded sprite"))
        #expect(driver.milestones.contains("map-loading-error source city"))
        #expect(!driver.milestones.contains("style-loaded") && !driver.milestones.contains("style-data-loaded sources"))
    }

    @Test func onlySourcesOfVisibleLayersRequestTiles() async {
        let hidden = Self.style(layers: "").replacingOccurrences(of: #""source-layer": "water"}"#, with: #""source-layer": "water", "layout": {"visibility": "none"}}"#)
        let driver = await loaded(hidden)
        #expect(!driver.loads.contains { $0.kind == .tile })
        #expect(Array(driver.milestones.suffix(2)) == ["map-loaded", "map-idle"])
    }

    @Test func framesAreFullOnlyWhenEveryVisibleTileIsCompleteAndRepaintWhileTransitionsRun() async {
        let driver = await loaded(Self.style())
        let frames = driver.events.filter { $0.type == .renderFrameFinished }
        let firstFull = frames.firstIndex { $0.payload == .renderFrameFinished(RenderFrameFinished(renderMode: .full, needsRepaint: true, placementChanged: false)) }
        let tilesDone = driver.events.lastIndex { $0.payload.sourceData?.type == .tile }
        // Every frame before the last tile is partial; the first full one comes after it and repaints (300 ms transition).
        #expect(frames.prefix { $0.end <= driver.events[tilesDone ?? 0].end }.allSatisfy { MapEvents.renderFrameFinished.payload(in: $0.payload)?.renderMode == .partial })
        #expect(firstFull != nil)
        // Each frame is render-frame-started then render-frame-finished, on a 60 Hz tick.
        let framed = driver.events.filter { $0.type == .renderFrameStarted || $0.type == .renderFrameFinished }.map(\.type)
        #expect(framed == Array(repeating: [MapEventType.renderFrameStarted, .renderFrameFinished], count: framed.count / 2).flatMap { $0 })
        #expect(frames.allSatisfy { $0.end == RenderModel.tick($0.end.microseconds * 60 / 1_000_000) || $0.end == RenderModel.tick($0.end.microseconds * 60 / 1_000_000 + 1) })
        // The last frame is full and quiet; map-idle follows it.
        #expect(driver.frames.last == RenderFrameFinished(renderMode: .full, needsRepaint: false, placementChanged: false))
    }

    @Test func mapLoadedFiresOncePerStyleLoadAndIdleAgainAfterEveryChange() async {
        let driver = await loaded(Self.style())
        driver.feed(.setCamera(CameraOptions(zoom: 11)))
        await driver.run()
        #expect(driver.milestones.filter { $0 == "map-loaded" }.count == 1)
        #expect(driver.milestones.filter { $0 == "map-idle" }.count == 2)
        #expect(driver.milestones.contains("camera-changed"))
        // A new style loads again: map-loaded fires again.
        driver.load(Self.style(sprite: false))
        await driver.run()
        #expect(driver.milestones.filter { $0 == "map-loaded" }.count == 2)
    }

    @Test func offlineTheMapShowsWhatItHasAndStillGoesIdle() async {
        let driver = MachineDriver()
        driver.feed(.setOffline(true))
        driver.load(Self.style(source: #"{"type": "vector", "tiles": ["https://h/tiles/{z}/{x}/{y}.pbf"], "maxzoom": 11}"#))
        await driver.run()
        let offline = driver.events.compactMap { $0.payload.request }.filter { $0.response?.error?.reason == .inOfflineMode }
        #expect(offline.count == 2 + 4 + 1, "the sprite's two parts, the four tiles and the prefetched one fail at once")
        #expect(driver.loads.isEmpty, "nothing goes to the network")
        #expect(driver.milestones.last == "map-idle")
    }

    @Test func cameraAndSizeChangesAndRuntimeSourcesAreReportedAtOnce() async {
        let driver = await loaded(Self.style())
        let before = driver.events.count
        driver.feed(.setCamera(CameraOptions(bearing: 30)))
        driver.feed(.setViewport(Viewport(width: 800, height: 600)))
        #expect(driver.events[before...].map(\.type) == [.cameraChanged, .cameraChanged])
        let points = StyleSource(id: "points", kind: .geojson, inlineData: .object(JSONObject([("type", .string("FeatureCollection")), ("features", .array([]))])))
        let added = driver.events.count
        #expect(throws: Never.self) { try driver.addSource(points) }
        #expect(Array(driver.milestones.suffix(2)) == ["source-added", "source-data-loaded points metadata"])
        #expect(driver.events[added].end == driver.events[added - 1].end, "reported at once, at the time of the call")
        #expect(throws: Never.self) { try driver.removeSource(id: "points") }
        #expect(driver.milestones.last == "source-removed")
        #expect(throws: LoadingError.invalidCall("source \"city\" is in use by layer \"water\"")) { try driver.removeSource(id: "city") }
    }

    @Test func aSymbolWhoseImageTheSpriteLacksIsReportedOnce() async {
        let icons = #", {"id": "icons", "type": "symbol", "source": "city", "source-layer": "pois", "layout": {"icon-image": "no-such-icon"}}"#
        let driver = await loaded(Self.style(layers: icons))
        #expect(driver.milestones.filter { $0 == "style-image-missing no-such-icon" }.count == 1)
        let index = driver.milestones.firstIndex(of: "style-image-missing no-such-icon")
        #expect(index.map { $0 > driver.milestones.firstIndex(of: "style-loaded")! } == true)
    }

    @Test func everyRequestIsReportedOnceWithItsResponse() async {
        let driver = await loaded(Self.style())
        let requests = driver.events.compactMap { $0.payload.request }
        #expect(requests.count == driver.loads.count)
        #expect(requests.map(\.request.url).sorted() == driver.loads.map(\.url).sorted())
        #expect(requests.allSatisfy { $0.response != nil && !$0.cancelled && $0.dataSource == .network })
        // A request spans from its start to its response: 10 ms here.
        #expect(driver.events.filter { $0.type == .resourceRequest }.allSatisfy { $0.end - $0.begin == .milliseconds(10) })
    }

    @Test func aCoverPastTheTileLimitIsRefusedOnceAndTheMapStillGoesIdle() async {
        let raster = #"{"type": "raster", "tiles": ["https://h/{z}/{x}/{y}.png"], "tileSize": 1}"#
        let style = Self.style(sprite: false, source: raster).replacingOccurrences(of: #""type": "fill", "source": "city", "source-layer": "water""#,
                                                                                  with: #""type": "raster", "source": "city""#)
        let driver = await loaded(style)
        #expect(driver.milestones.filter { $0.hasPrefix("map-loading-error source city") }.count == 1)
        #expect(!driver.loads.contains { $0.kind == .tile })
        #expect(driver.milestones.last == "map-idle")
        let message = driver.events.compactMap { $0.payload.loadingError?.message }.first
        #expect(message == "source \"city\": the view needs 263169 tiles at zoom 19, more than the limit of 10000 per source; no tile of it is loaded")
        // Moving on does not repeat the error while the cover stays too large.
        driver.feed(.setCamera(CameraOptions(bearing: 10)))
        await driver.run()
        #expect(driver.milestones.filter { $0.hasPrefix("map-loading-error") }.count == 1)
    }
}
