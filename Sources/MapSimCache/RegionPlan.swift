import Foundation
import MapSim
import MapSimStyle

/// What an offline region needs, worked out as MapLibre Native's offline download works it out:
/// the style; for each source its TileJSON (or inline tiles), its GeoJSON document or its image;
/// every glyph range of every font stack the style's text uses (the CJK ideograph and Hangul ranges
/// only with `includeIdeographs`); each sprite sheet's index and image at ratios 1 and 2; and for
/// each tiled source every tile of the area at every zoom the source serves within the region's.
/// For an engine that loads Mapbox `imports` (`followsImports`), the same for every style the
/// style imports, as that engine requests it (`RegionPlan+Imports`), and each style's `models`.
struct RegionPlan: Sendable {
    /// A tiled source's tiles in the region: one zoom after another, made as they are wanted.
    struct TileSet: Sendable {
        var source: String
        var template: TileURLTemplate
        var zooms: ClosedRange<Int>
        /// The zooms of data the source has (tiles above its max zoom are its max zoom's, overscaled).
        var sourceMaxZoom: Int
        /// The highest zoom the map shows the source's tiles at in the region (overscaled past
        /// `sourceMaxZoom`), up to the camera's zoom 22.
        var displayMaxZoom: Int
        /// Tiles outside these bounds the map never asks for (the download fetches them all).
        var bounds: LngLatBounds
        var pixelRatio: Double
        var definition: OfflineRegionDefinition
        /// How its vector tiles are encoded.
        var encoding = StyleSource.TileEncoding.mvt
        /// The style whose source it is: the root, or an import.
        var scope = StyleScope.root

        /// How many tiles the set has.
        var count: Int {
            zooms.reduce(0) { $0 + definition.tiles(atZoom: $1).count }
        }

        /// The tiles, one zoom after another, each row west to east.
        func makeIterator() -> TileSetIterator {
            TileSetIterator(set: self)
        }

        /// The zooms a tile of the set is laid out at by a map in the region: its own, and for a tile
        /// of the source's max zoom every zoom it is overscaled to.
        func layoutZooms(of id: CanonicalTileID) -> ClosedRange<Int> {
            id.z < sourceMaxZoom ? id.z...id.z : id.z...max(id.z, displayMaxZoom)
        }

        /// The tile request of `id`.
        func resource(_ id: CanonicalTileID) -> Resource {
            .tile(template, id: id, pixelRatio: pixelRatio)
        }
    }

    /// Walks a tile set.
    struct TileSetIterator: IteratorProtocol, Sendable {
        let set: TileSet
        private var zoom: Int
        private var cover: GeometryTileCover?

        init(set: TileSet) {
            self.set = set
            zoom = set.zooms.lowerBound
            cover = set.definition.tiles(atZoom: zoom)
        }

        mutating func next() -> CanonicalTileID? {
            while var current = cover {
                if let id = current.next() {
                    cover = current
                    return id
                }
                zoom += 1
                cover = zoom <= set.zooms.upperBound ? set.definition.tiles(atZoom: zoom) : nil
            }
            return nil
        }
    }

    /// Glyph ranges per font stack with ideographs: all 256.
    static let allGlyphRanges = Array(stride(from: 0, to: 65_536, by: 256))
    /// Glyph ranges per font stack without ideographs: those not starting in CJK Unified
    /// Ideographs (U+4E00–9FFF) or Hangul Syllables (U+AC00–D7AF), 130 of them.
    static let nonIdeographGlyphRanges = allGlyphRanges.filter { start in
        !((0x4E00...0x9FFF).contains(start) || (0xAC00...0xD7AF).contains(start))
    }

    let definition: OfflineRegionDefinition
    /// The style's URLs, resolved and normalized.
    let resources: StyleResources
    /// Whether the styles the style imports are part of the region (a Mapbox engine loads them;
    /// MapLibre ignores `imports`).
    let followsImports: Bool
    /// What the engine adds to the query of a `mapbox://styles/…` import (`Engine.ImportRules.styleURLQuery`).
    let importStyleQuery: String?

    /// The plan of `definition`, with `mapbox` normalizing its URLs; with `followsImports` the
    /// styles it imports are part of it, requested with `importStyleQuery`.
    init(definition: OfflineRegionDefinition, mapbox: MapboxURL, followsImports: Bool = false, importStyleQuery: String? = nil) {
        self.definition = definition
        resources = StyleResources(styleURL: mapbox.style(definition.styleURL), mapbox: mapbox)
        self.followsImports = followsImports
        self.importStyleQuery = importStyleQuery
    }

    /// The plan of `definition` for `engine`: with the styles it imports when the engine loads them.
    init(definition: OfflineRegionDefinition, mapbox: MapboxURL, engine: Engine) {
        self.init(definition: definition, mapbox: mapbox, followsImports: engine.imports != nil, importStyleQuery: engine.imports?.styleURLQuery)
    }

    /// The style.
    var style: Resource { resources.style }

    /// The style's sources that have tiles: vector, raster and raster-dem.
    func tiledSources(_ style: Style) -> [StyleSource] {
        style.sources.filter { [.vector, .raster, .rasterDEM].contains($0.kind) }
    }

    /// The TileJSON of a tiled source; nil when its tiles are inline.
    func tileJSON(of source: StyleSource) -> Resource? {
        resources.metadata(of: source)
    }

    /// The resources the style names besides TileJSON and tiles, in the order MapLibre Native asks
    /// for them: sprites, glyph ranges (last first), then GeoJSON documents and images. With
    /// `glyphs` false the glyph ranges are left out (a region that downloads only the ranges its
    /// tiles need finds them later).
    func styleResources(_ style: Style, glyphs: Bool = true) -> [Resource] {
        styleResources(root(style), glyphs: glyphs)
    }

    /// The resources `member` names besides TileJSON and tiles, as `styleResources(_:glyphs:)`
    /// lists a style's, resolved against the member's own URL; then, when the plan follows imports,
    /// its models (asked for first).
    func styleResources(_ member: Member, glyphs: Bool = true) -> [Resource] {
        var queued: [Resource] = []
        for source in member.style.sources {
            switch source.kind {
            case .geojson: if let url = source.url { queued.append(.source(member.resources.resolve(url))) }
            case .image: if let url = source.url, !url.isEmpty { queued.append(.image(member.resources.resolve(url))) }
            default: break
            }
        }
        if glyphs { queued += glyphRanges(member, needed: nil) }
        for sheet in member.style.sprites {
            let base = member.resources.spriteBase(sheet)
            queued += [.spriteImage(base: base, pixelRatio: 1), .spriteImage(base: base, pixelRatio: 2),
                       .spriteJSON(base: base, pixelRatio: 1), .spriteJSON(base: base, pixelRatio: 2)]
        }
        if followsImports { queued += models(of: member) }
        // Each is put at the front of MapLibre's queue: the last queued is asked for first.
        return queued.reversed()
    }

    /// The glyph ranges of the style's font stacks: all of them (less the ideographs unless the
    /// region includes them), or with `needed` only those.
    func glyphRanges(_ style: Style, needed: Set<GlyphRangeKey>?) -> [Resource] {
        glyphRanges(root(style), needed: needed)
    }

    /// The glyph ranges of `member`'s font stacks from its glyphs URL, as `glyphRanges(_:needed:)`.
    func glyphRanges(_ member: Member, needed: Set<GlyphRangeKey>?) -> [Resource] {
        guard let glyphs = member.glyphs else { return [] }
        let template = member.resources.glyphTemplate(glyphs)
        if let needed {
            return needed.sorted().map { Resource.glyphs(template: template, fontStack: $0.fontStack, rangeStart: $0.start) }
        }
        let ranges = definition.includeIdeographs ? Self.allGlyphRanges : Self.nonIdeographGlyphRanges
        return member.style.fontStacks.flatMap { stack in ranges.map { Resource.glyphs(template: template, fontStack: stack, rangeStart: $0) } }
    }

    /// How many glyph ranges MapLibre Native downloads for the style.
    func glyphRangeCount(_ style: Style) -> Int {
        style.glyphs == nil ? 0 : style.fontStacks.count * (definition.includeIdeographs ? Self.allGlyphRanges.count : Self.nonIdeographGlyphRanges.count)
    }

    /// The tiles of `source` (of the style `scope`) in the region, given its metadata (`tileJSON`
    /// from the server or inline, resolved against `base`); nil when the region and the source
    /// share no zoom.
    func tileSet(of source: StyleSource, tileJSON: TileJSON, base: String?, scope: StyleScope = .root) -> TileSet? {
        let metadata = tileJSON.overridden(by: source)
        guard let template = resources.tileTemplate(metadata, base: base) else { return nil }
        // As MapLibre's coveringZoomLevel: raster rounds, vector and raster-dem floor; vector tiles are 512.
        let pyramid = TilePyramid(rounding: source.kind == .raster ? .round : .floor, tileSize: source.kind == .vector ? 512 : source.tileSize ?? 512,
                                  minZoom: metadata.minZoom, maxZoom: metadata.maxZoom, bounds: metadata.bounds)
        guard let zooms = definition.tileZooms(of: pyramid) else { return nil }
        let camera = min(definition.maxZoom, 22)
        let displayMax = Int(pyramid.rounding == .floor ? floor(camera + log2(512 / Double(pyramid.tileSize))) : (camera + log2(512 / Double(pyramid.tileSize))).rounded())
        return TileSet(source: source.id, template: template, zooms: zooms, sourceMaxZoom: pyramid.maxZoom, displayMaxZoom: displayMax,
                       bounds: metadata.bounds, pixelRatio: definition.pixelRatio, definition: definition,
                       encoding: source.tileEncoding ?? tileJSON.encoding ?? .mvt, scope: scope)
    }
}
