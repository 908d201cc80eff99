import MapSimStyle

/// What one style load owns, from the style request to the last frame: its phase, the parsed style,
/// the sprite, the sources and their tiles, the glyph ranges and what the frames have shown.
/// Loading another style replaces it whole.
struct StyleLoad: Sendable {
    var phase: LoadSequence.Phase = .empty
    var style: Style?
    /// The style was given as JSON (setStyleJSON), not loaded from a URL: its base URL is not where it came from.
    var isGivenAsJSON = false
    /// Style parsed, sprite settled, every source's metadata loaded (style-loaded fired).
    var isStyleLoaded = false
    /// The style's own camera, kept until every import has loaded, for an engine that waits for them.
    var waitingCamera: CameraOptions?
    var sprite = SpriteState(sources: [])
    var sources: [SourceState] = []
    /// Each glyph range asked for: nil while loading, then whether it loaded.
    var glyphs: [GlyphRangeKey: Bool?] = [:]
    /// The glyphs of a range the engine rejects (GL JS: those without a size): a tile that draws one fails.
    var rejectedGlyphs: [GlyphRangeKey: Set<UInt32>] = [:]
    /// The GeoJSON sources a tile of which failed on a glyph range that could not be loaded
    /// (`GlyphRules.failedRangeFailsGeoJSONTiles`): the map loads, but never goes idle after that.
    var glyphFailedGeoJSONSources: Set<String> = []
    /// How many tile requests the load made: each tile remembers its place, so that cancellations
    /// come out in the order the tiles were asked for.
    var tileRequests = 0
    /// style-data-loaded {type: sources} was sent.
    var sourcesEventSent = false
    /// A tile failed since the tiles were last brought in line with the view: an engine that loads
    /// parents in place of failed tiles (GL JS) looks for them at its next update, which new data starts.
    var failedTilesAwaitUpdate = false
    /// The sources of raster or DEM tiles not found since the last frame, when the engine draws no
    /// frame for them (`Engine.notFoundImageTileRedraws`): why a map that stopped never went idle.
    var silentlyMissingTileSources: Set<String> = []
    /// The sources of tiles that failed since the last frame, when the engine draws no frame for
    /// them (`Engine.failedTileRedraws`).
    var silentlyFailedTileSources: Set<String> = []
    /// The missing `glyphs` URL was reported.
    var glyphURLMissingReported = false
    /// The end of the latest layer transition or fade started so far.
    var animationEnd: SimTime?
    /// A frame has drawn the style's layers (their transitions have started).
    var layersRendered = false
    /// The images the last frame drew with; nil before the first frame.
    var lastFrameImages: Set<String>?
    /// Images whose style-image-missing was sent (once per id per load).
    var reportedMissingImages: Set<String> = []
    /// Runtime images the last frame used.
    var usedRuntimeImages: Set<String> = []
    /// The styles a Mapbox style imports.
    var imports = ImportTree()
    /// The token of the root's layout due once every import has loaded (`ImportRules.rootLayoutDelay`);
    /// nil when none is pending.
    var rootLayoutToken: Int?
    /// Models of the styles' `models` being fetched: the map is not idle until they settle.
    var pendingModels = 0
    /// The 3D terrain's DEM tiles arrived so far (GL JS, a style with terrain).
    var terrain: TerrainElevation?
    /// The terrain as the covers see it, and the camera it was read for.
    var coverTerrain: (camera: Camera, terrain: CoverTerrain)?
    /// Mapbox GL JS's reading of the terrain (`mapbox-gl-js`).
    var mapboxTerrain: MapboxTerrainReading?
    /// How many times new data arrived (a tile laid out, the sprite: GL JS's `data` events).
    var dataEvents = 0
}
