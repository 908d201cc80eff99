import MapSimStyle

/// The requests of one style, made in one place: every URL the style names is normalized
/// (`mapbox://`) and resolved against the style's own URL, and becomes the `Resource` MapLibre makes
/// for it. The load sequence and an offline download ask it for the same things.
public struct StyleResources: Sendable, Equatable {
    /// The style's URL, which relative URLs resolve against (nil for a style given as text without one).
    public var styleURL: String?
    /// How `mapbox://` URLs are normalized.
    public var mapbox: MapboxURL

    /// The resources of the style at `styleURL`.
    public init(styleURL: String?, mapbox: MapboxURL) {
        self.styleURL = styleURL
        self.mapbox = mapbox
    }

    /// The style itself.
    public var style: Resource {
        .style(styleURL ?? "")
    }

    /// The metadata of `source`: its TileJSON, its GeoJSON document or its image; nil for a source
    /// whose metadata is inline.
    public func metadata(of source: StyleSource) -> Resource? {
        switch source.kind {
        case .vector, .raster, .rasterDEM, .batchedModel, .rasterArray: source.url.map { .source(resolve(mapbox.source($0))) }
        case .geojson: source.url.map { .source(resolve($0)) }
        case .image: .image(resolve(source.url ?? ""))
        case .video, .model: nil
        }
    }

    /// The media request of a video source's `index`th URL, as a browser's video element makes it;
    /// nil past its last URL.
    public func video(of source: StyleSource, at index: Int) -> Resource? {
        source.videoURLs.indices.contains(index) ? .video(resolve(source.videoURLs[index])) : nil
    }

    /// The base URL of a sprite sheet (`.json` and `.png` are added to it).
    public func spriteBase(_ sheet: SpriteSource) -> String {
        resolve(mapbox.sprite(sheet.url))
    }

    /// The index of a sprite sheet at `pixelRatio`.
    public func spriteJSON(_ sheet: SpriteSource, pixelRatio: Double) -> Resource {
        .spriteJSON(base: spriteBase(sheet), pixelRatio: pixelRatio)
    }

    /// The image of a sprite sheet at `pixelRatio`.
    public func spriteImage(_ sheet: SpriteSource, pixelRatio: Double) -> Resource {
        .spriteImage(base: spriteBase(sheet), pixelRatio: pixelRatio)
    }

    /// The style's `glyphs` URL template, resolved.
    public func glyphTemplate(_ template: String) -> String {
        resolve(mapbox.glyphs(template))
    }

    /// The tile URL template of a TileJSON's first `tiles` entry, resolved against `base` (the
    /// TileJSON's own URL; the style's for inline tiles).
    public func tileTemplate(_ tileJSON: TileJSON, base: String?) -> TileURLTemplate? {
        tileJSON.tiles.first.map { TileURLTemplate(URLResolver.resolve(mapbox.tile($0), against: base ?? styleURL), scheme: tileJSON.scheme) }
    }

    /// The URL a Mapbox engine requests the style an import names by: `url` resolved against this
    /// style's URL; a `mapbox://styles/…` URL on the Styles API, with the engine's `query` (Mapbox GL
    /// JS's `sdk=js-3.0.1`; `Engine.ImportRules.styleURLQuery`) and the token.
    public func importedStyle(_ url: String, query: String?) -> String {
        let resolved = resolve(url)
        guard MapboxURL.isMapbox(resolved), let query else { return mapbox.style(resolved) }
        return mapbox.style(resolved.contains("?") ? resolved + "&" + query : resolved + "?" + query)
    }

    /// `url` resolved against the style's URL.
    public func resolve(_ url: String) -> String {
        URLResolver.resolve(url, against: styleURL)
    }
}
