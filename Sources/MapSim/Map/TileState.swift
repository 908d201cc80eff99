import MapSimJSON
import MapSimStyle

/// One tile of a source.
struct TileState: Sendable {
    enum Status: Sendable, Equatable {
        case loading
        /// The data is here; glyphs are not yet asked for.
        case parsing
        case waitingForGlyphs(Set<GlyphRangeKey>)
        case loaded
        case failed
    }

    var status: Status
    /// The place of its request among the load's tile requests (`Int.max` for a tile that needed none).
    var requestOrder = Int.max
    /// The zoom the tile is laid out at: the view's, past the source's maxzoom when overscaled.
    var zoom: Int
    var content: TileContent?
    /// What the tile's layers need, worked out when its data arrives.
    var layout: TileLayout?
    /// The images that were known when the layout was worked out.
    var layoutImages: Set<String> = []
    /// Whether a frame has drawn it (its fade-in has started).
    var rendered = false
    /// Whether it can be drawn once complete: a raster tile without an image (404) cannot, and its
    /// parent is loaded in its place.
    var isRenderable = true

    var isComplete: Bool {
        status == .loaded || status == .failed
    }
}
