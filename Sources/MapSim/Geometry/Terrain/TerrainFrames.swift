import MapSimStyle

/// The tile requests of a map with 3D terrain, frame by frame, as GL JS makes them: each frame
/// covers every source with the DEM tiles loaded so far (their heights bound the tiles' volumes, and
/// the centre's elevation raises the camera), and asks for the tiles no frame asked for before.
///
/// GL JS updates the sources before the elevation, so requests build up over frames: frame 0 has no
/// DEM and covers the flat map, plus the DEM source's own cover; once its DEM tiles arrive, frame 1
/// sees the terrain and may want more; and so on until a frame asks for nothing new. Every request
/// stands: GL JS lets those of earlier frames finish. The load sequence feeds each DEM tile that
/// arrives (`demTileArrived`) and asks for each frame's new requests (`nextFrame`).
public struct TerrainFrames: Sendable {
    /// A source the frames cover.
    public struct Source: Sendable, Hashable {
        /// The source's id.
        public var id: String
        /// How it is covered.
        public var options: CoveringTiles.SourceOptions

        /// A source `id` covered with `options`.
        public init(id: String, options: CoveringTiles.SourceOptions) {
            self.id = id
            self.options = options
        }
    }

    /// What one frame asks for.
    public struct Frame: Sendable, Hashable {
        /// The frame's number, from 0.
        public var number: Int
        /// Each source's tiles that no earlier frame asked for, in request order; sources with none are absent.
        public var requests: [String: [OverscaledTileID]]

        /// Whether the frame asks for nothing.
        public var isEmpty: Bool { requests.isEmpty }
    }

    /// The camera.
    public let camera: Camera
    /// The view.
    public let viewport: Viewport
    /// The map's projection.
    public let projection: StyleProjection
    /// The sources, the terrain's DEM source among them.
    public let sources: [Source]
    /// The id of the terrain's DEM source.
    public let terrainSource: String
    /// How the DEM source's pixels encode heights.
    public let encoding: DEMEncoding
    /// The DEM tiles arrived so far.
    public private(set) var elevation: TerrainElevation
    /// Every tile asked for so far, per source, in request order: the union of the frames.
    public private(set) var requested: [String: [OverscaledTileID]] = [:]
    /// DEM tiles asked for that have neither arrived nor failed.
    public private(set) var pendingDEMTiles: Set<CanonicalTileID> = []
    /// How many frames have run.
    public private(set) var frameCount = 0

    private var asked: [String: Set<TileKey>] = [:]
    private var lastFrameWasEmpty = false
    private var demChangedSinceLastFrame = false

    /// Frames for `camera` over `sources`, with terrain on `terrainSource` (one of them) exaggerated
    /// `exaggeration` times.
    public init(camera: Camera, viewport: Viewport, projection: StyleProjection = .mercator, sources: [Source], terrainSource: String,
                encoding: DEMEncoding = .mapbox, exaggeration: Double = 1) {
        self.camera = camera
        self.viewport = viewport
        self.projection = projection
        self.sources = sources
        self.terrainSource = terrainSource
        self.encoding = encoding
        let dem = sources.first { $0.id == terrainSource }?.options ?? CoveringTiles.SourceOptions()
        elevation = TerrainElevation(exaggeration: exaggeration, demZoomRange: dem.minZoom...dem.maxZoom)
    }

    /// Whether the requests have settled: the last frame asked for nothing new, no DEM tile arrived
    /// since, and none is awaited.
    public var isSettled: Bool { lastFrameWasEmpty && !demChangedSinceLastFrame && pendingDEMTiles.isEmpty }

    /// Runs the next frame: every source covered with the terrain as the arrived DEM tiles make it.
    public mutating func nextFrame() -> Frame {
        let terrain = elevation.coverTerrain(for: camera)
        var frame = Frame(number: frameCount, requests: [:])
        for source in sources {
            let cover = source.id == terrainSource
                ? CoveringTiles.terrainDEMTiles(camera: camera, viewport: viewport, projection: projection, source: source.options, terrain: terrain)
                : CoveringTiles.tiles(camera: camera, viewport: viewport, projection: projection, source: source.options, terrain: terrain)
            let new = cover.filter { asked[source.id, default: []].insert(TileKey(canonical: $0.canonical, wrap: $0.wrap)).inserted }
            guard !new.isEmpty else { continue }
            frame.requests[source.id] = new
            requested[source.id, default: []] += new
            if source.id == terrainSource {
                pendingDEMTiles.formUnion(new.map(\.canonical).filter { elevation.tiles[$0] == nil })
            }
        }
        frameCount += 1
        lastFrameWasEmpty = frame.isEmpty
        demChangedSinceLastFrame = false
        return frame
    }

    /// A DEM tile arrived with these bytes: decoded, it shapes the next frame. A PNG that does not
    /// decode is a `LoadingError` naming the tile (the tile then counts as failed).
    public mutating func demTileArrived(_ tile: CanonicalTileID, png: [UInt8]) throws(LoadingError) {
        pendingDEMTiles.remove(tile)
        let dem: DEMTile
        do {
            dem = try DEMTile.decode(png: png, encoding: encoding)
        } catch {
            throw LoadingError.malformedResource("DEM tile \(tile) of source \(StyleScope.quoted(terrainSource)): \(error.message)")
        }
        elevation.add(dem, at: tile)
        demChangedSinceLastFrame = true
    }

    /// A DEM tile failed: the terrain does without it.
    public mutating func demTileFailed(_ tile: CanonicalTileID) {
        pendingDEMTiles.remove(tile)
    }
}
