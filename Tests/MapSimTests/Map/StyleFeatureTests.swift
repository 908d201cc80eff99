import Foundation
import Testing
import MapSimJSON
import MapSimStyle
import MapSimTesting
@testable import MapSim

/// What the maps of 2026 use — global state, video sources, MLT tiles — and what an engine that
/// does not draw a feature says of it, on the feature fixtures (styles/features/).
@Suite("Map.StyleFeatures")
struct StyleFeatureTests {
    private static func url(_ fixture: String) -> String {
        URL(fileURLWithPath: SampleStyle.stylesFolder + "/features/\(fixture)/style.json").absoluteString
    }

    private static func load(_ fixture: String, engine: Engine = .maplibreGLJS, camera: CameraOptions = CameraOptions(center: LngLat(longitude: 8.54, latitude: 47.37), zoom: 10),
                             until: Map.State = .mapIdle, timeout: SimTime = .seconds(30), prepare: (Map) async -> Void = { _ in }) async -> (Map, EventRecorder, Map.RunOutcome) {
        let map = Map(backends: .only(FileResourceLoader(assetRoot: "/")), options: Map.Options(engine: engine))
        let recorder = EventRecorder(map)
        await map.setCamera(camera)
        await prepare(map)
        await map.setStyleURI(url(fixture))
        let outcome = await map.run(until: until, timeout: timeout)
        return (map, recorder, outcome)
    }

    private static func glyphRanges(_ recorder: EventRecorder) -> Set<String> {
        Set(recorder.payloads(of: MapEvents.resourceRequest).filter { $0.request.kind == .glyphs }.map { $0.request.url.components(separatedBy: "/").suffix(2).joined(separator: "/") })
    }

    @Test func globalStateIsReadFromTheStylesDefaultsAndASetValue() async {
        let (defaults, recorded, _) = await Self.load("global-state")
        #expect(await defaults.globalState == JSONObject([("label", .string("abc")), ("showRoads", .bool(true)), ("rank", .number(2))]))
        #expect(!Self.glyphRanges(recorded).contains { $0.hasPrefix("Fixture%20Regular/1024-") })
        // Set before the style loads: the Cyrillic label needs its range.
        let (_, set, _) = await Self.load("global-state") { await $0.setGlobalStateProperty("label", .string("Привет")) }
        #expect(Self.glyphRanges(set).contains("Fixture%20Regular/1024-1279.pbf"))
    }

    @Test func aValueSetMidRunLaysTheLayersOutAgainAndAsksForWhatTheyNeedNow() async {
        let (map, recorder, outcome) = await Self.load("global-state")
        guard case .reached = outcome else { Issue.record("\(outcome)"); return }
        let before = recorder.events.count
        let tilesBefore = recorder.payloads(of: MapEvents.resourceRequest).count { $0.request.kind == .tile }
        await map.setGlobalStateProperty("label", .string("Привет"))
        _ = await map.run(until: .mapIdle, timeout: .seconds(10))
        let after = Array(recorder.events.dropFirst(before))
        let requests = after.compactMap { MapEvents.resourceRequest.payload(in: $0.payload) }
        #expect(requests.map(\.request.kind) == [.glyphs], "a vector source is laid out again from its data: only the new range")
        #expect(requests.first?.request.url.hasSuffix("/1024-1279.pbf") == true)
        #expect(after.contains { $0.type == .mapIdle })
        #expect(recorder.payloads(of: MapEvents.resourceRequest).count { $0.request.kind == .tile } == tilesBefore)
        // The same value again changes nothing; null goes back to the default.
        let settled = recorder.events.count
        await map.setGlobalStateProperty("label", .string("Привет"))
        _ = await map.run(until: .mapIdle, timeout: .seconds(1))
        #expect(recorder.events.count == settled)
        await map.setGlobalStateProperty("label", nil)
        #expect(await map.globalState["label"] == .string("abc"))
    }

    @Test func aVisibilityOfGlobalStateHidesItsLayer() async {
        let (map, recorder, _) = await Self.load("global-state")
        #expect(await map.style?.layers.first { $0.id == "roads" }?.isVisible == true)
        let before = Self.glyphRanges(recorder)
        await map.setGlobalStateProperty("showRoads", .bool(false))
        _ = await map.run(until: .mapIdle, timeout: .seconds(10))
        #expect(await map.style?.layers.first { $0.id == "roads" }?.isVisible == false)
        #expect(Self.glyphRanges(recorder) == before)
    }

    @Test func aVideoIsAskedForFromItsFirstByteTheNextURLAfterOneFailsAndTheMapNeverGoesIdle() async {
        let (map, recorder, outcome) = await Self.load("video", camera: CameraOptions(center: LngLat(longitude: 8.54, latitude: 47.37), zoom: 11),
                                                       timeout: .seconds(3))
        guard case .timedOut = outcome else { Issue.record("a playing video keeps the map from going idle: \(outcome)"); return }
        #expect(recorder.events.contains { $0.type == .mapLoaded })
        let videos = recorder.payloads(of: MapEvents.resourceRequest).filter { $0.request.url.contains("/media/") }
        #expect(videos.map { URL(string: $0.request.url)?.lastPathComponent } == ["missing.mp4", "clip.webm"], "the third is never asked for")
        #expect(videos.allSatisfy { $0.request.dataRange == 0...UInt64.max && $0.request.kind == .unknown })
        #expect(await map.readout.playingVideos == ["clip"])
        // MapLibre Native has no video: nothing asked, idle, said once.
        let (_, native, nativeOutcome) = await Self.load("video", engine: .maplibreNative)
        guard case .reached = nativeOutcome else { Issue.record("\(nativeOutcome)"); return }
        #expect(!native.payloads(of: MapEvents.resourceRequest).contains { $0.request.url.contains("/media/") })
        #expect(native.payloads(of: MapEvents.styleFeatureIgnored).map(\.feature) == [.video])
    }

    @Test func anEngineSaysOnceWhatItDoesNotDraw() async {
        let (_, native, _) = await Self.load("terrain", engine: .maplibreNative)
        let ignored = native.payloads(of: MapEvents.styleFeatureIgnored)
        #expect(ignored.map(\.feature) == [.terrain] && ignored.first?.engine == "maplibre-native")
        #expect(ignored.first?.message.contains("no 3D terrain") == true)
        let (_, globe, _) = await Self.load("globe", engine: .maplibreNative, camera: CameraOptions(center: LngLat(longitude: 10, latitude: 46.5), zoom: 3))
        #expect(globe.payloads(of: MapEvents.styleFeatureIgnored).map(\.feature) == [.globe])
        let (mapbox, mapboxEvents, _) = await Self.load("global-state", engine: .mapbox)
        #expect(mapboxEvents.payloads(of: MapEvents.styleFeatureIgnored).map(\.feature) == [.globalState])
        #expect(await mapbox.globalState.members.isEmpty, "the Mapbox SDK reads no global state")
        let (_, glJS, _) = await Self.load("global-state")
        #expect(glJS.payloads(of: MapEvents.styleFeatureIgnored).isEmpty)
    }

    @Test func glJSAsksForTheTerrainsDEMTilesAndNativeForNone() async {
        let camera = CameraOptions(center: LngLat(longitude: 8.54, latitude: 47.37), zoom: 12, pitch: 60)
        let (_, glJS, _) = await Self.load("terrain", camera: camera)
        let dem = glJS.payloads(of: MapEvents.resourceRequest).filter { $0.request.url.contains("/dem/") }
        // The recorded cover: 11/… and 12/… tiles, their parents, and the ancestor at zoom 5.
        #expect(dem.count == 15 && dem.contains { $0.request.url.hasSuffix("/dem/5/16/11.png") }, "\(dem.map(\.request.url))")
        let (_, native, _) = await Self.load("terrain", engine: .maplibreNative, camera: camera)
        #expect(!native.payloads(of: MapEvents.resourceRequest).contains { $0.request.url.contains("/dem/") })
    }

    @Test func mapboxReadsAnExaggerationExpressionAtTheZoomAndItsConfigAsNull() async throws {
        // The terrain fixture with `exaggeration` written five ways; the requests at zoom 12, pitch
        // 60 as Mapbox GL JS 3.0.1 made them: a `["config", …]` reads as null, so the default 1.
        let folder = try FixtureDirectory()
        let fixture = SampleStyle.stylesFolder + "/features/terrain"
        try FileManager.default.copyItem(atPath: fixture, toPath: folder.path + "/terrain")
        let original = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: fixture + "/style.json"))))
        func requests(_ exaggeration: String, schema: String? = nil, engine: Engine = .mapboxGLJS) async throws -> (urls: [String], errors: [String]) {
            var style = try #require(original.objectValue)
            var terrain = try #require(style["terrain"]?.objectValue)
            terrain["exaggeration"] = try JSONParser.parse(Array(exaggeration.utf8))
            style["terrain"] = .object(terrain)
            if let schema { style["schema"] = try JSONParser.parse(Array(schema.utf8)) }
            try Data(JSONWriter.string(.object(style)).utf8).write(to: URL(fileURLWithPath: folder.path + "/terrain/style.json"))
            let map = Map(backends: .only(FileResourceLoader(assetRoot: "/")), options: Map.Options(engine: engine))
            let recorder = EventRecorder(map)
            await map.setCamera(CameraOptions(center: LngLat(longitude: 8.54, latitude: 47.37), zoom: 12, pitch: 60))
            await map.setStyleURI(URL(fileURLWithPath: folder.path + "/terrain/style.json").absoluteString)
            _ = await map.run(until: .mapIdle, timeout: .seconds(30))
            return (recorder.payloads(of: MapEvents.resourceRequest).map(\.request.url).sorted(),
                    recorder.payloads(of: MapEvents.mapLoadingError).map(\.message))
        }
        let one = try await requests("1"), steep = try await requests("1.5")
        #expect(one.urls.count == 49 && steep.urls.count == 53, "\(one.urls.count) \(steep.urls.count)")
        let config = try await requests(#"["config", "x"]"#, schema: #"{"x": {"default": 1.5, "type": "number"}}"#)
        #expect(config.urls == one.urls && config.errors.isEmpty)
        #expect(try await requests(#"["interpolate", ["linear"], ["zoom"], 0, 1, 22, 1]"#).urls == one.urls)
        #expect(try await requests(#"["interpolate", ["linear"], ["zoom"], 10, 0, 14, 3]"#).urls == steep.urls)
        // 0 from an expression of the zoom turns the terrain off: no DEM tile; a constant 0 keeps it.
        let off = try await requests(#"["interpolate", ["linear"], ["zoom"], 0, 0, 22, 0]"#)
        #expect(off.urls.count == 46 && !off.urls.contains { $0.contains("/dem/") }, "\(off.urls.count)")
        let flat = try await requests("0")
        #expect(flat.urls.count == 33 && flat.urls.contains { $0.contains("/dem/") }, "\(flat.urls.count)")
        // MapLibre's `exaggeration` is a number.
        let maplibre = try await requests(#"["interpolate", ["linear"], ["zoom"], 10, 0, 14, 3]"#, engine: .maplibreGLJS)
        #expect(maplibre.errors.contains { $0.contains("exaggeration") }, "\(maplibre.errors)")
    }

    @Test func mapboxGLJSWalksFromAFailedDEMTileTenLevelsBelowTheDEMCoversFirstTile() async throws {
        // The terrain fixture without its DEM tiles: at zoom 11 the DEM cover starts at zoom 9, and
        // Mapbox GL JS 3.0.1 asked each parent down to zoom 0 (ten below 9, not below the view's 11).
        let folder = try FixtureDirectory()
        try FileManager.default.copyItem(atPath: SampleStyle.stylesFolder + "/features/terrain", toPath: folder.path + "/terrain")
        try FileManager.default.removeItem(atPath: folder.path + "/terrain/dem")
        let map = Map(backends: .only(FileResourceLoader(assetRoot: "/")), options: Map.Options(engine: .mapboxGLJS))
        let recorder = EventRecorder(map)
        await map.setCamera(CameraOptions(center: LngLat(longitude: 8.54, latitude: 47.37), zoom: 11))
        await map.setStyleURI(URL(fileURLWithPath: folder.path + "/terrain/style.json").absoluteString)
        _ = await map.run(until: .mapIdle, timeout: .seconds(30))
        let zooms = Set(recorder.payloads(of: MapEvents.resourceRequest).compactMap { request -> Int? in
            guard let range = request.request.url.range(of: "/dem/") else { return nil }
            return Int(request.request.url[range.upperBound...].prefix { $0 != "/" })
        })
        #expect(zooms == Set(0...9), "\(zooms.sorted())")
    }

    @Test func aDEMTileThatDoesNotDecodeIsAnErrorNamingItsURL() async throws {
        // The terrain fixture with one DEM tile cut short.
        let folder = try FixtureDirectory()
        let fixture = SampleStyle.stylesFolder + "/features/terrain"
        try FileManager.default.copyItem(atPath: fixture, toPath: folder.path + "/terrain")
        let png = try Data(contentsOf: URL(fileURLWithPath: fixture + "/dem/5/16/11.png"))
        try png.prefix(png.count / 2).write(to: URL(fileURLWithPath: folder.path + "/terrain/dem/5/16/11.png"))
        let map = Map(backends: .only(FileResourceLoader(assetRoot: "/")), options: Map.Options(engine: .maplibreGLJS))
        let recorder = EventRecorder(map)
        await map.setCamera(CameraOptions(center: LngLat(longitude: 8.54, latitude: 47.37), zoom: 12, pitch: 60))
        await map.setStyleURI(URL(fileURLWithPath: folder.path + "/terrain/style.json").absoluteString)
        let outcome = await map.run(until: .mapIdle, timeout: .seconds(30))
        guard case .reached = outcome else { Issue.record("the map goes idle without the tile's heights: \(outcome)"); return }
        let errors = recorder.payloads(of: MapEvents.mapLoadingError).filter { $0.type == .tile }
        #expect(errors.count == 1 && errors.first?.tileID == CanonicalTileID(z: 5, x: 16, y: 11))
        #expect(errors.first?.message.contains("DEM tile file://\(folder.path)/terrain/dem/5/16/11.png of source \"dem\" does not decode") == true,
                "\(errors.map(\.message))")
    }

    @Test func glJSPlacesSymbolsWithNoFadeUntilItsFirstIdle() async throws {
        // After the last frame that places symbols, MapLibre Native redraws for their 300 ms fade; GL JS's first
        // idle waits for none (MapLibre GL JS 5.24.0's `_idleTriggered`, Mapbox GL JS 3.0.1's `_isInitialLoad`).
        func lastPlacementToIdle(_ events: some BidirectionalCollection<MapEvent>) throws -> SimTime {
            let idle = try #require(events.first { $0.type == .mapIdle }?.begin)
            let placed = try #require(events.last { event in
                guard case .renderFrameFinished(let frame) = event.payload else { return false }
                return frame.placementChanged && event.begin <= idle
            }?.begin)
            return idle - placed
        }
        // The sample style, then a zoom whose tiles place new labels.
        func load(_ engine: Engine) async -> (Map, EventRecorder, Map.RunOutcome) {
            let map = Map(backends: .only(FileResourceLoader(assetRoot: "/")), options: Map.Options(engine: engine))
            let recorder = EventRecorder(map)
            await map.setStyleURI(URL(fileURLWithPath: SampleStyle.folder + "/style.json").absoluteString)
            return (map, recorder, await map.run(until: .mapIdle, timeout: .seconds(30)))
        }
        for engine in [Engine.maplibreNative, .maplibreGLJS, .mapboxGLJS] {
            let (map, recorder, outcome) = await load(engine)
            guard case .reached = outcome else { Issue.record("\(engine): \(outcome)"); continue }
            let first = try lastPlacementToIdle(recorder.events)
            #expect(engine.name == .maplibreNative ? first >= .milliseconds(300) : first < .milliseconds(300), "\(engine): \(first)")
            // Symbols placed once the map has been idle fade in.
            let before = recorder.events.count
            await map.setCamera(CameraOptions(zoom: 11))
            _ = await map.run(until: .mapIdle, timeout: .seconds(10))
            #expect(try lastPlacementToIdle(recorder.events.dropFirst(before)) >= .milliseconds(300), "\(engine)")
        }
    }

    @Test func mapLibreGLJSFadesNoRasterTileOver3DTerrain() async throws {
        // From the last raster tile's answer to idle: MapLibre GL JS 5.24.0 fades raster tiles only without terrain;
        // Mapbox GL JS 3.0.1 fades them over terrain too (300 ms, `raster-fade-duration`'s default).
        let folder = try FixtureDirectory()
        let fixture = SampleStyle.stylesFolder + "/features/terrain"
        try FileManager.default.copyItem(atPath: fixture, toPath: folder.path + "/terrain")
        var original = try #require(JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: fixture + "/style.json")))).objectValue)
        func lastRasterToIdle(terrain: Bool, engine: Engine) async throws -> SimTime {
            if !terrain { original["terrain"] = nil }
            try Data(JSONWriter.string(.object(original)).utf8).write(to: URL(fileURLWithPath: folder.path + "/terrain/style.json"))
            let map = Map(backends: .only(FileResourceLoader(assetRoot: "/")), options: Map.Options(engine: engine))
            let recorder = EventRecorder(map)
            await map.setCamera(CameraOptions(center: LngLat(longitude: 8.54, latitude: 47.37), zoom: 12, pitch: 45))
            await map.setStyleURI(URL(fileURLWithPath: folder.path + "/terrain/style.json").absoluteString)
            guard case .reached(let idle) = await map.run(until: .mapIdle, timeout: .seconds(30)) else { throw CancellationError() }
            let raster = recorder.events.filter { event in
                MapEvents.resourceRequest.payload(in: event.payload)?.request.url.contains("/raster/") == true
            }
            return idle - (try #require(raster.map(\.end).max()))
        }
        #expect(try await lastRasterToIdle(terrain: true, engine: .maplibreGLJS) < .milliseconds(300))
        #expect(try await lastRasterToIdle(terrain: true, engine: .mapboxGLJS) >= .milliseconds(300))
        #expect(try await lastRasterToIdle(terrain: false, engine: .maplibreGLJS) >= .milliseconds(300))
    }

    @Test func mltTilesLoadAsTheSameTilesInMVT() async {
        let camera = CameraOptions(center: LngLat(longitude: 7.448730, latitude: 51.522416), zoom: 13.5)
        var requests: [[String]] = []
        for fixture in ["mlt", "mlt-as-mvt"] {
            let (_, recorder, outcome) = await Self.load(fixture, engine: .maplibreNative, camera: camera)
            guard case .reached = outcome else { Issue.record("\(fixture): \(outcome)"); return }
            #expect(recorder.payloads(of: MapEvents.mapLoadingError).filter { $0.type == .tile }.isEmpty, "\(fixture) decodes")
            requests.append(recorder.payloads(of: MapEvents.resourceRequest).map { request in
                request.request.url.components(separatedBy: "/features/\(fixture)/").last!.replacingOccurrences(of: ".mlt", with: ".pbf")
            })
        }
        #expect(requests[0] == requests[1])
        #expect(requests[0].count { $0.hasPrefix("glyphs/") } >= 3, "\(requests[0])")
    }
}
