/// The requests of each kind, built in one place with their kind, priority and loading method, as
/// MapLibre's `Resource::style`, `Resource::tile`, `Resource::glyphs`… do. Callers never fill these
/// fields by hand.
extension Resource {
    /// The style document at `url`.
    public static func style(_ url: String) -> Resource {
        Resource(url: url, kind: .style)
    }

    /// A source's TileJSON or GeoJSON document at `url`.
    public static func source(_ url: String) -> Resource {
        Resource(url: url, kind: .source)
    }

    /// Bytes `range` (first and last included) of the archive at `url`, as MapLibre's PMTiles source
    /// reads them: a `tile` when they are a tile's data, else (the header, metadata, directories) a
    /// `source`. (MapLibre sends every read as a source and the cache stores them so; events and
    /// summaries count a tile's bytes as a tile.)
    public static func archiveRange(_ url: String, _ range: ClosedRange<UInt64>, tileData: Bool = false) -> Resource {
        var resource = Resource(url: url, kind: tileData ? .tile : .source)
        resource.dataRange = range
        return resource
    }

    /// The media of a video source at `url`, as a browser's media element asks for it: from its
    /// first byte on (`Range: bytes=0-`), from the network, never kept in the cache.
    public static func video(_ url: String) -> Resource {
        var resource = Resource(url: url, kind: .unknown, loadingMethod: .network, storagePolicy: .volatile)
        resource.dataRange = 0...UInt64.max
        return resource
    }

    /// The glTF model at `url` (a Mapbox `model` source's or style's `models`).
    public static func model(_ url: String) -> Resource {
        Resource(url: url, kind: .model)
    }

    /// The image of an image source at `url`.
    public static func image(_ url: String) -> Resource {
        Resource(url: url, kind: .image)
    }

    /// The index (JSON) of the sprite sheet at `base`, `@2x` for a pixel ratio above 1.
    public static func spriteJSON(base: String, pixelRatio: Double) -> Resource {
        Resource(url: SpriteURL.url(base: base, part: .json, pixelRatio: pixelRatio), kind: .spriteJSON)
    }

    /// The image (PNG) of the sprite sheet at `base`, `@2x` for a pixel ratio above 1.
    public static func spriteImage(base: String, pixelRatio: Double) -> Resource {
        Resource(url: SpriteURL.url(base: base, part: .png, pixelRatio: pixelRatio), kind: .spriteImage)
    }

    /// The 256 glyphs from `rangeStart` of `fontStack`, from the style's glyphs URL `template`; the
    /// font stack spelled as MapLibre Native spells it, or as a browser does (`keepingCommas`).
    public static func glyphs(template: String, fontStack: [String], rangeStart: Int, keepingCommas: Bool = false) -> Resource {
        Resource(url: GlyphURL.url(template: template, fontStack: fontStack, rangeStart: rangeStart, keepingCommas: keepingCommas), kind: .glyphs)
    }

    /// Tile `id` of a tiled source, for a screen of `pixelRatio`; `image` for a raster source's.
    public static func tile(_ template: TileURLTemplate, id: CanonicalTileID, pixelRatio: Double, image: Bool = false) -> Resource {
        Resource(url: template.url(for: id, pixelRatio: pixelRatio), kind: .tile,
                 tileData: TileData(urlTemplate: template.template, pixelRatio: pixelRatio, id: id, scheme: template.scheme, isImage: image))
    }

    /// The same request, answered only from `method` (an offline download asks the cache alone, then
    /// the network alone).
    public func loading(from method: LoadingMethod) -> Resource {
        var resource = self
        resource.loadingMethod = method
        return resource
    }
}
