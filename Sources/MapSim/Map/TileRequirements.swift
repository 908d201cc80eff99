import MapSimStyle

/// What one vector tile of a style needs before it can be drawn, worked out as the map's render
/// model works it out (and as MapLibre Native's tile worker does): the glyph ranges of each font
/// stack its labels use, and the images its icons and patterns use.
public struct TileRequirements: Sendable, Equatable {
    /// The first code point of each 256-glyph range needed, by font stack (names joined by commas).
    public var glyphRanges: [String: [Int]]
    /// The same glyph ranges, each with its font stack as a list of names.
    public var glyphs: Set<GlyphRangeKey>
    /// The images the tile's symbols and patterns use.
    public var images: Set<String>

    /// Decodes `bytes` (an uncompressed vector tile in `encoding`) as tile `tile` of `source` and lays it out for
    /// every layer of `style` on that source, at the tile's zoom (or `zoom` when overscaled), with
    /// `availableImages` as the images the style has and the glyph rules of `engine` (which ranges
    /// its text needs, without those it draws locally).
    public init(vectorTile bytes: [UInt8], style: Style, source: String, tile: CanonicalTileID, zoom: Int? = nil,
                availableImages: Set<String> = [], engine: Engine = .maplibreNative, encoding: StyleSource.TileEncoding = .mvt) throws(LoadingError) {
        let decoded = try VectorTile.decode(bytes, encoding: encoding)
        let layout = TileLayout(content: .vector(decoded), layers: style.layers.filter { $0.source == source }, zoom: zoom ?? tile.z,
                                tile: tile, globalState: style.state, availableImages: availableImages, glyphRules: engine.glyphs)
        var ranges: [String: [Int]] = [:]
        for key in layout.glyphs.sorted() { ranges[key.fontStack.joined(separator: ","), default: []].append(key.start) }
        glyphRanges = ranges
        glyphs = layout.glyphs
        images = layout.images
    }
}
