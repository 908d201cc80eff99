import Foundation
import Testing
import MapSimJSON
import MapSimStyle
import MapSimTesting
@testable import MapSim

/// Mapbox style imports as the Mapbox engines load them: the requests in their order, everything an
/// import declares in its scope, slots, config, and what a cycle, a depth beyond 5, a duplicate id
/// and a failed import do — on small styles written beside a copy of the sample's data.
@Suite("Map.StyleImports")
struct StyleImportTests {
    /// A folder with the sample's data and `styles` written beside it (name → JSON text).
    private static func folder(_ styles: [String: String]) throws -> FixtureDirectory {
        let fixture = try FixtureDirectory()
        try fixture.copy(folder: SampleStyle.folder, to: "s")
        for (name, text) in styles { _ = try fixture.write("s/\(name)", text) }
        return fixture
    }

    private static func load(_ fixture: FixtureDirectory, _ name: String = "root.json", engine: Engine = .mapbox,
                             camera: CameraOptions? = CameraOptions(center: LngLat(longitude: -122.4, latitude: 37.8), zoom: 10),
                             prepare: (Map) async -> Void = { _ in }) async -> (Map, EventRecorder, Map.RunOutcome) {
        let map = Map(backends: .only(FileResourceLoader(assetRoot: "/")), options: Map.Options(engine: engine))
        let recorder = EventRecorder(map)
        if let camera { await map.setCamera(camera) }
        await prepare(map)
        await map.setStyleURI(URL(fileURLWithPath: fixture.path + "/s/" + name).absoluteString)
        let outcome = await map.run(until: .mapIdle, timeout: .seconds(30))
        return (map, recorder, outcome)
    }

    private static func requests(_ recorder: EventRecorder) -> [ResourceRequest] {
        recorder.payloads(of: MapEvents.resourceRequest)
    }

    /// A style importing `imports` (JSON text of the array), with `extra` members.
    private static func style(imports: String = "[]", sources: String = "{}", layers: String = "[]", extra: String = "") -> String {
        #"{"version": 8, "glyphs": "glyphs/{fontstack}/{range}.pbf", "imports": \#(imports), "sources": \#(sources), "layers": \#(layers)\#(extra)}"#
    }

    private static let city = #"{"city": {"type": "vector", "url": "tiles.json"}}"#
    private static let places = #"[{"id": "places", "type": "symbol", "source": "city", "source-layer": "places", "layout": {"text-field": "{name}", "text-font": ["Mapsim Sans Regular"]}}]"#

    @Test func eachImportIsRequestedAfterItsParentsPartsAndLoadsItsOwnSourcesInItsScope() async throws {
        let fixture = try Self.folder([
            "root.json": Self.style(imports: #"[{"id": "a", "url": "a.json"}, {"id": "inline", "url": "", "data": {"version": 8, "sources": {}, "layers": []}}]"#,
                                    sources: Self.city, layers: Self.places),
            "a.json": Self.style(imports: #"[{"id": "a2", "url": "a2.json"}]"#, sources: Self.city, layers: Self.places, extra: #", "sprite": "sprite""#),
            "a2.json": Self.style(sources: Self.city, layers: Self.places),
        ])
        let (_, recorder, outcome) = await Self.load(fixture)
        guard case .reached = outcome else { Issue.record("\(outcome)"); return }
        let styles = Self.requests(recorder).filter { $0.request.kind == .style }
        #expect(styles.map { $0.request.url.components(separatedBy: "/").last ?? "" } == ["root.json", "a.json", "a2.json"], "the inline import asks for nothing")
        #expect(styles.map(\.request.scope) == [.root, StyleScope(path: ["a"]), StyleScope(path: ["a", "a2"])])
        // Each style's own TileJSON, sprite and tiles, in its scope, even with the same URLs.
        let tileJSONs = Self.requests(recorder).filter { $0.request.kind == .source }
        #expect(Set(tileJSONs.map(\.request.scope)) == [.root, StyleScope(path: ["a"]), StyleScope(path: ["a", "a2"])])
        let sprites = Self.requests(recorder).filter { $0.request.kind == .spriteJSON }
        #expect(sprites.map(\.request.scope) == [StyleScope(path: ["a"])])
        let tiles = Self.requests(recorder).filter { $0.request.kind == .tile }
        let perScope = Dictionary(grouping: tiles, by: \.request.scope).mapValues(\.count)
        #expect(perScope.count == 3 && Set(perScope.values).count == 1, "the same tiles in each of three scopes: \(perScope)")
        let sourceIDs = Set(recorder.payloads(of: MapEvents.sourceDataLoaded).map(\.id))
        #expect(sourceIDs.isSuperset(of: ["city", "city\u{1F}a", "city\u{1F}a2\u{1F}a"]))
        // a.json's request comes after the root's own TileJSON was asked for; a2.json after a.json's.
        let order = Self.requests(recorder).map { "\($0.request.kind.rawValue) \($0.request.scope)" }
        #expect(order.firstIndex(of: "style a")! < order.firstIndex(of: "style a/a2")!)
    }

    @Test func slotsPlaceLayersAsMapboxMergesThem() async throws {
        let basemap = #"""
        [{"id": "bg", "type": "background"}, {"id": "bottom", "type": "slot"}, {"id": "water", "type": "background"},
         {"id": "middle", "type": "slot"}, {"id": "labels", "type": "background"}, {"id": "top", "type": "slot"}]
        """#
        let root = #"""
        [{"id": "first", "type": "background"}, {"id": "in-middle", "type": "background", "slot": "middle"},
         {"id": "in-bottom", "type": "background", "slot": "bottom"}, {"id": "nowhere", "type": "background", "slot": "nope"},
         {"id": "last", "type": "background"}]
        """#
        let fixture = try Self.folder(["root.json": Self.style(imports: #"[{"id": "b", "url": "b.json"}]"#, layers: root),
                                       "b.json": Self.style(layers: basemap)])
        let (map, _, outcome) = await Self.load(fixture)
        guard case .reached = outcome else { Issue.record("\(outcome)"); return }
        let ids = await map.readout.style?.layers.map { StyleScope.split($0.id).name } ?? []
        #expect(ids == ["bg", "in-bottom", "water", "in-middle", "labels", "first", "nowhere", "last"])
    }

    @Test func aCycleIsAWarningNamingItsChainAndTheRepeatIsNotRequested() async throws {
        let fixture = try Self.folder(["root.json": Self.style(imports: #"[{"id": "x", "url": "x.json"}]"#),
                                       "x.json": Self.style(imports: #"[{"id": "y", "url": "y.json"}]"#),
                                       "y.json": Self.style(imports: #"[{"id": "x", "url": "x.json"}]"#)])
        let (_, recorder, outcome) = await Self.load(fixture)
        guard case .reached = outcome else { Issue.record("\(outcome)"); return }
        #expect(Self.requests(recorder).count { $0.request.kind == .style } == 3)
        let warnings = recorder.payloads(of: MapEvents.styleWarning)
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.contains("x → y → x") == true, "\(warnings)")
    }

    @Test func stylesNestFiveDeepAndTheSixthIsAWarningNotARequest() async throws {
        var styles = ["root.json": Self.style(imports: #"[{"id": "d1", "url": "d1.json"}]"#)]
        for depth in 1...6 { styles["d\(depth).json"] = Self.style(imports: #"[{"id": "d\#(depth + 1)", "url": "d\#(depth + 1).json"}]"#) }
        let fixture = try Self.folder(styles)
        let (_, recorder, outcome) = await Self.load(fixture)
        guard case .reached = outcome else { Issue.record("\(outcome)"); return }
        let names = Self.requests(recorder).filter { $0.request.kind == .style }.map { $0.request.url.components(separatedBy: "/").last ?? "" }
        #expect(names == ["root.json", "d1.json", "d2.json", "d3.json", "d4.json"])
        #expect(recorder.payloads(of: MapEvents.styleWarning).map(\.scope) == [StyleScope(path: ["d1", "d2", "d3", "d4"])])
    }

    @Test func aFailedImportIsAnErrorNamingItsChainTheSDKGoesOnAndMapboxGLJSNeverIdles() async throws {
        let fixture = try Self.folder(["root.json": Self.style(imports: #"[{"id": "a", "url": "a.json"}]"#, sources: Self.city, layers: Self.places),
                                       "a.json": Self.style(imports: #"[{"id": "gone", "url": "missing.json"}]"#)])
        let (_, sdk, sdkOutcome) = await Self.load(fixture)
        guard case .reached = sdkOutcome else { Issue.record("the SDK goes on without the import: \(sdkOutcome)"); return }
        let errors = sdk.payloads(of: MapEvents.mapLoadingError)
        #expect(errors.count == 1 && errors[0].message.hasPrefix("import a → gone: "), "\(errors)")
        let (browser, recorder, outcome) = await Self.load(fixture, engine: .mapboxGLJS)
        guard case .timedOut = outcome else { Issue.record("Mapbox GL JS 3.0.1 waits for every import: \(outcome)"); return }
        #expect(await browser.readout.blockingImportFailures == ["a → gone"])
        #expect(!recorder.events.contains { $0.type == .styleLoaded })
        // Its workers never get the root's layers: the root's tiles are asked for, but none is laid
        // out, so none asks for a glyph range; the SDK lays them out.
        let requests = Self.requests(recorder)
        #expect(requests.contains { $0.request.kind == .tile && $0.request.scope == .root })
        #expect(!requests.contains { $0.request.kind == .glyphs && $0.request.scope == .root }, "\(requests.map(\.request.url))")
        #expect(Self.requests(sdk).contains { $0.request.kind == .glyphs && $0.request.scope == .root })
    }

    /// Measured with Mapbox GL JS 3.0.1 through `mapsim serve`: an import's source whose TileJSON is
    /// 404 is an error scoped to the import, and the map goes idle without it; the SDK (MapLibre
    /// Native's core) waits for it.
    @Test func anImportsSourceThatFailsIsNamedInItsImportAndOnlyMapboxGLJSGoesIdleWithoutIt() async throws {
        let broken = #"{"city": {"type": "vector", "url": "tiles.json"}, "none": {"type": "vector", "url": "missing.json"}}"#
        let layers = #"[{"id": "none", "type": "line", "source": "none", "source-layer": "roads"}]"#
        let fixture = try Self.folder(["root.json": Self.style(imports: #"[{"id": "a", "url": "a.json"}]"#, sources: Self.city),
                                       "a.json": Self.style(imports: #"[{"id": "b", "url": "", "data": \#(Self.style(sources: broken, layers: layers))}]"#)])
        let (browser, recorder, outcome) = await Self.load(fixture, engine: .mapboxGLJS)
        guard case .reached = outcome else { Issue.record("Mapbox GL JS 3.0.1 goes idle without the source: \(outcome)"); return }
        let errors = recorder.payloads(of: MapEvents.mapLoadingError)
        #expect(errors.map(\.message).count == 1 && errors[0].message.hasPrefix(#"failed to load source "none" of import a → b from file://"#), "\(errors)")
        #expect(await browser.readout.blockingSourceFailures.isEmpty)
        let (sdk, _, sdkOutcome) = await Self.load(fixture)
        guard case .timedOut = sdkOutcome else { Issue.record("the SDK waits for every source: \(sdkOutcome)"); return }
        #expect(await sdk.readout.blockingSourceFailures == [#""none" of import a → b"#])
    }

    @Test func mapboxGLJSTakesTheStylesCameraOnlyOnceEveryImportHasLoaded() async throws {
        // GL JS jumps to the style's camera on `style.load`, which waits for the imports: with one
        // that never loads, the map stays where it opened (0,0 at zoom 0) and its tiles are those.
        let camera = #", "center": [-122.4, 37.8], "zoom": 10"#
        let fixture = try Self.folder([
            "blocked.json": Self.style(imports: #"[{"id": "gone", "url": "missing.json"}]"#, sources: Self.city, layers: Self.places, extra: camera),
            "root.json": Self.style(imports: #"[{"id": "a", "url": "a.json"}]"#, sources: Self.city, layers: Self.places, extra: camera),
            "a.json": Self.style(),
        ])
        func rootTileZooms(_ recorder: EventRecorder) -> Set<Int> {
            Set(Self.requests(recorder).filter { $0.request.kind == .tile && $0.request.scope == .root }.compactMap { $0.request.tileData?.id.z })
        }
        let (blocked, blockedRecorder, _) = await Self.load(fixture, "blocked.json", engine: .mapboxGLJS, camera: nil)
        #expect(await blocked.camera.zoom == 0)
        #expect(rootTileZooms(blockedRecorder) == [0])
        // The SDK takes the style's camera when the style is parsed, import or none.
        let (sdk, sdkRecorder, _) = await Self.load(fixture, "blocked.json", engine: .mapbox, camera: nil)
        #expect(await sdk.camera.zoom == 10)
        #expect(rootTileZooms(sdkRecorder).max() == 10 && !rootTileZooms(sdkRecorder).contains(0), "its view's tiles, and its prefetch's")
        // Every import in: the style's camera, and its tiles.
        let (loaded, loadedRecorder, outcome) = await Self.load(fixture, engine: .mapboxGLJS, camera: nil)
        guard case .reached = outcome else { Issue.record("\(outcome)"); return }
        #expect(await loaded.camera.zoom == 10)
        #expect(rootTileZooms(loadedRecorder).contains(10))
    }

    @Test func mapboxGLJSRefusesAStyleWhoseInlineImportDrawsTextWithoutGlyphsBeforeAnyImportIsAsked() async throws {
        // GL JS validates an import's inline `data` with the style that holds it: one request, then
        // nothing; the SDK loads the import (its own default fonts) and the rest.
        let inline = #"{"version": 8, "sources": {"x": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": [{"id": "t", "type": "background"}, {"id": "names", "type": "symbol", "source": "x", "layout": {"text-field": "x"}}]}"#
        let fixture = try Self.folder(["root.json": Self.style(imports: #"[{"id": "a", "url": "a.json"}, {"id": "inline", "url": "", "data": \#(inline)}]"#),
                                       "a.json": Self.style(sources: Self.city)])
        let (_, recorder, outcome) = await Self.load(fixture, engine: .mapboxGLJS)
        guard case .styleFailed = outcome else { Issue.record("\(outcome)"); return }
        let errors = recorder.payloads(of: MapEvents.mapLoadingError).map(\.message)
        #expect(errors.count == 1 && errors[0].hasSuffix("does not load: imports[1].data.layers[1].layout.text-field: use of \"text-field\" requires a style \"glyphs\" property"), "\(errors)")
        #expect(Self.requests(recorder).map(\.request.kind) == [.style])
        let (_, sdk, sdkOutcome) = await Self.load(fixture)
        guard case .reached = sdkOutcome else { Issue.record("\(sdkOutcome)"); return }
        #expect(sdk.payloads(of: MapEvents.mapLoadingError).isEmpty)
        #expect(Self.requests(sdk).count { $0.request.kind == .style } == 2)
    }

    @Test func anImportedStyleIsNamedByEveryErrorOfGLJSsCheckNotByTheFirstThingMapsimCannotRead() async throws {
        // A raster-particle layer with no source-layer (a layer type 3.0.1 does not know): mapsim's
        // reader stops at the missing source-layer, GL JS's check finds both, in this order.
        let layers = #"[{"id": "rp", "type": "raster-particle", "source": "city"}]"#
        let fixture = try Self.folder(["root.json": Self.style(imports: #"[{"id": "a", "url": "a.json"}]"#),
                                       "a.json": Self.style(sources: Self.city, layers: layers)])
        let (_, recorder, outcome) = await Self.load(fixture, engine: .mapboxGLJS)
        guard case .timedOut = outcome else { Issue.record("a refused import keeps GL JS from going idle: \(outcome)"); return }
        let errors = recorder.payloads(of: MapEvents.mapLoadingError).map(\.message)
        let types = "[fill, line, symbol, circle, heatmap, fill-extrusion, raster, hillshade, model, background, sky, slot]"
        #expect(errors.count == 1 && errors[0].hasPrefix("import a") && errors[0].hasSuffix(
            #"its style does not load: layers[0]: layer "rp" must specify a "source-layer"; layers[0].type: expected one of \#(types), "raster-particle" found"#), "\(errors)")
        #expect(Self.requests(recorder).map(\.request.kind) == [.style, .style])
    }

    @Test func mapboxGLJSChecksEachImportedStyleAsItArrivesAndLoadsNoneOfARefusedOnesParts() async throws {
        // Mapbox GL JS 3.0.1 checks every style it loads against its spec: an import with an array
        // of sprites (MapLibre's, not 3.0.1's) is refused, named by its chain, and nothing of it is
        // asked for; the map, waiting for every import, never goes idle. The SDK loads it.
        let fixture = try Self.folder(["root.json": Self.style(imports: #"[{"id": "a", "url": "a.json"}]"#),
                                       "a.json": Self.style(sources: Self.city, layers: Self.places, extra: #", "sprite": [{"id": "x", "url": "sprite"}]"#)])
        let (_, recorder, outcome) = await Self.load(fixture, engine: .mapboxGLJS)
        guard case .timedOut = outcome else { Issue.record("a refused import keeps GL JS from going idle: \(outcome)"); return }
        let errors = recorder.payloads(of: MapEvents.mapLoadingError).map(\.message)
        #expect(errors.count == 1 && errors[0].hasPrefix("import a") && errors[0].hasSuffix("its style does not load: sprite: string expected, array found"), "\(errors)")
        #expect(Self.requests(recorder).map(\.request.kind) == [.style, .style])
        let (_, sdk, sdkOutcome) = await Self.load(fixture)
        guard case .reached = sdkOutcome else { Issue.record("\(sdkOutcome)"); return }
        #expect(Self.requests(sdk).contains { $0.request.kind == .spriteJSON && $0.request.scope == StyleScope(path: ["a"]) })
    }

    @Test func twoImportsWithOneIDAreAWarning() async throws {
        let fixture = try Self.folder(["root.json": Self.style(imports: #"[{"id": "x", "url": "a.json"}, {"id": "x", "url": "b.json"}]"#),
                                       "a.json": Self.style(sources: Self.city), "b.json": Self.style(sources: Self.city)])
        let (_, recorder, outcome) = await Self.load(fixture)
        guard case .reached = outcome else { Issue.record("\(outcome)"); return }
        #expect(recorder.payloads(of: MapEvents.styleWarning).contains { $0.message.contains("two imports with the id \"x\"") })
        #expect(Self.requests(recorder).count { $0.request.kind == .style } == 3)
    }

    @Test func mapboxGLJSWarnsThatAModelsRelativeURLIsThePagesAndAsksTheStylesFolder() async throws {
        // 3.0.1 asks the page's folder for it; mapsim, with no page, asks the style's and says so.
        let fixture = try Self.folder(["root.json": Self.style(imports: #"[{"id": "a", "url": "a.json"}]"#,
                                                               extra: #", "models": {"pin": "models/pin.glb", "far": "https://example.invalid/far.glb"}"#),
                                       "a.json": Self.style(extra: #", "models": {"tower": "tower.glb"}"#)])
        for engine in [Engine.mapboxGLJS, .mapbox] {
            let (_, recorder, _) = await Self.load(fixture, engine: engine)
            let warnings = recorder.payloads(of: MapEvents.styleWarning).map(\.message)
            let models = Self.requests(recorder).filter { $0.request.kind == .model }.map(\.request.url)
            #expect(models.contains("file://\(fixture.path)/s/models/pin.glb") && models.contains("file://\(fixture.path)/s/tower.glb"), "\(models)")
            if engine == .mapboxGLJS {
                #expect(warnings.count == 2, "\(warnings)")
                #expect(warnings.contains { $0.hasPrefix("the style names model \"pin\" by the relative URL models/pin.glb: mapbox-gl-js resolves it against the web page") })
                #expect(warnings.contains { $0.hasPrefix("import a names model \"tower\" by the relative URL tower.glb") })
            } else {
                #expect(warnings.isEmpty, "\(warnings)")
            }
        }
    }

    @Test func mapboxGLJSLoadsAStyleWithUnknownPropertiesAndWarnsOfEachInItsScope() async throws {
        // 3.0.1 logs an unknown property (a newer Mapbox's `color-theme`, a typo) and loads the style.
        let fixture = try Self.folder([
            "root.json": Self.style(imports: #"[{"id": "a", "url": "a.json", "color-theme": {"data": ""}}]"#, sources: Self.city,
                                    layers: #"[{"id": "w", "type": "fill", "source": "city", "source-layer": "water", "paint": {"fill-colour": "red"}}]"#),
            "a.json": Self.style(sources: Self.city, layers: Self.places, extra: #", "lights": [{"id": "l", "type": "ambient", "properties": {"glow": 1}}]"#)])
        let (_, recorder, outcome) = await Self.load(fixture, engine: .mapboxGLJS)
        guard case .reached = outcome else { Issue.record("the map goes idle: \(outcome)"); return }
        let warnings = recorder.payloads(of: MapEvents.styleWarning).map { "\($0.scope.chain): \($0.message)" }
        #expect(warnings.contains(#": imports[0]: unknown property "color-theme""#) && warnings.contains(#": layers[0].paint.fill-colour: unknown property "fill-colour""#)
                && warnings.contains(#"a: lights[0]: unknown property "glow""#), "\(warnings)")
        #expect(recorder.payloads(of: MapEvents.mapLoadingError).isEmpty)
        #expect(Self.requests(recorder).contains { $0.request.kind == .tile })
    }

    @Test func configComesFromTheSchemaTheImportAndTheMapInThatOrder() async throws {
        let fixture = try Self.folder([
            "root.json": Self.style(imports: #"[{"id": "b", "url": "b.json", "config": {"size": 3}}]"#),
            "b.json": Self.style(extra: #", "schema": {"size": {"default": 1}, "mode": {"default": "day"}, "shown": {"default": true}}"#),
        ])
        let (map, _, outcome) = await Self.load(fixture) { await $0.setConfigProperty("b", "mode", .string("night")) }
        guard case .reached = outcome else { Issue.record("\(outcome)"); return }
        let config = await map.readout.config(of: StyleScope(path: ["b"]))
        #expect(config["size"] == .number(3) && config["mode"] == .string("night") && config["shown"] == .bool(true), "\(config)")
    }

    /// Mapbox GL JS 3.0.1's `setConfigProperty` takes any name and any value without a word; the map
    /// says when a name is not in the import's schema (a typo reads nothing) and when a value's type
    /// is not its default's (`"False"` for `false`), before the style loads and after.
    @Test func aConfigNameNotInTheSchemaOrAValueOfAnotherTypeIsAWarningInTheImportsScope() async throws {
        let fixture = try Self.folder([
            "root.json": Self.style(imports: #"[{"id": "b", "url": "b.json"}]"#),
            "b.json": Self.style(extra: #", "schema": {"size": {"default": 1}, "shown": {"default": true}}"#),
        ])
        let (map, recorder, outcome) = await Self.load(fixture, engine: .mapboxGLJS) { map in
            await map.setConfigProperty("b", "shown", .string("False"))
            await map.setConfigProperty("b", "sise", .number(2))
            await map.setConfigProperty("b", "size", .array([.string("+"), .number(1), .number(1)]))
        }
        guard case .reached = outcome else { Issue.record("\(outcome)"); return }
        let warnings = recorder.payloads(of: MapEvents.styleWarning)
        #expect(warnings.map(\.message) == [#"config of import b: "shown" is set to "False", a string, where its default is true, a boolean"#,
                                            #"config of import b: "sise" is not in its schema (shown, size); only a layer that asks for "sise" reads it"#])
        #expect(warnings.allSatisfy { $0.scope == StyleScope(path: ["b"]) }, "an expression is not compared with the default")
        await map.setConfigProperty("b", "shown", .number(0))
        _ = await map.run(until: .mapIdle, timeout: .seconds(10))
        #expect(recorder.payloads(of: MapEvents.styleWarning).last?.message == #"config of import b: "shown" is set to 0, a number, where its default is true, a boolean"#)
    }

    @Test func configSetBeforeTheStyleLoadsForANestedOrUnknownImportIsRefusedOnceTheImportsAreIn() async throws {
        // Only the root's config ("") and a top-level import's are settable, as Mapbox has it:
        // GL JS 3.0.1 throws "Style import not found: c" for an import nested in b.
        let fixture = try Self.folder([
            "root.json": Self.style(imports: #"[{"id": "b", "url": "b.json"}]"#),
            "b.json": Self.style(imports: #"[{"id": "c", "url": "c.json"}]"#, extra: #", "schema": {"mode": {"default": "day"}}"#),
            "c.json": Self.style(extra: #", "schema": {"size": {"default": 1}}"#),
        ])
        for engine in [Engine.mapbox, .mapboxGLJS] {
            let (map, recorder, outcome) = await Self.load(fixture, engine: engine) { map in
                await map.setConfigProperty("b", "mode", .string("night"))
                await map.setConfigProperty("c", "size", .number(2))
                await map.setConfigProperty("nowhere", "size", .number(3))
            }
            guard case .reached = outcome else { Issue.record("\(engine): \(outcome)"); continue }
            let errors = recorder.payloads(of: MapEvents.mapLoadingError).map(\.message)
            #expect(errors == ["cannot set config \"size\" of import \"c\": Style import not found: c",
                               "cannot set config \"size\" of import \"nowhere\": Style import not found: nowhere"], "\(engine): \(errors)")
            #expect(await map.readout.config(of: StyleScope(path: ["b"]))["mode"] == .string("night"))
            #expect(await map.readout.config(of: StyleScope(path: ["b", "c"]))["size"] == .number(1), "a nested import keeps its own config")
        }
    }

    @Test func mapboxGLJSLaysTheRootsTilesOutLateSoASharedGlyphRangeComesFromAnImportWhoseTilesCameInTime() async throws {
        // The root draws a GeoJSON point's name, the import its tiles' places, one font stack, each
        // style with its own glyphs URL: the range comes from the style whose tile is laid out first.
        let store = #"{"store": {"type": "geojson", "data": {"type": "Point", "coordinates": [-122.4, 37.8]}}}"#
        let label = #"[{"id": "store", "type": "symbol", "source": "store", "layout": {"text-field": "Store", "text-font": ["Mapsim Sans Regular"]}}]"#
        let fixture = try Self.folder([
            "root.json": Self.style(imports: #"[{"id": "a", "url": "a.json"}]"#, sources: store, layers: label),
            "a.json": #"{"version": 8, "glyphs": "a-glyphs/{fontstack}/{range}.pbf", "sources": \#(Self.city), "layers": \#(Self.places)}"#,
        ])
        try fixture.copy(folder: SampleStyle.folder + "/glyphs", to: "s/a-glyphs")
        func glyphFolders(engine: Engine, tileDelay: Int) async throws -> [String] {
            let network = SimulatedNetwork(mirrors: [.init(prefix: "https://maps.test/", directory: fixture.path + "/s")])
            let timing = NetworkProfile(roundTrip: .milliseconds(10), jitter: .zero, bytesPerSecond: 1 << 30,
                                        delays: [(URLPattern("*/tiles/*"), .milliseconds(Int64(tileDelay)))])
            let map = Map(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), network: network), options: Map.Options(engine: engine),
                          timing: timing)
            let recorder = EventRecorder(map)
            await map.setCamera(CameraOptions(center: LngLat(longitude: -122.4, latitude: 37.8), zoom: 10))
            await map.setStyleURI("https://maps.test/root.json")
            guard case .reached = await map.run(until: .mapIdle, timeout: .seconds(30)) else { Issue.record("\(engine) not idle"); return [] }
            return Self.requests(recorder).filter { $0.request.kind == .glyphs }.map { $0.request.url.components(separatedBy: "/")[3] }
        }
        // The import's tiles come 20 ms after they are asked for: well before the root's layers reach
        // GL JS's workers (300 ms after the last import), so the import asks first.
        #expect(try await glyphFolders(engine: .mapboxGLJS, tileDelay: 10) == ["a-glyphs"])
        // Tiles later than that: the root's text asks first, from its own URL.
        #expect(try await glyphFolders(engine: .mapboxGLJS, tileDelay: 600) == ["glyphs"])
        // The SDK lays the root's tiles out as they come: its GeoJSON is first whatever the tiles do.
        #expect(try await glyphFolders(engine: .mapbox, tileDelay: 10) == ["glyphs"])
    }

    @Test func aMapLibreEngineIgnoresImportsAndSaysSoOnce() async throws {
        let fixture = try Self.folder(["root.json": Self.style(imports: #"[{"id": "a", "url": "a.json"}]"#, sources: Self.city, layers: Self.places),
                                       "a.json": Self.style()])
        let (_, recorder, outcome) = await Self.load(fixture, engine: .maplibreGLJS)
        guard case .reached = outcome else { Issue.record("\(outcome)"); return }
        #expect(Self.requests(recorder).count { $0.request.kind == .style } == 1)
        #expect(recorder.payloads(of: MapEvents.styleFeatureIgnored).map(\.feature) == [.imports])
        #expect(recorder.payloads(of: MapEvents.styleWarning).isEmpty, "said once, not again as the check's note")
    }
}
