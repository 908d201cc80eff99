import Testing
@testable import MapSim
import MapSimTesting

@Suite("URLs")
struct URLTests {
    private let tile = CanonicalTileID(z: 3, x: 5, y: 2)

    @Test func readsASchemeOfASCIILettersDigitsAndSigns() {
        #expect(URLResolver.scheme(of: "HTTPS://h/x") == "https" && URLResolver.scheme(of: "mbtiles:///a.mbtiles") == "mbtiles")
        #expect(URLResolver.scheme(of: "svn+ssh.v2-x://h") == "svn+ssh.v2-x")
        for relative in ["tiles/{z}/{x}/{y}.pbf?k=a:b", "1http://h", "://h", "ht tp://h", "hé://h", "no-colon"] {
            #expect(URLResolver.scheme(of: relative) == nil, "\(relative)")
        }
        #expect(URLResolver.isLocalFile("File:///x") && !URLResolver.isLocalFile("https://h/x"))
    }

    @Test func fillsEveryTileToken() {
        #expect(TileURLTemplate("t/{z}/{x}/{y}{ratio}.pbf").url(for: tile) == "t/3/5/2.pbf")
        #expect(TileURLTemplate("t/{z}/{x}/{y}{ratio}.png").url(for: tile, pixelRatio: 2) == "t/3/5/2@2x.png")
        #expect(TileURLTemplate("t/{z}/{x}/{y}", scheme: .tms).url(for: tile) == "t/3/5/5")
        #expect(TileURLTemplate("q/{quadkey}").url(for: tile) == "q/121")
        #expect(TileURLTemplate("{prefix}/{z}").url(for: CanonicalTileID(z: 5, x: 27, y: 18)) == "b2/5")
        #expect(TileURLTemplate("w?bbox={bbox-epsg-3857}&{unknown}").url(for: CanonicalTileID(z: 1, x: 0, y: 0))
            == "w?bbox=-20037508.342789244,0,0,20037508.342789244&{unknown}", "the shortest exact text, as MapLibre Native writes it")
        #expect(TileURLTemplate("{bbox-epsg-3857}").url(for: CanonicalTileID(z: 3, x: 5, y: 2)) == "5009377.085697311,5009377.085697311,10018754.171394622,10018754.171394622")
    }

    @Test func spriteURLsKeepTheQuery() {
        #expect(SpriteURL.url(base: "https://h/s/sprite", part: .json, pixelRatio: 1) == "https://h/s/sprite.json")
        #expect(SpriteURL.url(base: "https://h/s/sprite?key=1", part: .png, pixelRatio: 2) == "https://h/s/sprite@2x.png?key=1")
    }

    @Test func glyphURLsEncodeTheFontStackAsMapLibreNativeDoes() {
        // The comma between fonts is encoded too, with lower-case hex digits.
        #expect(GlyphURL.url(template: "g/{fontstack}/{range}.pbf", fontStack: ["Open Sans Regular", "Arial Unicode MS Regular"], rangeStart: 300)
            == "g/Open%20Sans%20Regular%2cArial%20Unicode%20MS%20Regular/256-511.pbf")
        #expect(GlyphURL.url(template: "{fontstack}", fontStack: ["Noto Sans CJK/Bold"], rangeStart: 0) == "Noto%20Sans%20CJK%2fBold")
        #expect(GlyphURL.url(template: "{fontstack}", fontStack: ["Été"], rangeStart: 0) == "%c3%89t%c3%a9")
    }

    @Test func normalizesMapboxURLs() {
        let mapbox = MapboxURL(baseURL: "https://api.example.com/", accessToken: "pk.abc")
        #expect(mapbox.style("mapbox://styles/user/style1") == "https://api.example.com/styles/v1/user/style1?access_token=pk.abc")
        #expect(mapbox.source("mapbox://mapbox.mapbox-streets-v8,mapbox.terrain-v2")
            == "https://api.example.com/v4/mapbox.mapbox-streets-v8,mapbox.terrain-v2.json?secure&access_token=pk.abc")
        #expect(mapbox.sprite("mapbox://sprites/user/style1") == "https://api.example.com/styles/v1/user/style1/sprite?access_token=pk.abc")
        #expect(mapbox.glyphs("mapbox://fonts/user/{fontstack}/{range}.pbf") == "https://api.example.com/fonts/v1/user/{fontstack}/{range}.pbf?access_token=pk.abc")
        #expect(mapbox.tile("mapbox://tiles/a.b/{z}/{x}/{y}.mvt?style=x") == "https://api.example.com/v4/a.b/{z}/{x}/{y}.mvt?style=x&access_token=pk.abc")
        #expect(mapbox.style("https://other/style.json") == "https://other/style.json")
        #expect(MapboxURL().style("mapbox://styles/u/s") == "https://api.mapbox.com/styles/v1/u/s")
    }

    @Test(arguments: [
        ("sprite", "file:///a/b/style.json", "file:///a/b/sprite"),
        ("../tiles/{z}/{x}/{y}.pbf", "file:///a/b/style.json", "file:///a/tiles/{z}/{x}/{y}.pbf"),
        ("/abs.json", "https://h.com/a/b/style.json?k=1", "https://h.com/abs.json"),
        ("//cdn.com/x", "https://h.com/a", "https://cdn.com/x"),
        ("t.json?v=2", "https://h.com/a/s.json?k=1", "https://h.com/a/t.json?v=2"),
        ("https://x.org/y", "file:///a/s.json", "https://x.org/y"),
        ("../../../../x", "file:///a/s.json", "file:///x"),
        ("x", nil, "x"),
    ] as [(String, String?, String)])
    func resolvesRelativeReferences(reference: String, base: String?, expected: String) {
        #expect(URLResolver.resolve(reference, against: base) == expected)
    }

    @Test(arguments: [
        ("file:///a/b/style.json", ["file:///a/b/sprite", "file:///a/b/sprite", "file:///a/sprite", "file:///abs/sprite"]),
        ("asset://style.json", ["asset://sprite", "asset://sprite", "asset://sprite", "asset:///abs/sprite"]),
        ("asset://dir/style.json", ["asset://dir/sprite", "asset://dir/sprite", "asset://sprite", "asset:///abs/sprite"]),
        ("https://h/x/style.json?k=1", ["https://h/x/sprite", "https://h/x/sprite", "https://h/sprite", "https://h/abs/sprite"]),
    ])
    func relativeReferencesResolveAgainstEveryKindOfBase(base: String, expected: [String]) {
        #expect(["sprite", "./sprite", "../sprite", "/abs/sprite"].map { URLResolver.resolve($0, against: base) } == expected)
        // Absolute references are kept as they are, whatever the base.
        for absolute in ["asset://other/sprite", "file:///f/sprite", "https://x/y/sprite", "mapbox://sprites/a/b"] {
            #expect(URLResolver.resolve(absolute, against: base) == absolute)
        }
    }

    @Test func anAssetStyleLoadsItsRelativeSpriteFromTheAssetRoot() async throws {
        let map = Map(backends: .only(FileResourceLoader(assetRoot: SampleStyle.folder)))
        let recorder = EventRecorder(map)
        await map.setStyleURI("asset://style.json")
        _ = await map.run(until: .mapIdle, timeout: .seconds(30))
        let urls = recorder.payloads(of: MapEvents.resourceRequest).map(\.request.url)
        #expect(urls.contains("asset://sprite.json") && urls.contains("asset://tiles.json"), "\(urls)")
        #expect(recorder.payloads(of: MapEvents.mapLoadingError).isEmpty)
    }
}
