import MapSimJSON

/// A source of a style: where a layer's data comes from.
public struct StyleSource: Sendable, Equatable {
    /// The source types of the style spec.
    public enum Kind: String, Sendable, CaseIterable {
        case vector
        case raster
        case rasterDEM = "raster-dem"
        case geojson
        case image
        case video
        /// Mapbox's: 3D models placed at coordinates, each a glTF file (`models`).
        case model
        /// Mapbox's: tiles of 3D models, from a TileJSON or `tiles`.
        case batchedModel = "batched-model"
        /// Mapbox's: tiles of raster arrays (`.mrt`), from a TileJSON or `tiles`.
        case rasterArray = "raster-array"

        /// Whether only Mapbox's style spec has the type.
        public var isMapboxOnly: Bool {
            self == .model || self == .batchedModel || self == .rasterArray
        }

        /// Whether the tiles of the type are images (browsers load them as images).
        public var hasImageTiles: Bool {
            self == .raster || self == .rasterDEM
        }
    }

    /// The scheme of tile rows.
    public enum Scheme: String, Sendable, CaseIterable {
        /// Row 0 at the top (Mapbox, Google).
        case xyz
        /// Row 0 at the bottom (OSGeo TMS).
        case tms
    }

    /// How a vector source's tiles are encoded (`encoding`).
    public enum TileEncoding: String, Sendable, CaseIterable {
        /// Mapbox Vector Tiles, the default.
        case mvt
        /// MapLibre Tiles.
        case mlt
    }

    /// The source's id, its key in `sources`.
    public var id: String
    /// The source's type.
    public var kind: Kind
    /// The TileJSON URL of a tiled source, or the data URL of a GeoJSON source, or an image URL.
    public var url: String?
    /// Inline tile URL templates (instead of a TileJSON `url`).
    public var tiles: [String]?
    /// The lowest zoom with tiles.
    public var minZoom: Int?
    /// The highest zoom with tiles.
    public var maxZoom: Int?
    /// Tiles outside these bounds are never requested.
    public var bounds: LngLatBounds?
    /// The row scheme of the tile URLs.
    public var scheme: Scheme?
    /// The tile size in pixels (raster sources; vector tiles are 512).
    public var tileSize: Int?
    /// Inline GeoJSON data, when `data` is not a URL.
    public var inlineData: JSONValue?
    /// The video URLs of a video source.
    public var videoURLs: [String]
    /// `promoteId`: the property that gives features their id, for every source layer or per layer.
    public var promoteID: [String: String]?
    /// `generateId` of a GeoJSON source: features without an id get their index.
    public var generatesIDs = false
    /// `buffer` of a GeoJSON source: how far past its edges a tile holds features, in 8192ths.
    public var buffer = 128
    /// A vector source's tile encoding as the style gives it (else its TileJSON's, else MVT).
    public var tileEncoding: TileEncoding?
    /// A `raster-dem` source's height encoding.
    public var demEncoding = DEMEncoding.mapbox
    /// The image source's corners, or the video's: top left, top right, bottom right, bottom left.
    public var coordinates: [LngLat] = []
    /// The models of a `model` source, in the order written.
    public var models: [StyleModel] = []

    /// The property that gives the features of `sourceLayer` their id, if any.
    public func promotedProperty(in sourceLayer: String) -> String? {
        promoteID?[sourceLayer] ?? promoteID?[""]
    }

    /// A source of `kind`.
    public init(id: String, kind: Kind, url: String? = nil, tiles: [String]? = nil, minZoom: Int? = nil, maxZoom: Int? = nil,
                bounds: LngLatBounds? = nil, scheme: Scheme? = nil, tileSize: Int? = nil, inlineData: JSONValue? = nil,
                videoURLs: [String] = []) {
        self.id = id
        self.kind = kind
        self.url = url
        self.tiles = tiles
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.bounds = bounds
        self.scheme = scheme
        self.tileSize = tileSize
        self.inlineData = inlineData
        self.videoURLs = videoURLs
    }

    /// Whether the source is loaded tile by tile.
    public var isTiled: Bool {
        switch kind {
        case .vector, .raster, .rasterDEM, .geojson, .batchedModel, .rasterArray: true
        case .image, .video, .model: false
        }
    }

}
