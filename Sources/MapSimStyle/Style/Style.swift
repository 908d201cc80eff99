import MapSimJSON

/// A parsed Mapbox/MapLibre style (spec v8): what the load pipeline needs to load and render it.
public struct Style: Sendable, Equatable {
    /// The largest style document read: real styles are a few MB, so anything past this is refused
    /// before it is read.
    public static let maximumDocumentSize = 64 * 1024 * 1024
    /// The largest zoom a map shows (MapLibre Native's default maximum zoom).
    public static let maximumZoom = 25.5
    /// The largest pitch a map shows (MapLibre Native's default maximum pitch).
    public static let maximumPitch = 60.0

    /// The style's `name`.
    public var name: String?
    /// The default camera of the style, where it gives one.
    public var center: LngLat?
    /// The default zoom.
    public var zoom: Double?
    /// The default bearing.
    public var bearing: Double?
    /// The default pitch.
    public var pitch: Double?
    /// The sources in document order.
    public var sources: [StyleSource]
    /// The sprite sheets: one `default` entry for a single sprite URL, or the `{id, url}` entries.
    public var sprites: [SpriteSource]
    /// The glyph URL template with `{fontstack}` and `{range}`.
    public var glyphs: String?
    /// The layers, bottom to top.
    public var layers: [StyleLayer]
    /// The style's default transition for paint property changes.
    public var transition: StyleTransition
    /// How the map draws the world (`projection`; Mercator when absent).
    public var projection = StyleProjection.mercator
    /// The ground's heights (`terrain`), when the style raises it.
    public var terrain: StyleTerrain?
    /// Mapbox's `fog` as written (an object), when the style has one: Mapbox GL JS drops the tiles
    /// beyond it from a steep view.
    public var fog: JSONObject?
    /// The defaults of the style's global state (`state`: each name's `default`), which
    /// `["global-state", NAME]` reads until the map sets another value.
    public var state = JSONObject()
    /// The styles this one imports (Mapbox's `imports`), in order.
    public var imports: [StyleImport] = []
    /// Whether the style has `imports`, even an empty list (which Mapbox GL JS lets stand for a
    /// `glyphs` URL).
    public var declaresImports = false
    /// The defaults of the style's config options (`schema`: each option's `default`), which
    /// `["config", NAME]` reads where the import of the style sets no other value.
    public var configDefaults = JSONObject()
    /// Whether the style declares config options (`schema`).
    public var hasSchema = false
    /// `fragment` as written: whether the style is meant to be imported.
    public var fragment: Bool?
    /// The 3D models the style names (`models`), fetched when the style loads.
    public var models: [StyleModel] = []
    /// What was out of range and will be clamped by the map (the camera), for the user.
    public var warnings: [String] = []

    /// A style with these parts.
    public init(name: String? = nil, center: LngLat? = nil, zoom: Double? = nil, bearing: Double? = nil, pitch: Double? = nil,
                sources: [StyleSource] = [], sprites: [SpriteSource] = [], glyphs: String? = nil,
                layers: [StyleLayer] = [], transition: StyleTransition = StyleTransition()) {
        self.name = name
        self.center = center
        self.zoom = zoom
        self.bearing = bearing
        self.pitch = pitch
        self.sources = sources
        self.sprites = sprites
        self.glyphs = glyphs
        self.layers = layers
        self.transition = transition
    }

    /// Whether the style has global state or reads it (`state`, `["global-state", …]` in a filter,
    /// layout or paint property): a `visibility` expression of `config` alone, as Mapbox styles
    /// write them, is no use of global state.
    public var usesGlobalState: Bool {
        !state.members.isEmpty || layers.contains { $0.layout.readsGlobalState }
    }

    /// Whether a Mapbox engine loads the style, as the map's root, as an import named `basemap`
    /// of an empty style: it is a fragment, or it has a schema and does not say it is no fragment.
    public var loadsAsImport: Bool {
        fragment == true || (hasSchema && fragment != false)
    }

    /// The source with this id.
    public func source(id: String) -> StyleSource? {
        sources.first { $0.id == id }
    }
}
