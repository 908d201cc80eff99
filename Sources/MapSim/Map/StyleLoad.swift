import MapSimStyle

/// What one style load owns, from the style request to the last frame: its phase, the parsed style,
/// the sprite, the sources and their tiles, the glyph ranges, the requests under way and what the
/// frames have shown. Loading another style replaces it whole.
struct StyleLoad: Sendable {
    /// What a request of the load is for.
    enum RequestPurpose: Sendable, Equatable {
        case style
        case spriteJSON(Int)
        case spriteImage(Int)
        case metadata(String)
        case tile(String, TileKey)
        case glyphs(GlyphRangeKey)
    }

    var phase: LoadSequence.Phase = .empty
    var style: Style?
    /// Style parsed, sprite settled, every source's metadata loaded (style-loaded fired).
    var isStyleLoaded = false
    var sprite = SpriteState(sources: [])
    var sources: [SourceState] = []
    /// Each glyph range asked for: nil while loading, then whether it loaded.
    var glyphs: [GlyphRangeKey: Bool?] = [:]
    var requests: [RequestID: RequestPurpose] = [:]
    /// style-data-loaded {type: sources} was sent.
    var sourcesEventSent = false
    /// The missing `glyphs` URL was reported.
    var glyphURLMissingReported = false
    /// The end of the latest layer transition or fade started so far.
    var animationEnd: SimTime?
    /// A frame has drawn the style's layers (their transitions have started).
    var layersRendered = false
    /// Images whose style-image-missing was sent (once per id per load).
    var reportedMissingImages: Set<String> = []
    /// Runtime images the last frame used.
    var usedRuntimeImages: Set<String> = []
}
