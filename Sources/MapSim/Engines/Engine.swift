import MapSimStyle

/// Which map a run simulates. "A map" is three families of engines that request differently for
/// the same style and view; an engine is one value of the policies that decide it — tile cover,
/// parent fallback, prefetch, glyphs, retries, concurrency, strictness about resources — read by
/// the load sequence, the tile layout and the request pipeline. It is chosen once (`--engine`, a
/// scenario's `engine:`) and written in every trace's header.
///
/// - `maplibreNative`: MapLibre Native, as its still mode is measured request for request
///   (pymgl) and its continuous mode is modelled from its source (`TilePyramid::update`: the
///   prefetch of lower zooms, `prefetchZoomDelta` 4).
/// - `maplibreGLJS`: MapLibre GL JS 5.24.0 in a browser, as recorded in headless Chromium: local
///   ideographs, a frustum cover that takes tiles touching the view's edge, parents of tiles that
///   came without data down to ten levels below the covering zoom, no retries, six connections per
///   host and 16 image requests at once, glyph ranges by code point without Arabic shaping.
/// - `mapbox`: the Mapbox Maps SDK v11: MapLibre Native's core with its own documented defaults
///   (ideographs rasterized locally; a prefetch zoom that is a multiple of the delta), and Mapbox
///   styles' imports, config and slots.
/// - `mapboxGLJS`: Mapbox GL JS v3.0.1 in a browser, as recorded in headless Chromium: GL JS's
///   requests, its own set of local ideographs, imports that wait for each other.
public struct Engine: Sendable, Hashable, CustomStringConvertible {
    /// The engines mapsim simulates.
    public enum Name: String, Sendable, CaseIterable {
        case maplibreNative = "maplibre-native"
        case maplibreGLJS = "maplibre-gl-js"
        case mapbox
        case mapboxGLJS = "mapbox-gl-js"
    }

    /// How the tiles that cover a view are found.
    public enum CoverRule: Sendable, Hashable {
        /// Tiles the view's ground quad overlaps, row by row: one that only touches its edge is not
        /// taken (MapLibre Native's `tileCover`).
        case scanLines
        /// Tiles no plane of the view's frustum leaves wholly outside (GL JS's `coveringTiles`): one
        /// that touches the view's edge is taken, and near the corners of a rotated view some that
        /// miss it.
        case frustum
    }

    /// Whose parents are loaded in place of a tile that has nothing to draw, and how far up.
    public struct ParentFallback: Sendable, Hashable {
        /// Parents of tiles that failed too, of any source kind (GL JS retains the parents of every
        /// tile that was answered without data); else only of raster tiles without content.
        public var includesFailedTiles: Bool
        /// How many levels below the covering zoom the walk may go (GL JS's `maxUnderzooming`,
        /// 10); nil walks to the source's minzoom.
        public var levelsBelowCoveringZoom: Int?
        /// Those levels are counted from the zoom of the cover's first tile, not from the covering
        /// zoom (Mapbox GL JS 3.0.1): for the terrain's DEM, covered at four times its tile size,
        /// that is lower, and the walk goes further down.
        public var countsFromFirstCoverTile = false
    }

    /// Lower zooms requested before the view's own, in continuous mode.
    public enum Prefetch: Sendable, Hashable {
        /// None.
        case none
        /// The view's cover `delta` levels below its tile zoom, at least the source's minzoom
        /// (MapLibre Native's `prefetchZoomDelta`).
        case zoomDelta(Int)
        /// The highest multiple of `delta` at or below the tile zoom minus `delta`, at least the
        /// source's minzoom (the Mapbox SDK's documented rule).
        case zoomDeltaMultiple(Int)
    }

    /// How glyph ranges are asked for, and which glyph data is accepted.
    public struct GlyphRules: Sendable, Hashable {
        /// Code points drawn with a local font instead (nil: every range is loaded).
        public var localIdeographs: LocalIdeographs?
        /// Ranges by code point, astral planes included (GL JS); else by UTF-16 unit (Native).
        public var byCodePoint: Bool
        /// Arabic shaped to its presentation forms before ranges are chosen (Native's ICU); GL JS
        /// without its RTL plugin asks for the letters as written.
        public var shapesArabic: Bool
        /// A font stack's names joined by a bare `,` in the URL (a browser leaves commas as they are);
        /// else percent-encoded as `%2c`, as MapLibre Native writes them.
        public var keepsCommas: Bool
        /// A range that cannot be loaded is drawn with a local font, with no error and no retry (GL JS);
        /// else it is a map-loading-error.
        public var drawsFailedRangesLocally: Bool
        /// A glyph without its width and height fails the tiles that use it, as GL JS's image copy
        /// throws "mismatched image size"; MapLibre Native skips such a glyph.
        public var rejectsGlyphsWithoutSize: Bool
        /// A style with text and no `glyphs` URL draws all text locally (GL JS); else it is an error.
        public var drawsWithoutGlyphsURL: Bool
        /// A range that cannot be loaded is forgotten, whoever asked for it, and fails the GeoJSON
        /// tiles whose text needs it; their parents (an overscaled tile's: itself, one level less overscaled) are loaded in their
        /// place, each asking for it again, and the map loads but never goes idle (Mapbox GL JS 3.0.1,
        /// measured: one ask for each level down to ten below the view's, and no `idle` at zoom 11.6
        /// and above). Vector tiles waiting for it draw its text locally, as `drawsFailedRangesLocally`
        /// says; a GeoJSON tile laid out after their ask failed asks again.
        public var failedRangeFailsGeoJSONTiles = false
    }

    /// How requests are sent.
    public struct RequestRules: Sendable, Hashable {
        /// Failed requests are retried on the SDK's schedule (MapLibre Native's online file source);
        /// GL JS retries none.
        public var retriesFailures: Bool
        /// The most requests in flight (MapLibre Native's 20; Chromium's 256 sockets), unless
        /// `--max-requests` says otherwise.
        public var maximumConcurrentRequests: Int
        /// The most requests in flight to one host (a browser's six connections over HTTP/1.1); nil for no limit.
        public var maximumRequestsPerHost: Int?
        /// The most image requests in flight — raster tiles, sprite sheets, image sources (GL JS's
        /// `maxParallelImageRequests`, 16); nil for no limit.
        public var maximumImageRequests: Int?
        /// A browser's HTTP cache stands before the network: a URL asked for again while its answer
        /// is fresh, or on its way, is not sent again (world copies of one tile are one request).
        public var usesBrowserCache: Bool
        /// A model's relative URL is resolved against the web page, not the style (Mapbox GL JS
        /// 3.0.1): mapsim, which has no page, resolves it against the style and warns.
        public var resolvesModelURLsAgainstPage = false
    }

    /// How a Mapbox engine loads a style's `imports`.
    public struct ImportRules: Sendable, Hashable {
        /// An import that fails keeps the style from ever loading, so the map never goes idle (Mapbox
        /// GL JS 3.0.1 waits for every import); else the map goes on without it (the SDK).
        public var failedImportBlocks: Bool
        /// Style URLs of the Mapbox API carry `sdk=js-3.0.1`, as Mapbox GL JS writes them.
        public var styleURLQuery: String?
        /// `["config", NAME]` reads the style's config in filters too, and `["config", NAME, SCOPE]`
        /// an import's (the SDK v11); in Mapbox GL JS 3.0.1 both read null.
        public var readsConfigEverywhere: Bool
        /// The style's own camera is taken once every import has loaded (Mapbox GL JS jumps to it on
        /// `style.load`, which waits for the imports): until then the map is where it opened — 0,0
        /// at zoom 0 when no camera is given — and the root's sources cover that view.
        public var cameraWaitsForImports: Bool = false
        /// The root style's own tiles are laid out this long after every import has loaded, not at
        /// once: Mapbox GL JS 3.0.1 hands its workers the root's layers late (measured in headless
        /// Chromium: the root's text asked for its glyphs 440–650 ms after the last import's style
        /// came, while the imports' first tiles were asked for 215–285 ms after it). An import's tile
        /// that comes in time asks first for a glyph range the root's text shares, so the range
        /// comes from the import's `glyphs` URL. nil: at once.
        public var rootLayoutDelay: SimTime?
    }

    /// The engine's name.
    public var name: Name
    /// Its tile cover.
    public var cover: CoverRule
    /// Its parent fallback.
    public var fallback: ParentFallback
    /// Its prefetch of lower zooms in continuous mode.
    public var prefetch: Prefetch
    /// Its glyph rules.
    public var glyphs: GlyphRules
    /// Its request rules.
    public var requests: RequestRules
    /// Sprite images that lie outside the sheet are dropped with an error (MapLibre Native); GL JS
    /// cuts them out of the sheet lazily and draws them blank.
    public var reportsSpriteImagesOutsideTheSheet: Bool
    /// What of a style the engine does not draw, each with what it does instead.
    public var ignores: [StyleFeature: String] = [:]
    /// How the engine loads `imports`; nil for an engine that has none (MapLibre's).
    public var imports: ImportRules?
    /// Whose walk of the tile pyramid a `frustum` cover takes: MapLibre GL JS's, or Mapbox GL JS's.
    public var coverWalk: CoveringTiles.Walk = .maplibreGLJS
    /// The steepest pitch the map takes unless told otherwise (its default `maxPitch`): 60 for
    /// MapLibre's engines, 85 for Mapbox's.
    public var maximumPitch: Double = Camera.maximumPitch
    /// Each style — the root with its inline imports, and each imported style as it arrives — is
    /// checked against the engine's specification (`flavor`), as GL JS checks every style it loads
    /// (`validateStyle`), and one with an error does not load: nothing of it is asked for
    /// (`layers[1].paint.fill-opacity: number expected, string found`; Mapbox GL JS 3.0.1's `sprite:
    /// string expected, array found`). MapLibre Native and the SDK check nothing of the kind.
    public var validatesStyles = false
    /// A source whose TileJSON, GeoJSON data, image or video fails to load counts as loaded, with
    /// its error: the style loads and the map goes idle without it (GL JS sets a source's `_loaded`
    /// in its error path too — MapLibre GL JS 5.24.0 and Mapbox GL JS 3.0.1, measured). MapLibre
    /// Native and the SDK wait for such a source, and the map never goes idle.
    public var settlesFailedSources = false
    /// The style's `transition` animates its first frames: every paint property transitions from
    /// its default, and the map redraws until that ends (MapLibre Native). GL JS transitions only a
    /// value that changes after the style loaded (a property has no prior value at first), so its
    /// first frames animate nothing: a map whose last answers draw no frame is not redrawn
    /// (MapLibre GL JS 5.24.0, measured: no frame after its view's raster tiles all answered 404).
    public var animatesFirstTransition = true
    /// What a raster or DEM tile answered 204 No Content is to the engine.
    public var noContentImageTile: NoContentImageTile = .loadsParent
    /// A raster or DEM tile that is not found (HTTP 404, a file missing) is taken with a redraw: its
    /// parent is looked for in a frame, and the map can go idle after it. Both GL JS fire no event
    /// for such a tile (measured: no `error`, no `data`; MapLibre GL JS 5.24.0 and Mapbox GL JS
    /// 3.0.1's `_tileLoaded` update the source at once and draw no frame), so a map whose last
    /// answers are such tiles — every tile of a raster or hillshade source whose URL is wrong —
    /// loads but never fires `idle`.
    public var notFoundImageTileRedraws = true
    /// A tile that fails (an error answer, a tile that does not decode) is taken with a redraw: its
    /// parent is looked for in a frame, and the map can go idle after it. MapLibre GL JS 5.24.0
    /// draws no frame for it (measured): it fires only `error`, so a map whose last answers are
    /// failed tiles — every tile of a source whose server fails — loads but never fires `idle`.
    /// Mapbox GL JS 3.0.1 goes idle (measured).
    public var failedTileRedraws = true
    /// Newly placed symbols fade in (`fadeDuration`, 300 ms) from the first frame: the map redraws
    /// until that ends (MapLibre Native, the SDK). Both GL JS place with no fade until the map's
    /// first `idle` (MapLibre GL JS 5.24.0's `_idleTriggered`, Mapbox GL JS 3.0.1's
    /// `_isInitialLoad`, read in their bundles), so their first idle waits for no symbol.
    public var fadesSymbolsBeforeFirstIdle = true
    /// A raster tile fades in (`raster-fade-duration`) over 3D terrain as on a flat map. MapLibre
    /// GL JS 5.24.0 fades raster tiles only without terrain (read in its tile manager): over
    /// terrain, a raster tile's arrival keeps no frames coming.
    public var fadesRasterOverTerrain = true

    /// What an engine makes of a raster or DEM tile that came with no content (HTTP 204).
    public enum NoContentImageTile: Sendable, Hashable {
        /// Nothing to draw: its parent is loaded in its place, as for a 404 (MapLibre Native, the SDK).
        case loadsParent
        /// Loaded, drawn empty: no parent, no error (MapLibre GL JS 5.24.0, measured).
        case drawnEmpty
        /// An image that does not decode: a tile error, and no parent until the sources update on new
        /// data (Mapbox GL JS 3.0.1, measured: "Could not load image … could not be decoded").
        case fails
    }

    /// Whose style spec the engine reads styles by: Mapbox's (imports, config, slots, its layer and
    /// source types) for Mapbox's engines — the current one for the SDK, 3.0.1's for Mapbox GL JS.
    public var flavor: StyleSpecFlavor {
        guard imports != nil else { return .maplibre }
        return StyleSpecFlavor(engine: name.rawValue) ?? .mapbox
    }

    /// The glyph URL template of a Mapbox style (or import) that names none.
    public static let mapboxDefaultGlyphs = "mapbox://fonts/mapbox/{fontstack}/{range}.pbf"

    /// MapLibre Native: the engine mapsim's still mode is measured against, request for request.
    public static let maplibreNative = Engine(
        name: .maplibreNative, cover: .scanLines, fallback: ParentFallback(includesFailedTiles: false, levelsBelowCoveringZoom: nil),
        prefetch: .zoomDelta(4),
        glyphs: GlyphRules(localIdeographs: nil, byCodePoint: false, shapesArabic: true, keepsCommas: false, drawsFailedRangesLocally: false,
                           rejectsGlyphsWithoutSize: false, drawsWithoutGlyphsURL: false),
        requests: RequestRules(retriesFailures: true, maximumConcurrentRequests: 20, maximumRequestsPerHost: nil, maximumImageRequests: nil,
                               usesBrowserCache: false),
        reportsSpriteImagesOutsideTheSheet: true,
        ignores: [.globe: "MapLibre Native has no globe: it draws the map flat (Mercator), and covers the view so",
                  .terrain: "MapLibre Native has no 3D terrain: it draws the ground flat and loads no DEM tiles for it",
                  .video: "MapLibre Native has no video sources: nothing is loaded for them",
                  .imports: "MapLibre has no style imports: the imported styles are not loaded (only the style's own sources and layers are)"])

    /// MapLibre GL JS 5.24.0 in a browser.
    public static let maplibreGLJS = Engine(
        name: .maplibreGLJS, cover: .frustum, fallback: ParentFallback(includesFailedTiles: true, levelsBelowCoveringZoom: 10),
        prefetch: .none,
        glyphs: GlyphRules(localIdeographs: LocalIdeographs(fontFamily: "sans-serif", codePoints: .mapLibreGLJS), byCodePoint: true,
                           shapesArabic: false, keepsCommas: true, drawsFailedRangesLocally: true, rejectsGlyphsWithoutSize: true,
                           drawsWithoutGlyphsURL: true),
        requests: RequestRules(retriesFailures: false, maximumConcurrentRequests: 256, maximumRequestsPerHost: 6, maximumImageRequests: 16,
                               usesBrowserCache: true),
        reportsSpriteImagesOutsideTheSheet: false,
        ignores: [.imports: "MapLibre has no style imports: the imported styles are not loaded (only the style's own sources and layers are)"],
        validatesStyles: true, settlesFailedSources: true, animatesFirstTransition: false, noContentImageTile: .drawnEmpty,
        notFoundImageTileRedraws: false, failedTileRedraws: false, fadesSymbolsBeforeFirstIdle: false, fadesRasterOverTerrain: false)

    /// The Mapbox Maps SDK: MapLibre Native's core with the SDK's defaults.
    public static let mapbox: Engine = {
        var engine = maplibreNative
        engine.name = .mapbox
        engine.prefetch = .zoomDeltaMultiple(4)
        engine.glyphs.localIdeographs = LocalIdeographs(fontFamily: "system", codePoints: .cjkIdeographsAndHangul)
        engine.ignores = [.globe: "mapsim does not model the Mapbox SDK's globe: the map is covered flat (Mercator)",
                          .terrain: "mapsim does not model the Mapbox SDK's terrain: the ground is covered flat and no DEM tiles are loaded for it",
                          .video: "the Mapbox Maps SDK has no video sources: nothing is loaded for them",
                          .globalState: "the Mapbox Maps SDK has no global state: [\"global-state\", …] reads null (Mapbox styles use config)"]
        engine.imports = ImportRules(failedImportBlocks: false, styleURLQuery: nil, readsConfigEverywhere: true)
        engine.maximumPitch = Camera.steepestPitch
        return engine
    }()

    /// Mapbox GL JS v3.0.1 in a browser: GL JS's fallback and requests, its own walk of the tile
    /// pyramid, Mapbox's local ideographs, imports as 3.0.1 loads them.
    public static let mapboxGLJS: Engine = {
        var engine = maplibreGLJS
        engine.name = .mapboxGLJS
        engine.glyphs.localIdeographs = LocalIdeographs(fontFamily: "sans-serif", codePoints: .mapboxGLJS)
        engine.glyphs.drawsWithoutGlyphsURL = false
        engine.glyphs.failedRangeFailsGeoJSONTiles = true
        engine.fallback.countsFromFirstCoverTile = true
        engine.requests.resolvesModelURLsAgainstPage = true
        engine.noContentImageTile = .fails
        engine.failedTileRedraws = true
        engine.fadesRasterOverTerrain = true
        engine.ignores = [.globalState: "Mapbox GL JS has no global state: [\"global-state\", …] reads null (Mapbox styles use config)"]
        engine.imports = ImportRules(failedImportBlocks: true, styleURLQuery: "sdk=js-3.0.1", readsConfigEverywhere: false,
                                     cameraWaitsForImports: true, rootLayoutDelay: .milliseconds(300))
        engine.coverWalk = .mapboxGLJS
        engine.maximumPitch = Camera.steepestPitch
        return engine
    }()

    /// The engine named `name`, with its defaults.
    public static func named(_ name: Name) -> Engine {
        switch name {
        case .maplibreNative: maplibreNative
        case .maplibreGLJS: maplibreGLJS
        case .mapbox: mapbox
        case .mapboxGLJS: mapboxGLJS
        }
    }

    /// The same engine drawing ideographs locally in `fontFamily` (its own set of code points, or
    /// GL JS's when it has none), or loading every range when nil — as GL JS's
    /// `localIdeographFontFamily` (`--local-ideographs FAMILY|none`).
    public func localIdeographs(_ fontFamily: String?) -> Engine {
        var engine = self
        engine.glyphs.localIdeographs = fontFamily.map {
            LocalIdeographs(fontFamily: $0, codePoints: glyphs.localIdeographs?.codePoints ?? .mapLibreGLJS)
        }
        return engine
    }

    /// The engine's name, as `--engine` takes it.
    public var description: String { name.rawValue }

    /// The zoom whose tiles are prefetched for a view whose tile zoom is `tileZoom`, for a source
    /// whose zooms start at `minZoom`; nil when nothing is prefetched (MapLibre Native:
    /// `TilePyramid::update`, continuous mode, not for GeoJSON).
    func prefetchZoom(tileZoom: Int, minZoom: Int) -> Int? {
        switch prefetch {
        case .none: nil
        case .zoomDelta(let delta): delta > 0 ? max(tileZoom - delta, minZoom) : nil
        case .zoomDeltaMultiple(let delta):
            delta > 0 ? max(Int((Double(tileZoom - delta) / Double(delta)).rounded(.down)) * delta, minZoom) : nil
        }
    }
}
