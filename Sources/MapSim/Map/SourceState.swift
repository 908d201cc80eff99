import MapSimJSON
import MapSimStyle

/// What a map knows of one source while it loads: its metadata and its tiles.
struct SourceState: Sendable {
    enum Metadata: Sendable, Equatable {
        /// Waiting for the TileJSON, GeoJSON or image request.
        case pending
        /// Loaded; tiled sources know their pyramid and URL template.
        case loaded
        /// The metadata request failed: the source has no tiles, and stays unloaded unless the
        /// engine settles failed sources (`Engine.settlesFailedSources`).
        case failed
    }

    var spec: StyleSource
    var metadata: Metadata
    var pyramid: TilePyramid?
    var template: TileURLTemplate?
    /// The features of a GeoJSON source, cut into its tiles.
    var geoJSON: GeoJSONTiler?
    /// Run-time changes to a GeoJSON source on their way through the worker.
    var updates = GeoJSONUpdateQueue()
    /// Every tile loaded or loading, by canonical id.
    var tiles: [TileKey: TileState] = [:]
    /// The tiles the view needs now, nearest first.
    private(set) var visible: [TileKey] = []
    private var visibleSet: Set<TileKey> = []
    /// How many visible tiles are not complete: kept as statuses change, so asking is O(1).
    private var incompleteVisible = 0
    /// The view needs more tiles than the limit: reported once, nothing requested.
    var coverRefused = false
    /// The view the tiles were last brought in line with.
    var lastView: View?
    /// Models of a `model` source still being fetched: its metadata is loaded when none is.
    var pendingModels = 0
    /// A video source's URL being tried (its element moves to the next when one fails).
    var videoURLIndex = 0
    /// A video source plays: the map repaints every frame and never goes idle (GL JS).
    var videoPlays = false
    /// How the source's tiles are encoded: the style's `encoding`, else its TileJSON's, else MVT.
    var tileEncoding = StyleSource.TileEncoding.mvt
    /// The tiles a view needs, worked out for `lastCover`'s view (its ideal tiles and prefetch):
    /// a frame whose view did not move covers nothing again.
    var lastCover: (view: View, tiles: [OverscaledTileID])?
    /// Tiles that may be due a first draw: loaded (or reloaded) since a frame last drew them.
    private(set) var undrawn: Set<TileKey> = []
    /// Tiles whose layout uses images: what a frame reads for the images in use.
    private(set) var withImages: Set<TileKey> = []

    /// What decides which tiles a source needs.
    struct View: Sendable, Equatable {
        var camera: Camera
        var viewport: Viewport
        var used: Bool
        /// The 3D terrain the cover saw (GL JS): its heights move the cover.
        var terrain: CoverTerrain?
    }

    init(spec: StyleSource, metadata: Metadata) {
        self.spec = spec
        self.metadata = metadata
    }

    /// The view now needs `tiles`, nearest first.
    mutating func setVisible(_ tiles: [TileKey]) {
        visible = tiles
        visibleSet = Set(tiles)
        incompleteVisible = tiles.count { !(self.tiles[$0]?.isComplete ?? false) }
    }

    /// Whether `tile` is one the view needs now.
    func isVisible(_ tile: TileKey) -> Bool {
        visibleSet.contains(tile)
    }

    /// Marks `tile` to be drawn again, as for the first time (its symbols placed again, fading in).
    mutating func markUndrawn(_ tile: TileKey) {
        tiles[tile]?.rendered = false
        undrawn.insert(tile)
    }

    /// A frame drew `tile`.
    mutating func markDrawn(_ tile: TileKey) {
        tiles[tile]?.rendered = true
        undrawn.remove(tile)
    }

    /// Keeps the layout worked out for `tile`, and whether it uses images.
    mutating func setLayout(_ layout: TileLayout, images: Set<String>, of tile: TileKey) {
        tiles[tile]?.layout = layout
        tiles[tile]?.layoutImages = images
        if layout.images.isEmpty { withImages.remove(tile) } else { withImages.insert(tile) }
    }

    /// Changes the status of a tile it has, keeping the count of incomplete visible tiles.
    mutating func setStatus(_ status: TileState.Status, of tile: TileKey) {
        guard let wasComplete = tiles[tile]?.isComplete else { return }
        if status == .loaded && tiles[tile]?.rendered == false { undrawn.insert(tile) }
        tiles[tile]?.status = status
        let isComplete = tiles[tile]?.isComplete ?? false
        if wasComplete != isComplete && visibleSet.contains(tile) { incompleteVisible += isComplete ? -1 : 1 }
    }

    /// Whether every tile the view needs is complete (loaded or failed).
    var isViewComplete: Bool {
        incompleteVisible == 0
    }
}

extension SourceState {
    /// Takes the metadata of a tiled source; tile URLs are resolved against `base` (the TileJSON's URL,
    /// or the style's for inline tiles).
    mutating func apply(_ tileJSON: TileJSON, resolvedAgainst base: String?, resources: StyleResources) {
        let rounding: TilePyramid.ZoomRounding = spec.kind == .vector ? .floor : .round
        pyramid = TilePyramid(rounding: rounding, tileSize: spec.tileSize ?? 512, minZoom: tileJSON.minZoom,
                              maxZoom: tileJSON.maxZoom, bounds: tileJSON.bounds)
        template = resources.tileTemplate(tileJSON, base: base)
        tileEncoding = spec.tileEncoding ?? tileJSON.encoding ?? .mvt
        lastCover = nil
        metadata = .loaded
    }

    /// Takes the data of a GeoJSON source, to be cut into tiles as they are needed.
    mutating func applyGeoJSON(_ document: JSONValue) {
        pyramid = TilePyramid(rounding: .floor, tileSize: 512, minZoom: spec.minZoom ?? 0, maxZoom: spec.maxZoom ?? 18)
        geoJSON = GeoJSONTiler(document, options: GeoJSONTiler.Options(buffer: spec.buffer, promoteId: spec.promotedProperty(in: ""),
                                                                       generateId: spec.generatesIDs))
        lastCover = nil
        metadata = .loaded
    }
}
