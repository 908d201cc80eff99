import MapSimStyle

/// What a request of a map is for: a part of the style load, or a fetch of a component attached to
/// the map (a site's data manager).
enum RequestPurpose: Sendable, Hashable {
    case style
    /// The style of the import at this index of the import tree.
    case importedStyle(Int)
    /// A 3D model: the `index`th of a `model` source, or of a style's `models` (`source` nil).
    case model(source: String?, scope: StyleScope, index: Int)
    case spriteJSON(Int)
    case spriteImage(Int)
    case metadata(String)
    case tile(String, TileKey)
    case glyphs(GlyphRangeKey)
    /// A byte range of a `pmtiles://` archive, read for the source's TileJSON or tiles.
    case archiveRead(ArchiveRead)
    case fetch(FetchToken)

    /// Whether the request belongs to the style load (a new style cancels it).
    var isStyleLoad: Bool {
        if case .fetch = self { return false }
        return true
    }
}
