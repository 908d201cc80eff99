import Foundation
import Synchronization
import Testing
import MapSimJSON
import MapSimStyle
import MapSimTesting
@testable import MapSim

/// The engines' policies, each against the rule it comes from: MapLibre Native's source (its own
/// test of prefetching), GL JS's source and what it was recorded doing in a browser.
@Suite("Engine")
struct EngineTests {
    /// A loader that answers the style given and every other URL with a small PNG, counting requests.
    final class EveryTile: ResourceLoader {
        let style: [UInt8]
        let png: [UInt8]
        let requested = Mutex<[String]>([])

        init(style: String) throws {
            self.style = Array(style.utf8)
            png = try InputFile.read(SampleStyle.folder + "/sprite.png", limit: 1 << 20)
        }

        func load(_ resource: Resource) async -> Response {
            requested.withLock { $0.append(resource.url) }
            return .success(resource.kind == .style ? style : png, source: .network)
        }

        func handles(_ url: String) -> Bool { true }
    }

    /// The zoom of every tile a raster style of `{z}/{x}/{y}` tiles requests at `zoom` (a 512×512
    /// view in Manhattan, as MapLibre Native's test), with `engine`.
    private func tileZooms(at zoom: Double, engine: Engine, mode: MapMode = .continuous) async throws -> [Int] {
        let loader = try EveryTile(style: #"{"version": 8, "sources": {"raster": {"type": "raster", "tiles": ["https://t/{z}/{x}/{y}.png"], "tileSize": 256, "maxzoom": 20}}, "layers": [{"id": "raster", "type": "raster", "source": "raster"}]}"#)
        let map = Map(backends: .only(loader), options: Map.Options(mode: mode, engine: engine))
        await map.setCamera(CameraOptions(center: LngLat(longitude: -73.992857, latitude: 40.726989), zoom: zoom))
        await map.setStyleURI("https://t/style.json")
        _ = await map.run(until: .mapIdle, timeout: .seconds(10))
        return loader.requested.withLock { $0 }.filter { $0.hasSuffix(".png") }.compactMap { Int($0.split(separator: "/")[2]) }.sorted()
    }

    /// https://t/style.json loaded through `loader` with `engine`, at zoom 2 over 0,0, to map-idle.
    private static func loadAtZoomTwo(_ loader: some ResourceLoader, engine: Engine) async -> (EventRecorder, Map.RunOutcome) {
        let map = Map(backends: .only(loader), options: Map.Options(engine: engine))
        let recorder = EventRecorder(map)
        await map.setCamera(CameraOptions(center: LngLat(longitude: 0, latitude: 0), zoom: 2))
        await map.setStyleURI("https://t/style.json")
        return (recorder, await map.run(until: .mapIdle, timeout: .seconds(10)))
    }

    @Test func glJSLoadsNothingOfAStyleItsCheckRefusesAndNativeLoadsIt() async throws {
        // MapLibre GL JS 5.24.0 in Chromium: one request (the style), the check's error, never idle.
        let style = #"{"version": 8, "sources": {"raster": {"type": "raster", "tiles": ["https://t/{z}/{x}/{y}.png"], "tileSize": 256}}, "layers": [{"id": "raster", "type": "raster", "source": "raster", "paint": {"raster-opacity": "abc"}}]}"#
        for engine in [Engine.maplibreGLJS, .mapboxGLJS, .maplibreNative] {
            let loader = try EveryTile(style: style)
            let (recorder, outcome) = await Self.loadAtZoomTwo(loader, engine: engine)
            let errors = recorder.payloads(of: MapEvents.mapLoadingError).map(\.message)
            if engine.validatesStyles {
                guard case .styleFailed = outcome else { Issue.record("\(engine): \(outcome)"); continue }
                #expect(loader.requested.withLock { $0 } == ["https://t/style.json"], "\(engine)")
                #expect(errors == ["the style https://t/style.json does not load: layers[0].paint.raster-opacity: number expected, string found"], "\(engine): \(errors)")
            } else {
                guard case .reached = outcome else { Issue.record("\(engine): \(outcome)"); continue }
                #expect(loader.requested.withLock { $0 }.count > 1 && errors.isEmpty, "\(engine)")
            }
        }
    }

    @Test func glJSSaysWhatItsCheckRefusesEvenWhereTheStyleDoesNotReadAtAll() async throws {
        // Mapbox GL JS 3.0.1 in Chromium, through mapsim serve: one request, these three errors in
        // this order (a layer type it does not know, before the missing source-layer mapsim's
        // reader stops at); MapLibre Native has no check, and fails on what its reader finds.
        let style = #"{"version": 8, "sources": {"t": {"type": "vector", "tiles": ["https://t/{z}/{x}/{y}.pbf"]}}, "layers": [{"id": "c", "type": "clip", "source": "t", "source-layer": "parks"}, {"id": "rp", "type": "raster-particle", "source": "t"}]}"#
        let loader = try EveryTile(style: style)
        let (recorder, outcome) = await Self.loadAtZoomTwo(loader, engine: .mapboxGLJS)
        guard case .styleFailed = outcome else { Issue.record("\(outcome)"); return }
        let types = "[fill, line, symbol, circle, heatmap, fill-extrusion, raster, hillshade, model, background, sky, slot]"
        #expect(recorder.payloads(of: MapEvents.mapLoadingError).map(\.message) == [
            "the style https://t/style.json does not load: layers[0].type: expected one of \(types), \"clip\" found; "
                + "layers[1]: layer \"rp\" must specify a \"source-layer\"; layers[1].type: expected one of \(types), \"raster-particle\" found",
        ])
        let native = try EveryTile(style: style)
        let (nativeRecorder, _) = await Self.loadAtZoomTwo(native, engine: .maplibreNative)
        let nativeErrors = nativeRecorder.payloads(of: MapEvents.mapLoadingError).map(\.message)
        #expect(nativeErrors.count == 1 && nativeErrors[0].hasPrefix("failed to parse the style https://t/style.json: "), "\(nativeErrors)")
        #expect(loader.requested.withLock { $0 } == ["https://t/style.json"])
    }

    @Test func nativePrefetchesTheViewDeltaZoomsBelowAsItsOwnTestSays() async throws {
        // MapLibre Native's Map.PrefetchTiles: nine ideal tiles and one prefetched, at the delta below.
        #expect(try await tileZooms(at: 12, engine: .maplibreNative) == [9] + Array(repeating: 13, count: 9))
        var engine = Engine.maplibreNative
        engine.prefetch = .zoomDelta(0)
        #expect(try await tileZooms(at: 10, engine: engine) == Array(repeating: 11, count: 9), "0 turns prefetching off")
        engine.prefetch = .zoomDelta(5)
        #expect(try await tileZooms(at: 12, engine: engine) == [8] + Array(repeating: 13, count: 9))
        engine.prefetch = .zoomDelta(20)
        #expect(try await tileZooms(at: 10, engine: engine) == [0] + Array(repeating: 11, count: 9), "clamped at the minzoom")
        #expect(try await tileZooms(at: 12, engine: .maplibreNative, mode: .still) == Array(repeating: 13, count: 9), "a still image prefetches nothing")
        #expect(try await tileZooms(at: 12, engine: .maplibreGLJS).allSatisfy { $0 == 13 }, "GL JS prefetches nothing")
    }

    @Test func mapboxPrefetchesAZoomThatIsAMultipleOfTheDelta() {
        #expect(Engine.mapbox.prefetchZoom(tileZoom: 13, minZoom: 0) == 8)
        #expect(Engine.mapbox.prefetchZoom(tileZoom: 12, minZoom: 0) == 8)
        #expect(Engine.mapbox.prefetchZoom(tileZoom: 11, minZoom: 0) == 4)
        #expect(Engine.mapbox.prefetchZoom(tileZoom: 5, minZoom: 2) == 2)
        #expect(Engine.maplibreNative.prefetchZoom(tileZoom: 13, minZoom: 0) == 9)
        #expect(Engine.maplibreGLJS.prefetchZoom(tileZoom: 13, minZoom: 0) == nil)
    }

    @Test func glJSCoversTilesTouchingTheViewsEdgeAndNativeDoesNot() {
        // A 512×512 view at zoom 10 centred on a tile's centre: its edges lie on the tile's edges.
        let middle = LngLat(longitude: WebMercator.longitude(x: 163.5 / 1024), latitude: WebMercator.latitude(y: 395.5 / 1024))
        let camera = Camera(center: middle, zoom: 10)
        let viewport = Viewport(width: 512, height: 512)
        let native = Set(TileCover.tiles(covering: ViewportQuad(camera: camera, viewport: viewport), atZoom: 10).map { "\($0.canonical)" })
        let gljs = Set(TilePyramid(rounding: .floor).visibleTiles(camera: camera, viewport: viewport, frustum: true).map { "\($0.canonical)" })
        #expect(native == ["10/163/395"])
        // GL JS's frustum, in its floating point, reaches a hair past the top, bottom and left
        // edges and stops a hair short of the right one: the tiles beyond those three are taken
        // (as GL JS's cover, ported and checked against recordings, takes them).
        #expect(gljs == ["10/162/394", "10/162/395", "10/162/396", "10/163/394", "10/163/395", "10/163/396"], "\(gljs.sorted())")
    }

    @Test func glJSTakesTheTilesNearARotatedViewsCornersThatNoPlaneLeavesOutside() {
        let camera = Camera(center: LngLat(longitude: 8.4442, latitude: 47.2865), zoom: 12, bearing: 100.63)
        let viewport = Viewport(width: 1280, height: 720)
        let native = Set(TileCover.tiles(covering: ViewportQuad(camera: camera, viewport: viewport), atZoom: 12).map { "\($0.canonical)" })
        let gljs = Set(TilePyramid(rounding: .floor).visibleTiles(camera: camera, viewport: viewport, frustum: true).map { "\($0.canonical)" })
        // Recorded: GL JS asked for 12/2145/1434, which the view's quad misses.
        #expect(gljs.contains("12/2145/1434") && !native.contains("12/2145/1434"))
        #expect(gljs.isSuperset(of: native))
    }

    /// The glyph URLs a GeoJSON label of `name` needs with `engine`.
    private func glyphRequests(_ name: String, engine: Engine, fonts: [String] = ["Noto Sans Regular"]) async throws -> [String] {
        let feature = JSONWriter.string(.object(JSONObject([("type", .string("Feature")), ("properties", .object(JSONObject([("name", .string(name))]))),
                                                             ("geometry", .object(JSONObject([("type", .string("Point")), ("coordinates", .array([.number(0), .number(0)]))])))])))
        let fontList = JSONWriter.string(.array(fonts.map { .string($0) }))
        let style = #"{"version": 8, "glyphs": "https://t/fonts/{fontstack}/{range}.pbf", "sources": {"p": {"type": "geojson", "data": \#(feature)}}, "layers": [{"id": "l", "type": "symbol", "source": "p", "layout": {"text-field": ["get", "name"], "text-font": \#(fontList)}}]}"#
        let loader = try EveryTile(style: style)
        let map = Map(backends: .only(loader), options: Map.Options(engine: engine))
        await map.setCamera(CameraOptions(center: LngLat(longitude: 0, latitude: 0), zoom: 2))
        await map.setStyleURI("https://t/style.json")
        _ = await map.run(until: .mapLoaded, timeout: .seconds(10))
        return loader.requested.withLock { $0 }.filter { $0.contains("/fonts/") }.map { String($0.dropFirst("https://t/fonts/".count)) }.sorted()
    }

    @Test func glJSDrawsIdeographsHangulAndKanaLocallyAndAsksForTheRestByCodePoint() async throws {
        let text = "Tōkyō 東京 서울 とうきょう · ⛰ 😀 القاهرة"
        let native = try await glyphRequests(text, engine: .maplibreNative)
        let gljs = try await glyphRequests(text, engine: .maplibreGLJS)
        // Native: every UTF-16 unit's range, Arabic shaped to its presentation forms, the emoji as surrogates.
        #expect(native.contains("Noto%20Sans%20Regular/19968-20223.pbf") && native.contains("Noto%20Sans%20Regular/49408-49663.pbf"))
        #expect(native.contains("Noto%20Sans%20Regular/65024-65279.pbf") && native.contains("Noto%20Sans%20Regular/55296-55551.pbf"))
        // GL JS: no range of a character drawn locally; the letters as written; the emoji's own range.
        #expect(gljs == ["Noto%20Sans%20Regular/0-255.pbf", "Noto%20Sans%20Regular/1536-1791.pbf", "Noto%20Sans%20Regular/256-511.pbf",
                         "Noto%20Sans%20Regular/9728-9983.pbf", "Noto%20Sans%20Regular/128512-128767.pbf"].sorted(), "\(gljs)")
        #expect(try await glyphRequests(text, engine: Engine.maplibreGLJS.localIdeographs(nil)).contains("Noto%20Sans%20Regular/19968-20223.pbf"),
                "with no local font, ideographs load")
        // Mapbox draws CJK Unified Ideographs and Hangul Syllables locally, not kana.
        let mapbox = try await glyphRequests(text, engine: .mapbox)
        #expect(!mapbox.contains("Noto%20Sans%20Regular/19968-20223.pbf") && !mapbox.contains("Noto%20Sans%20Regular/49408-49663.pbf")
                && mapbox.contains("Noto%20Sans%20Regular/12288-12543.pbf"))
    }

    @Test func aBrowserSpellsAFontStacksCommasAsTheyAre() async throws {
        let gljs = try await glyphRequests("a", engine: .maplibreGLJS, fonts: ["Open Sans Bold", "Arial Unicode MS Regular"])
        #expect(gljs == ["Open%20Sans%20Bold,Arial%20Unicode%20MS%20Regular/0-255.pbf"])
        let native = try await glyphRequests("a", engine: .maplibreNative, fonts: ["Open Sans Bold", "Arial Unicode MS Regular"])
        #expect(native == ["Open%20Sans%20Bold%2cArial%20Unicode%20MS%20Regular/0-255.pbf"])
        #expect(GlyphURL.browserEncode("Noto Sans, Ünï#") == "Noto%20Sans,%20%C3%9Cn%C3%AF%23")
    }

    @Test func localIdeographsAreGLJSsOwnRanges() {
        let local = LocalIdeographs(fontFamily: "sans-serif", codePoints: .mapLibreGLJS)
        for drawn: UInt32 in [0x4E00, 0x6771, 0xAC00, 0x3042, 0x30A2, 0x3001, 0xFF01, 0x20000] { #expect(local.drawsLocally(drawn), "U+\(String(drawn, radix: 16))") }
        for loaded: UInt32 in [0x41, 0x627, 0x26F0, 0x1F600, 0x3040 - 0x1041] { #expect(!local.drawsLocally(loaded), "U+\(String(loaded, radix: 16))") }
    }

    /// A loader that answers each URL as `answer` says, counting requests.
    final class Answering: ResourceLoader {
        let answer: @Sendable (Resource) -> Response
        let requested = Mutex<[String]>([])

        init(_ answer: @escaping @Sendable (Resource) -> Response) {
            self.answer = answer
        }

        func load(_ resource: Resource) async -> Response {
            requested.withLock { $0.append(resource.url) }
            return answer(resource)
        }

        func handles(_ url: String) -> Bool { true }
    }

    @Test func glJSLooksForAMissingRasterTilesParentsTenLevelsBelowTheCoveringZoomAndNativeToTheMinzoom() async throws {
        let style = Array(#"{"version": 8, "sources": {"r": {"type": "raster", "tiles": ["https://t/{z}/{x}/{y}.png"], "tileSize": 256, "minzoom": 0, "maxzoom": 14}}, "layers": [{"id": "r", "type": "raster", "source": "r"}]}"#.utf8)
        func parentZooms(_ engine: Engine) async -> Set<Int> {
            // Every tile is missing: a 404 is no content, and the walk goes on up.
            let loader = Answering { resource in
                guard resource.kind == .tile else { return .success(style, source: .network) }
                var missing = Response(noContent: true, source: .network)
                missing.notFound = true
                return missing
            }
            let map = Map(backends: .only(loader), options: Map.Options(mode: .still, engine: engine))
            await map.setCamera(CameraOptions(center: LngLat(longitude: 8.54, latitude: 47.37), zoom: 17))
            await map.setStyleURI("https://t/style.json")
            _ = await map.run(until: .mapIdle, timeout: .seconds(30))
            return Set(loader.requested.withLock { $0 }.filter { $0.hasSuffix(".png") }.compactMap { Int($0.split(separator: "/")[2]) })
        }
        // Covering zoom round(17 + 1) = 18; the tiles are the maxzoom's, 14.
        #expect(await parentZooms(.maplibreGLJS) == Set(8...14), "down to 18 - 10")
        #expect(await parentZooms(.maplibreNative) == Set(0...14), "down to the minzoom")
    }

    @Test func glJSLooksForAFailedTilesParentAtItsNextUpdateWhichNewDataStarts() async throws {
        let style = Array(#"{"version": 8, "sprite": "https://t/sprite", "sources": {"v": {"type": "vector", "tiles": ["https://t/{z}/{x}/{y}.pbf"]}}, "layers": [{"id": "v", "type": "line", "source": "v", "source-layer": "x"}]}"#.utf8)
        let sprite = try InputFile.read(SampleStyle.folder + "/sprite.png", limit: 1 << 20)
        let index = try InputFile.read(SampleStyle.folder + "/sprite.json", limit: 1 << 20)
        func requests(_ engine: Engine, spriteLast: Bool) async -> [String] {
            let loader = Answering { resource in
                switch resource.kind {
                case .style: .success(style, source: .network)
                case .spriteImage: .success(sprite, source: .network)
                case .spriteJSON: .success(index, source: .network)
                default: resource.url.contains("/10/") ? .failure(.server, "HTTP 503", source: .network) : Response(noContent: true, source: .network)
                }
            }
            let timing = FixedLatency(.milliseconds(10), extra: spriteLast ? [("sprite", .milliseconds(500))] : [])
            let map = Map(backends: .only(loader), options: Map.Options(engine: engine), timing: timing)
            await map.setCamera(CameraOptions(center: LngLat(longitude: 8.54, latitude: 47.37), zoom: 10))
            await map.setStyleURI("https://t/style.json")
            _ = await map.run(until: .mapIdle, timeout: .seconds(30))
            return loader.requested.withLock { $0 }.filter { $0.hasSuffix(".pbf") }
        }
        let sprite9 = await requests(.maplibreGLJS, spriteLast: true)
        #expect(sprite9.contains { $0.contains("/9/") }, "the sprite came after the failures: parents at z9 \(sprite9)")
        #expect(await requests(.maplibreGLJS, spriteLast: false).allSatisfy { $0.contains("/10/") }, "nothing new after the failures: no parents")
        #expect(await requests(.maplibreNative, spriteLast: true).allSatisfy { !$0.contains("/9/") }, "MapLibre Native retries the tile instead")
    }

    /// Measured through `mapsim serve`: MapLibre GL JS 5.24.0 and Mapbox GL JS 3.0.1 report a source
    /// whose TileJSON or GeoJSON is 404 and go idle without it; MapLibre Native waits for it.
    @Test func glJSGoesIdleWithoutASourceWhoseMetadataFailsAndNativeWaitsForIt() async throws {
        let style = Array(#"""
            {"version": 8, "sources": {"a": {"type": "vector", "url": "https://t/a.json"}, "gone": {"type": "vector", "url": "https://t/gone.json"},
             "none": {"type": "geojson", "data": "https://t/none.geojson"}},
             "layers": [{"id": "a", "type": "line", "source": "a", "source-layer": "l"}, {"id": "g", "type": "line", "source": "gone", "source-layer": "l"},
                        {"id": "n", "type": "line", "source": "none"}]}
            """#.utf8)
        let tileJSON = Array(#"{"tiles": ["https://t/{z}/{x}/{y}.pbf"], "maxzoom": 14}"#.utf8)
        for engine in [Engine.maplibreGLJS, .mapboxGLJS, .maplibreNative, .mapbox] {
            let loader = Answering { resource in
                switch resource.url {
                case "https://t/style.json": .success(style, source: .network)
                case "https://t/a.json": .success(tileJSON, source: .network)
                case let url where url.hasSuffix(".pbf"): Response(noContent: true, source: .network)
                default: .failure(.notFound, "HTTP 404 Not Found", source: .network)
                }
            }
            let (recorder, outcome) = await Self.loadAtZoomTwo(loader, engine: engine)
            let errors = recorder.payloads(of: MapEvents.mapLoadingError).map(\.sourceID)
            #expect(Set(errors) == ["gone", "none"], "\(engine): \(errors)")
            if engine.settlesFailedSources {
                guard case .reached = outcome else { Issue.record("\(engine): \(outcome)"); continue }
                #expect(recorder.firstIndex(of: .styleLoaded) != nil && recorder.firstIndex(of: .mapLoaded) != nil, "\(engine)")
            } else {
                guard case .timedOut = outcome else { Issue.record("\(engine): \(outcome)"); continue }
                #expect(recorder.firstIndex(of: .styleLoaded) == nil, "\(engine)")
            }
        }
    }

    @Test func aRasterTileNotFoundDrawsNoFrameInEitherGLJSAndOneWithNoContentIsEachEnginesOwn() async throws {
        // A raster basemap whose tile URL is wrong. (The style's default 300 ms transition animates Native's first
        // frames, not GL JS's: nothing there has a prior value to transition from.)
        let style = Array(#"""
            {"version": 8, "sources": {"r": {"type": "raster", "tiles": ["https://t/{z}/{x}/{y}.png"], "tileSize": 256}},
             "layers": [{"id": "r", "type": "raster", "source": "r"}]}
            """#.utf8)
        // A hillshade whose DEM's tile URL is wrong.
        let hillshade = Array(#"""
            {"version": 8, "sources": {"dem": {"type": "raster-dem", "tiles": ["https://t/{z}/{x}/{y}.png"], "tileSize": 256}},
             "layers": [{"id": "h", "type": "hillshade", "source": "dem"}]}
            """#.utf8)
        func run(_ engine: Engine, notFound: Bool, style: [UInt8] = style) async -> (tiles: Int, errors: [String], outcome: Map.RunOutcome, loaded: Bool) {
            let loader = Answering { resource in
                guard resource.kind == .tile else { return .success(style, source: .network) }
                var empty = Response(noContent: true, source: .network)
                empty.notFound = notFound
                return empty
            }
            let (recorder, outcome) = await Self.loadAtZoomTwo(loader, engine: engine)
            return (loader.requested.withLock { $0 }.count - 1, recorder.payloads(of: MapEvents.mapLoadingError).map(\.message), outcome,
                    recorder.firstIndex(of: .mapLoaded) != nil)
        }
        // 404: every engine loads the parents in place of the tiles (zoom 2's, then 1's, then 0's); MapLibre GL JS 5.24.0
        // and Mapbox GL JS 3.0.1 (measured through `serve --fault '*/raster/*=404'`, and '*/dem/*=404' under a hillshade:
        // never idle, 4 runs of 4 and 2 of 2) fire no event for them and draw no frame after the last, so they never go
        // idle, nor loaded.
        for engine in [Engine.maplibreNative, .mapbox, .maplibreGLJS, .mapboxGLJS] {
            #expect(engine.notFoundImageTileRedraws == [Engine.maplibreNative, .mapbox].contains(engine), "\(engine)")
            for (name, tried) in [("raster", style), ("hillshade", hillshade)] {
                let missing = await run(engine, notFound: true, style: tried)
                #expect(missing.tiles > 4 && missing.errors.isEmpty, "\(engine) \(name): \(missing.tiles) tiles, \(missing.errors)")
                if engine.notFoundImageTileRedraws {
                    guard case .reached = missing.outcome else { Issue.record("\(engine) \(name): \(missing.outcome)"); continue }
                } else {
                    guard case .timedOut = missing.outcome else { Issue.record("\(engine) \(name): \(missing.outcome)"); continue }
                    #expect(!missing.loaded, "\(engine) \(name)")
                }
            }
        }
        // 204: MapLibre Native loads the parent, as for a 404; MapLibre GL JS draws the tile empty; Mapbox GL JS fails
        // it, and with no new data its sources never update to look for parents. Both GL JS go idle on their view's tiles.
        for engine in [Engine.maplibreNative, .maplibreGLJS, .mapboxGLJS] {
            let empty = await run(engine, notFound: false)
            let missing = await run(engine, notFound: true)
            guard case .reached = empty.outcome else { Issue.record("\(engine): \(empty.outcome)"); continue }
            switch engine.noContentImageTile {
            case .loadsParent:
                #expect(empty.tiles == missing.tiles && empty.errors.isEmpty, "\(engine)")
            case .drawnEmpty:
                #expect(empty.tiles < missing.tiles && empty.errors.isEmpty, "\(engine)")
            case .fails:
                #expect(empty.tiles < missing.tiles, "\(engine)")
                #expect(empty.errors.count == empty.tiles && empty.errors.allSatisfy { $0.contains("came with no content (HTTP 204): mapbox-gl-js cannot decode it") },
                        "\(empty.errors)")
            }
        }
    }

    @Test func aTileThatFailsDrawsNoFrameInMapLibreGLJSSoAMapWhoseServerFailsEveryTileNeverGoesIdle() async throws {
        // Every tile answered 503, vector and raster alike: MapLibre GL JS 5.24.0 (measured on the sample style
        // through `serve --fault '*/tiles/*=503'`, 6 runs of 6; 3 of 4 with 500) fires `error` for each and draws
        // no frame after the last, so it never goes idle; Mapbox GL JS 3.0.1 redraws and goes idle (3 runs).
        for type in ["vector", "raster"] {
            let style = Array(#"{"version": 8, "sources": {"s": {"type": "\#(type)", "tiles": ["https://t/{z}/{x}/{y}"]}}, "layers": [{"id": "l", "type": "\#(type == "vector" ? "fill" : "raster")", "source": "s"\#(type == "vector" ? #", "source-layer": "l""# : "")}]}"#.utf8)
            for engine in [Engine.maplibreGLJS, .mapboxGLJS] {
                let loader = Answering { resource in
                    resource.kind == .tile ? .failure(.server, "HTTP 503 server error: \(resource.url)", source: .network) : .success(style, source: .network)
                }
                let (recorder, outcome) = await Self.loadAtZoomTwo(loader, engine: engine)
                let errors = recorder.payloads(of: MapEvents.mapLoadingError).map(\.message)
                #expect(errors.count == loader.requested.withLock { $0 }.count - 1 && errors.count >= 4, "\(engine) \(type): \(errors)")
                if engine.failedTileRedraws {
                    guard case .reached = outcome else { Issue.record("\(engine) \(type): \(outcome)"); continue }
                } else {
                    guard case .timedOut(_, let nothingPending) = outcome else { Issue.record("\(engine) \(type): \(outcome)"); continue }
                    #expect(nothingPending && recorder.firstIndex(of: .mapLoaded) == nil, "\(engine) \(type)")
                }
            }
        }
    }

    @Test func glJSDrawsAGlyphRangeItCannotLoadLocallyAndFailsTilesOnAGlyphWithoutItsSize() async throws {
        let feature = #"{"type": "Feature", "properties": {"name": "a b"}, "geometry": {"type": "Point", "coordinates": [0, 0]}}"#
        let style = Array(#"{"version": 8, "glyphs": "https://t/fonts/{fontstack}/{range}.pbf", "sources": {"p": {"type": "geojson", "data": \#(feature)}}, "layers": [{"id": "l", "type": "symbol", "source": "p", "layout": {"text-field": ["get", "name"], "text-font": ["F"]}}]}"#.utf8)
        func run(_ engine: Engine, glyphs: Response) async -> (errors: [MapLoadingError], outcome: Map.RunOutcome) {
            let loader = Answering { $0.kind == .style ? .success(style, source: .network) : glyphs }
            let map = Map(backends: .only(loader), options: Map.Options(engine: engine))
            let recorder = EventRecorder(map)
            await map.setStyleURI("https://t/style.json")
            let outcome = await map.run(until: .mapIdle, timeout: .seconds(10))
            return (recorder.payloads(of: MapEvents.mapLoadingError), outcome)
        }
        let unavailable = Response.failure(.server, "HTTP 503", source: .network)
        let drawn = await run(.maplibreGLJS, glyphs: unavailable)
        #expect(drawn.errors.isEmpty, "GL JS warns on the console and draws the range locally")
        guard case .reached = drawn.outcome else { Issue.record("\(drawn.outcome)"); return }
        #expect(await run(.maplibreNative, glyphs: unavailable).errors.map(\.type) == [.glyphs])
        // The sample's old glyph range: a space without width and height.
        let unsized = try InputFile.read(SampleStyle.folder + "/glyphs/Mapsim Sans Regular/0-255.pbf", limit: 1 << 20)
        var set = try GlyphSet.decode(unsized)
        #expect(set.unsized.isEmpty, "the sample's ranges give every glyph its size")
        let stack = Array("F".utf8)
        let space = [0x08, 0x20, 0x28, 0x02, 0x30, 0x04, 0x38, 0x0C]
        let broken = [UInt8(0x0A), UInt8(stack.count + 2 + space.count + 2)] + [0x0A, UInt8(stack.count)] + stack + [0x1A, UInt8(space.count)] + space.map(UInt8.init)
        set = try GlyphSet.decode(broken)
        #expect(set.unsized.map(\.codePoint) == [32])
        let rejected = await run(.maplibreGLJS, glyphs: .success(broken, source: .network))
        #expect(rejected.errors.map(\.type) == [.glyphs] && rejected.errors.first?.message.contains("mismatched image size. expected: 0 but got: NaN") == true)
        guard case .timedOut = rejected.outcome else { Issue.record("GL JS never goes idle on it: \(rejected.outcome)"); return }
        let skipped = await run(.maplibreNative, glyphs: .success(broken, source: .network))
        #expect(skipped.errors.isEmpty, "MapLibre Native skips the glyph")
    }

    /// Measured in Mapbox GL JS 3.0.1 through `mapsim serve`: a GeoJSON label that needs a range the
    /// server lacks (404) asked for it eleven times at zoom 11.6 — the tile, then each parent in its
    /// place down to ten levels below — and the map loaded but never went idle; the same text in
    /// vector tiles asked once, was drawn locally, and the map went idle.
    @Test func mapboxGLJSFailsAGeoJSONTileOnAMissingRangeThenEachParentAndNeverGoesIdle() async throws {
        let fixture = try FixtureDirectory()
        try fixture.copy(folder: SampleStyle.folder, to: "s")
        try FileManager.default.removeItem(atPath: fixture.path + "/s/glyphs/Mapsim Sans Regular/768-1023.pbf")
        let point = #"{"type": "Feature", "properties": {"name": "Ωmega"}, "geometry": {"type": "Point", "coordinates": [-122.4, 37.8]}}"#
        let font = #""text-font": ["Mapsim Sans Regular"]"#
        _ = try fixture.write("s/geojson.json", #"{"version": 8, "glyphs": "glyphs/{fontstack}/{range}.pbf", "sources": {"p": {"type": "geojson", "data": \#(point)}}, "layers": [{"id": "l", "type": "symbol", "source": "p", "layout": {"text-field": ["get", "name"], \#(font)}}]}"#)
        _ = try fixture.write("s/overscaled.json", #"{"version": 8, "glyphs": "glyphs/{fontstack}/{range}.pbf", "sources": {"p": {"type": "geojson", "maxzoom": 10, "data": \#(point)}}, "layers": [{"id": "l", "type": "symbol", "source": "p", "layout": {"text-field": ["get", "name"], \#(font)}}]}"#)
        _ = try fixture.write("s/vector.json", #"{"version": 8, "glyphs": "glyphs/{fontstack}/{range}.pbf", "sources": {"city": {"type": "vector", "url": "tiles.json"}}, "layers": [{"id": "l", "type": "symbol", "source": "city", "source-layer": "places", "layout": {"text-field": ["concat", ["get", "name"], " Ω"], \#(font)}}]}"#)
        _ = try fixture.write("s/point.geojson", point)
        let both = #"{"p": {"type": "geojson", "data": "point.geojson"}, "city": {"type": "vector", "url": "tiles.json"}}"#
        _ = try fixture.write("s/both.json", #"{"version": 8, "glyphs": "glyphs/{fontstack}/{range}.pbf", "sources": \#(both), "layers": [{"id": "l", "type": "symbol", "source": "p", "layout": {"text-field": ["get", "name"], \#(font)}}, {"id": "v", "type": "symbol", "source": "city", "source-layer": "places", "layout": {"text-field": ["concat", ["get", "name"], " Ω"], \#(font)}}]}"#)
        func run(_ style: String, _ engine: Engine, zoom: Double = 11.6, slow: [(contains: String, delay: SimTime)] = []) async
            -> (asks: Int, events: [MapEventType], outcome: Map.RunOutcome, blocking: [String]) {
            let network = SimulatedNetwork(mirrors: [.init(prefix: "https://maps.test/", directory: fixture.path + "/s")])
            let map = Map(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), network: network), options: Map.Options(engine: engine),
                          timing: FixedLatency(.milliseconds(10), extra: slow))
            let recorder = EventRecorder(map)
            await map.setCamera(CameraOptions(center: LngLat(longitude: -122.4, latitude: 37.8), zoom: zoom))
            await map.setStyleURI("https://maps.test/\(style)")
            let outcome = await map.run(until: .mapIdle, timeout: .seconds(30))
            let asks = recorder.payloads(of: MapEvents.resourceRequest).filter { $0.request.url.hasSuffix("/768-1023.pbf") }.count
            return (asks, recorder.events.map(\.type), outcome, await map.readout.glyphFailedGeoJSONSources)
        }
        let geoJSON = await run("geojson.json", .mapboxGLJS)
        #expect(geoJSON.asks == 11, "z11, then its parents down to z1")
        #expect(geoJSON.events.contains(.mapLoaded) && !geoJSON.events.contains(.mapLoadingError))
        guard case .timedOut = geoJSON.outcome else { Issue.record("Mapbox GL JS never goes idle: \(geoJSON.outcome)"); return }
        #expect(geoJSON.blocking == [#""p""#])
        // Past the source's maxzoom, each overscaled level is a parent of its own (z12 and z11 of the
        // same z10 tile), and asks again: eleven at zoom 12.4 as at 11.6 (measured: 11 and 11).
        #expect(await run("overscaled.json", .mapboxGLJS, zoom: 12.4).asks == 11)
        // Nearer the world tile the walk stops at zoom 0: nine at zoom 8.5 (measured: 9).
        #expect(await run("geojson.json", .mapboxGLJS, zoom: 8.5).asks == 9)
        let vector = await run("vector.json", .mapboxGLJS)
        #expect(vector.asks == 1 && vector.blocking.isEmpty)
        guard case .reached = vector.outcome else { Issue.record("vector tiles draw the range locally: \(vector.outcome)"); return }
        // The range is forgotten whoever asked for it: a GeoJSON tile laid out after the vector
        // tiles' ask failed asks again, fails, and its parents ask (measured through `mapsim serve`
        // with the GeoJSON data 300 ms late: 12 and 13 asks in two runs).
        let mixed = await run("both.json", .mapboxGLJS, slow: [("point.geojson", .milliseconds(300))])
        #expect(mixed.asks == 12 && mixed.blocking == [#""p""#], "\(mixed.asks)")
        // MapLibre GL JS and the SDK ask once and go idle.
        for engine in [Engine.maplibreGLJS, .mapbox] {
            let other = await run("geojson.json", engine)
            #expect(other.asks == 1, "\(engine)")
            guard case .reached = other.outcome else { Issue.record("\(engine): \(other.outcome)"); continue }
        }
    }
}
