import Foundation
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimJSON
@testable import MapSimStyle

/// The rules of the load sequence again, through the `Map` actor, on the real sample style and real files.
@Suite("Map.LoadSequence")
struct MapLoadSequenceTests {
    @Test func followsStyleSpriteSourcesTilesLoadedIdle() async throws {
        let (_, recorder, outcome) = await loadStyle(SampleStyle.url)
        guard case .reached = outcome else { Issue.record("not idle: \(outcome)"); return }
        let payloads = recorder.payloads
        func index(_ predicate: (MapEventPayload) -> Bool) throws -> Int {
            let found = payloads.firstIndex(where: predicate)
            return try #require(found)
        }
        let style = try index { $0.styleData == .style }
        let spriteRequest = try index { $0.request?.request.kind == .spriteJSON }
        let sprite = try index { $0.styleData == .sprite }
        let metadata = try index { $0.sourceData?.type == .metadata }
        let sources = try index { $0.styleData == .sources }
        let styleLoaded = try index { $0 == .styleLoaded }
        let firstTileRequest = try index { $0.request?.request.kind == .tile }
        let firstTile = try index { $0.sourceData?.type == .tile }
        let mapLoaded = try index { $0 == .mapLoaded }
        let mapIdle = try index { $0 == .mapIdle }
        #expect(style < spriteRequest && spriteRequest < sprite)
        #expect(sprite < metadata && metadata < sources && sources < styleLoaded)
        #expect(styleLoaded < firstTileRequest && firstTileRequest < firstTile && firstTile < mapLoaded && mapLoaded < mapIdle)
        #expect(payloads.filter { $0.sourceData?.type == .tile }.count == 5, "four tiles and the one MapLibre Native prefetches")
        #expect(payloads.filter { $0 == .mapIdle }.count == 1)
    }

    @Test func styleLoadErrorIsFatal() async {
        let (_, recorder, outcome) = await loadStyle(SampleStyle.url.replacingOccurrences(of: "style.json", with: "absent.json"))
        guard case .styleFailed(let message) = outcome else { Issue.record("expected a style failure, got \(outcome)"); return }
        #expect(message.contains("absent.json"))
        let errors = recorder.payloads.compactMap(\.loadingError)
        #expect(errors.map(\.type) == [.style])
        #expect(recorder.payloads.compactMap(\.request).count == 1)
        #expect(recorder.events(of: .styleDataLoaded).isEmpty)
    }

    @Test func styleParseErrorIsFatalAndSaysWhere() async {
        let (_, recorder, outcome) = await loadStyle(SampleStyle.failing("malformed"))
        guard case .styleFailed(let message) = outcome else { Issue.record("expected a style failure, got \(outcome)"); return }
        #expect(message.contains("line 7, column 3"))
        #expect(recorder.payloads.compactMap(\.loadingError).map(\.type) == [.style])
    }

    @Test func spriteErrorIsNotFatal() async {
        let (_, recorder, outcome) = await loadStyle(SampleStyle.failing("missing-sprite"))
        guard case .reached = outcome else { Issue.record("not idle: \(outcome)"); return }
        let errors = recorder.payloads.compactMap(\.loadingError)
        #expect(errors.map(\.type) == [.sprite])
        #expect(errors.first?.message.contains("no-such-sprite.json") == true)
        let spriteLoaded = recorder.firstIndex { $0.styleData == .sprite }
        let errorIndex = recorder.firstIndex { $0.loadingError != nil }
        #expect(spriteLoaded != nil && errorIndex! < spriteLoaded!)
        #expect(recorder.firstIndex(of: .styleLoaded) != nil)
        // Without a sprite the marker icon is missing when the POIs render.
        #expect(recorder.payloads.contains(.styleImageMissing(id: "marker")))
    }

    @Test func styleWithoutSpriteCountsItsSpriteAsLoaded() async {
        let map = Map(backends: .only(StubLoader()))
        let recorder = EventRecorder(map)
        await map.setStyleJSON(#"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background"}]}"#)
        #expect(recorder.payloads.compactMap(\.styleData) == [.style, .sprite, .sources])
        #expect(recorder.payloads.contains(.styleLoaded))
        #expect(await map.run(until: .mapIdle, timeout: .seconds(5)) == .reached(SimTime(microseconds: 300_000)))
    }

    @Test func tileJSONErrorLeavesTheSourceUnloadedAndBlocksMapLoaded() async {
        let (_, recorder, outcome) = await loadStyle(SampleStyle.failing("broken-tilejson"), until: .mapLoaded, timeout: .seconds(10))
        #expect(outcome == .timedOut(at: .seconds(10), nothingPending: true))
        let errors = recorder.payloads.compactMap(\.loadingError)
        #expect(errors.map(\.type) == [.source])
        #expect(errors.first?.sourceID == "city")
        #expect(recorder.firstIndex(of: .styleLoaded) == nil)
        #expect(recorder.firstIndex { $0.styleData == .sources } == nil)
        #expect(recorder.firstIndex(of: .mapLoaded) == nil)
        #expect(recorder.payloads.compactMap(\.frame).allSatisfy { $0.renderMode == .partial })
    }

    @Test func tileErrorIsReportedButTheTileCountsAsComplete() async throws {
        let fixture = try sampleCopy()
        let tilePath = fixture.path + "/sample/tiles/10/163/395.pbf"
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: tilePath)))
        try fixture.write("sample/tiles/10/163/395.pbf", Array(bytes[0..<(bytes.count / 2)]))
        let (_, recorder, outcome) = await loadStyle(fixture.url("sample/style.json"))
        guard case .reached = outcome else { Issue.record("not idle: \(outcome)"); return }
        let errors = recorder.payloads.compactMap(\.loadingError)
        #expect(errors.count == 1)
        #expect(errors.first?.type == .tile && errors.first?.sourceID == "city")
        #expect(errors.first?.tileID == CanonicalTileID(z: 10, x: 163, y: 395))
        #expect(errors.first?.message.contains("truncated") == true)
        #expect(recorder.payloads.contains(.mapLoaded))
        #expect(!recorder.payloads.contains { $0.sourceData?.tileID == CanonicalTileID(z: 10, x: 163, y: 395) })
    }

    @Test func aBrokenSpriteSheetNamesTheFileThatIsWrong() async throws {
        // A PNG that is no PNG: the image is named, not the index beside it.
        let fixture = try sampleCopy()
        try fixture.write("sample/sprite.png", "not a png")
        let (_, broken, _) = await loadStyle(fixture.url("sample/style.json"))
        let error = try #require(broken.payloads.compactMap(\.loadingError).first)
        #expect(error.type == .sprite && error.message.contains("sprite.png") && !error.message.contains("sprite.json"), "\(error.message)")
        // An index that is no JSON: the index is named.
        let other = try sampleCopy()
        try other.write("sample/sprite.json", "{ not json")
        let (_, index, _) = await loadStyle(other.url("sample/style.json"))
        let indexError = try #require(index.payloads.compactMap(\.loadingError).first)
        #expect(indexError.type == .sprite && indexError.message.contains("sprite.json") && !indexError.message.contains("sprite.png"), "\(indexError.message)")
    }

    @Test func styleLoadedWaitsForTheSpriteAndEverySource() async {
        let timing = FixedLatency(.milliseconds(10), extra: [("sprite", .milliseconds(500))])
        let (_, recorder, _) = await loadStyle(SampleStyle.url, until: .styleLoaded, timing: timing)
        let styleLoaded = recorder.events(of: .styleLoaded)
        let sprite = recorder.events.filter { $0.payload.styleData == .sprite }
        let sources = recorder.events.filter { $0.payload.styleData == .sources }
        #expect(styleLoaded.count == 1 && sprite.count == 1 && sources.count == 1)
        #expect(sources[0].end == SimTime(microseconds: 20_000))
        #expect(sprite[0].end == SimTime(microseconds: 520_000))
        #expect(styleLoaded[0].end == sprite[0].end)
        #expect(recorder.firstIndex { $0.styleData == .sprite }! < recorder.firstIndex(of: .styleLoaded)!)
    }

    @Test func framesAreFullOnlyWhenEveryVisibleTileIsComplete() async throws {
        let (_, recorder, _) = await loadStyle(SampleStyle.url, timing: FixedLatency(.milliseconds(40)))
        let events = recorder.events
        let lastTile = try #require(events.lastIndex { $0.payload.sourceData?.type == .tile })
        let frames = events.enumerated().filter { $0.element.type == .renderFrameFinished }
        for (index, event) in frames {
            #expect((event.payload.frame?.renderMode == .full) == (index > lastTile), "frame at \(event.end)")
        }
        #expect(events[lastTile].payload.sourceData?.loaded == true)
        let firstFull = try #require(frames.first { $0.element.payload.frame?.renderMode == .full })
        #expect(events[firstFull.offset + 1].payload == .mapLoaded)
    }

    @Test func mapLoadedFiresOncePerStyleLoad() async {
        let (map, recorder, _) = await loadStyle(SampleStyle.url)
        #expect(recorder.events(of: .mapLoaded).count == 1)
        await map.advance(by: .seconds(2))
        #expect(recorder.events(of: .mapLoaded).count == 1)
        await map.setStyleURI(SampleStyle.failing("missing-icon"))
        #expect(await map.isInState(.mapLoaded) == false)
        _ = await map.run(until: .mapIdle, timeout: .seconds(10))
        #expect(recorder.events(of: .mapLoaded).count == 2)
    }

    @Test func mapIdleComesAfterAFullQuietFrameAndAgainAfterEveryChange() async throws {
        let (map, recorder, outcome) = await loadStyle(SampleStyle.url)
        #expect(outcome == .reached(SimTime(microseconds: 333_333)))
        let idleIndex = try #require(recorder.firstIndex(of: .mapIdle))
        let frame = try #require(recorder.payloads[..<idleIndex].last { $0.frame != nil }?.frame)
        #expect(frame.renderMode == .full && !frame.needsRepaint)
        await map.advance(by: .seconds(5))
        #expect(recorder.events(of: .mapIdle).count == 1)
        #expect(await map.isInState(.mapIdle))
        await map.setCamera(CameraOptions(zoom: 11))
        #expect(await map.isInState(.mapIdle) == false)
        let second = await map.run(until: .mapIdle, timeout: .seconds(10))
        guard case .reached(let time) = second else { Issue.record("not idle again: \(second)"); return }
        #expect(time > .seconds(5))
        #expect(recorder.events(of: .mapIdle).count == 2)
    }

    @Test func needsRepaintWhileTransitionsAndFadesRun() async throws {
        let (_, recorder, _) = await loadStyle(SampleStyle.url)
        let frames = recorder.events.filter { $0.type == .renderFrameFinished }
        let placement = try #require(frames.first { $0.payload.frame?.placementChanged == true })
        for frame in frames {
            let expected = frame.end < placement.end + .milliseconds(300)
            #expect(frame.payload.frame?.needsRepaint == expected, "frame at \(frame.end)")
        }
        // No transition and nothing that fades: idle on the first full frame.
        let map = Map(backends: .only(StubLoader()))
        let quiet = EventRecorder(map)
        await map.setStyleJSON(#"{"version": 8, "transition": {"duration": 0}, "sources": {}, "layers": [{"id": "bg", "type": "background"}]}"#)
        #expect(await map.run(until: .mapIdle, timeout: .seconds(1)) == .reached(.zero))
        #expect(quiet.payloads.compactMap(\.frame) == [RenderFrameFinished(renderMode: .full, needsRepaint: false, placementChanged: false)])
    }

    @Test func framesFollowA60HzClock() async {
        let (_, recorder, _) = await loadStyle(SampleStyle.url, timing: FixedLatency(.milliseconds(7)))
        let times = recorder.events(of: .renderFrameStarted).map(\.begin.microseconds)
        #expect(times.count > 10)
        #expect(times.allSatisfy { time in (0...(time * 60 / 1_000_000 + 1)).contains { $0 * 1_000_000 / 60 == time } })
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 16_666 })
    }

    @Test func cameraChangesOnCameraAndSize() async {
        let map = Map(backends: .only(StubLoader()))
        let recorder = EventRecorder(map)
        await map.setCamera(CameraOptions(zoom: 3))
        await map.setCamera(CameraOptions(zoom: 3))
        await map.setViewport(Viewport(width: 100, height: 100))
        #expect(recorder.payloads == [.cameraChanged, .cameraChanged])
    }

    @Test func styleCameraFillsWhatTheUserDidNotSet() async {
        let (map, _, _) = await loadStyle(SampleStyle.url, camera: CameraOptions(zoom: 11), until: .styleLoaded)
        let camera = await map.camera
        #expect(camera.zoom == 11)
        #expect(camera.center == LngLat(longitude: -122.4, latitude: 37.8))
    }

    @Test func missingIconGivesStyleImageMissingOnceWhileRendering() async throws {
        let (_, recorder, outcome) = await loadStyle(SampleStyle.failing("missing-icon"))
        guard case .reached = outcome else { Issue.record("not idle: \(outcome)"); return }
        let missing = recorder.payloads.enumerated().filter { $0.element == .styleImageMissing(id: "no-such-icon") }
        #expect(missing.count == 1)
        let index = try #require(missing.first?.offset)
        #expect(recorder.payloads[..<index].last { $0 == .renderFrameStarted || $0.frame != nil } == .renderFrameStarted)
    }

    @Test func runtimeImageIsReportedUnusedWhenNoSymbolNeedsIt() async {
        let (map, recorder, _) = await loadStyle(SampleStyle.failing("missing-icon")) { await $0.addStyleImage(id: "no-such-icon") }
        #expect(!recorder.payloads.contains(.styleImageMissing(id: "no-such-icon")))
        #expect(!recorder.payloads.contains(.styleImageRemoveUnused(id: "no-such-icon")))
        await map.setCamera(CameraOptions(center: LngLat(longitude: 10, latitude: 50)))
        _ = await map.run(until: .mapIdle, timeout: .seconds(10))
        #expect(recorder.payloads.filter { $0 == .styleImageRemoveUnused(id: "no-such-icon") }.count == 1)
    }

    @Test func sourcesAreAddedAndRemovedAtRunTime() async throws {
        let (map, recorder, _) = await loadStyle(SampleStyle.url)
        let before = recorder.events.count
        try await map.addSource(StyleSource(id: "points", kind: .geojson, inlineData: .object(JSONObject([("type", .string("FeatureCollection")), ("features", .array([]))]))))
        let added = Array(recorder.payloads[before...])
        #expect(added.first == .sourceAdded(id: "points"))
        #expect(added.dropFirst().first == .sourceDataLoaded(SourceDataLoaded(id: "points", type: .metadata)))
        await #expect(throws: LoadingError.invalidCall("source \"points\" already exists")) { try await map.addSource(StyleSource(id: "points", kind: .video)) }
        await #expect(throws: LoadingError.invalidCall("source \"city\" is in use by layer \"water\"")) { try await map.removeSource(id: "city") }
        try await map.removeSource(id: "points")
        #expect(recorder.payloads.last == .sourceRemoved(id: "points"))
        await #expect(throws: LoadingError.invalidCall("source \"points\" does not exist")) { try await map.removeSource(id: "points") }
    }

    @Test func resourceRequestsDescribeEveryRequest() async throws {
        let (_, recorder, _) = await loadStyle(SampleStyle.url)
        let requests = recorder.payloads.compactMap(\.request)
        // The prefetched tile and all four visible tiles are requested in one update; glyphs only once tiles with text arrived.
        #expect(requests.map(\.request.kind) == [.style, .spriteJSON, .spriteImage, .source, .tile, .tile, .tile, .tile, .tile, .glyphs, .glyphs])
        for request in requests {
            #expect(request.dataSource == .fileSystem)
            #expect(request.request.loadingMethod == .all && request.request.priority == .regular)
            #expect(!request.cancelled && request.response?.source == .localFile && request.response?.error == nil)
            let path = try #require(URL(string: request.request.url)?.path)
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
            #expect(request.response?.size == size)
        }
        #expect(requests.contains { $0.request.url.hasSuffix("glyphs/Mapsim%20Sans%20Regular/256-511.pbf") })
    }

    @Test func movingTheCameraCancelsTilesThatLeftTheView() async throws {
        let (map, recorder, _) = await loadStyle(SampleStyle.url, until: .styleLoaded, timing: FixedLatency(.milliseconds(100)))
        await map.advance(by: .milliseconds(20))
        let inFlight = recorder.payloads.compactMap(\.request).filter { $0.request.kind == .tile }
        #expect(inFlight.isEmpty)
        await map.setCamera(CameraOptions(center: LngLat(longitude: 10, latitude: 50)))
        _ = await map.run(until: .mapIdle, timeout: .seconds(5))
        let cancelled = recorder.payloads.compactMap(\.request).filter(\.cancelled)
        #expect(cancelled.count == 5, "four tiles and the prefetched one")
        #expect(cancelled.allSatisfy { $0.request.kind == .tile && $0.response == nil })
        #expect(recorder.payloads.contains(.mapIdle))
    }

    @Test func theSameLoadGivesTheSameEvents() async {
        let first = await loadStyle(SampleStyle.url, viewport: Viewport(width: 1920, height: 1080), timing: FixedLatency(.milliseconds(3)))
        let second = await loadStyle(SampleStyle.url, viewport: Viewport(width: 1920, height: 1080), timing: FixedLatency(.milliseconds(3)))
        #expect(first.recorder.jsonLines == second.recorder.jsonLines)
        #expect(first.recorder.events.count > 50)
    }

    @Test func retinaScreensLoadTwoXSprites() async {
        let (_, recorder, _) = await loadStyle(SampleStyle.url, viewport: Viewport(width: 512, height: 512, pixelRatio: 2), until: .styleLoaded)
        let urls = recorder.payloads.compactMap(\.request).map(\.request.url)
        #expect(urls.contains { $0.hasSuffix("/sprite@2x.json") } && urls.contains { $0.hasSuffix("/sprite@2x.png") })
    }

    @Test func glyphErrorsAreReportedAndTheTilesStillComplete() async throws {
        let fixture = try sampleCopy()
        try FileManager.default.removeItem(atPath: fixture.path + "/sample/glyphs/Mapsim Sans Regular/256-511.pbf")
        let (_, recorder, outcome) = await loadStyle(fixture.url("sample/style.json"))
        guard case .reached = outcome else { Issue.record("not idle: \(outcome)"); return }
        let errors = recorder.payloads.compactMap(\.loadingError)
        #expect(errors.map(\.type) == [.glyphs])
        #expect(errors.first?.message.contains("256-511.pbf") == true)
    }

    @Test func observersAndTheEventSequenceSeeTheSameStream() async {
        let map = Map(backends: .only(FileResourceLoader(assetRoot: SampleStyle.folder)))
        let stream = map.events
        let log = LockedLog()
        let a = map.subscribe(MapEvents.styleDataLoaded) { log.append("a:\($0.payload.type.rawValue)") }
        let b = map.subscribe(MapEvents.styleDataLoaded) { log.append("b:\($0.payload.type.rawValue)") }
        await map.setStyleURI(SampleStyle.url)
        _ = await map.run(until: .mapIdle, timeout: .seconds(5))
        #expect(log.entries == ["a:style", "b:style", "a:sprite", "b:sprite", "a:sources", "b:sources"])
        var types: [MapEventType] = []
        for await event in stream {
            types.append(event.type)
            if event.type == .mapIdle { break }
        }
        #expect(types.first == .resourceRequest && types.last == .mapIdle && types.count > 40)
        _ = (a, b)
    }
}
