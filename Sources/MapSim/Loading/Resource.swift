import MapSimStyle

/// A request for one resource, as MapLibre's storage layer models it.
public struct Resource: Sendable, Equatable {
    /// What the resource is, for priorities, caching and events.
    public enum Kind: String, Sendable, CaseIterable {
        case unknown, style, source, tile, glyphs
        case spriteImage = "sprite-image"
        case spriteJSON = "sprite-json"
        case image
        /// A 3D model (glTF `.glb`) a Mapbox style names.
        case model
    }

    /// The order in which waiting requests are served.
    public enum Priority: String, Sendable {
        case regular, low
    }

    /// Where a request may be answered from.
    public struct LoadingMethod: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// From the cache.
        public static let cache = LoadingMethod(rawValue: 1)
        /// From the network.
        public static let network = LoadingMethod(rawValue: 2)
        /// Cache first, then network.
        public static let all: LoadingMethod = [.cache, .network]

        /// The names as the resource-request event lists them: `["cache", "network"]` (no array is
        /// made: there are four of them).
        public var names: [String] {
            Self.namesByRawValue[rawValue & 3]
        }

        private static let namesByRawValue = [[], ["cache"], ["network"], ["cache", "network"]]
    }

    /// How long a cached copy should be kept.
    public enum StoragePolicy: String, Sendable {
        case permanent, volatile
    }

    /// The tile a tile request is for.
    public struct TileData: Sendable, Equatable {
        /// The URL template the URL was made from.
        public var urlTemplate: String
        /// The pixel ratio it was made for.
        public var pixelRatio: Double
        /// The tile.
        public var id: CanonicalTileID
        /// How the template numbers rows: `tms` rows count from the south.
        public var scheme: StyleSource.Scheme
        /// Whether the tile is an image (raster and raster-dem sources): browsers load it as one.
        public var isImage: Bool

        /// Tile data for a request.
        public init(urlTemplate: String, pixelRatio: Double, id: CanonicalTileID, scheme: StyleSource.Scheme = .xyz, isImage: Bool = false) {
            self.urlTemplate = urlTemplate
            self.pixelRatio = pixelRatio
            self.id = id
            self.scheme = scheme
            self.isImage = isImage
        }

        /// The row as the URL has it: flipped for `tms` (MapLibre's offline database keys tiles by it).
        public var urlY: Int {
            scheme == .tms ? id.tmsY : id.y
        }
    }

    /// What a cached copy said, sent along for revalidation.
    public struct Prior: Sendable, Equatable {
        /// The `Last-Modified` of the copy.
        public var modified: HTTPDate?
        /// When the copy expires.
        public var expires: HTTPDate?
        /// The `ETag` of the copy.
        public var etag: String?
        /// The data of the copy.
        public var data: [UInt8]?

        /// A prior copy.
        public init(modified: HTTPDate? = nil, expires: HTTPDate? = nil, etag: String? = nil, data: [UInt8]? = nil) {
            self.modified = modified
            self.expires = expires
            self.etag = etag
            self.data = data
        }
    }

    /// The URL to load.
    public var url: String
    /// What it is.
    public var kind: Kind
    /// Regular, or low for background refreshes.
    public var priority: Priority
    /// Cache, network or both.
    public var loadingMethod: LoadingMethod
    /// How long the cache should keep it.
    public var storagePolicy: StoragePolicy
    /// The tile, for tile requests.
    public var tileData: TileData?
    /// A cached copy to revalidate.
    public var prior: Prior?
    /// The wall-clock time the request was sent, on the map's clock (virtual or real); a simulated
    /// server dates its answer with it.
    public var issued: HTTPDate?
    /// The bytes asked for, first and last included (an HTTP `Range`, a PMTiles read); nil for all.
    /// A last byte of `UInt64.max` asks for everything from the first on (`Range: bytes=0-`, as a
    /// browser asks for a video).
    public var dataRange: ClosedRange<UInt64>?
    /// The import of the style the request is for (Mapbox's `imports`): the root style's own
    /// requests have the root scope.
    public var scope = StyleScope.root

    /// A request for `url`.
    public init(url: String, kind: Kind, priority: Priority = .regular, loadingMethod: LoadingMethod = .all,
                storagePolicy: StoragePolicy = .permanent, tileData: TileData? = nil, prior: Prior? = nil) {
        self.url = url
        self.kind = kind
        self.priority = priority
        self.loadingMethod = loadingMethod
        self.storagePolicy = storagePolicy
        self.tileData = tileData
        self.prior = prior
    }
}

extension Resource {
    /// Whether a browser loads it as an image: a sprite sheet, an image source, a raster tile.
    public var isImage: Bool {
        kind == .spriteImage || kind == .image || tileData?.isImage == true
    }
}
