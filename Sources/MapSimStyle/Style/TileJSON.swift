/// The metadata of a tiled source, as a TileJSON document or a style's inline `tiles` gives it.
public struct TileJSON: Sendable, Equatable {
    /// Tile URL templates; the first one is used.
    public var tiles: [String]
    /// The lowest zoom with tiles (default 0).
    public var minZoom: Int
    /// The highest zoom with tiles (default 22).
    public var maxZoom: Int
    /// The area with tiles (default: the world).
    public var bounds: LngLatBounds
    /// The row scheme (default xyz).
    public var scheme: StyleSource.Scheme
    /// The ids of the vector layers the tiles carry, when the TileJSON lists them.
    public var vectorLayers: [String]
    /// The tile encoding the TileJSON names (`encoding`: `mvt` or `mlt`), if any.
    public var encoding: StyleSource.TileEncoding?

    /// Metadata with these values.
    public init(tiles: [String], minZoom: Int = 0, maxZoom: Int = 22, bounds: LngLatBounds = .world,
                scheme: StyleSource.Scheme = .xyz, vectorLayers: [String] = []) {
        self.tiles = tiles
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.bounds = bounds
        self.scheme = scheme
        self.vectorLayers = vectorLayers
    }

    /// Parses a TileJSON document; errors name the JSON path of the problem.
    public static func parse(_ bytes: [UInt8]) throws(StyleError) -> TileJSON {
        let root = try JSONField.document(bytes, what: "TileJSON")
        _ = try root.object()
        guard let tilesField = root.member("tiles") else { throw root.failure("TileJSON has no \"tiles\"") }
        let tiles = try tilesField.strings()
        guard !tiles.isEmpty else { throw tilesField.failure("expected at least one tile URL") }
        var tileJSON = TileJSON(tiles: tiles)
        tileJSON.minZoom = try root.member("minzoom")?.integer(in: 0...30) ?? 0
        tileJSON.maxZoom = try root.member("maxzoom")?.integer(in: 0...30) ?? 22
        guard tileJSON.minZoom <= tileJSON.maxZoom else {
            throw root.member("minzoom")!.failure("minzoom \(tileJSON.minZoom) is greater than maxzoom \(tileJSON.maxZoom)")
        }
        tileJSON.bounds = try root.member("bounds")?.bounds() ?? .world
        tileJSON.scheme = try root.member("scheme")?.enumeration(StyleSource.Scheme.self) ?? .xyz
        tileJSON.encoding = try root.member("encoding")?.enumeration(StyleSource.TileEncoding.self)
        if let layers = root.member("vector_layers") {
            for layer in try layers.array() {
                guard let id = layer.member("id") else { throw layer.failure("missing required property \"id\"") }
                tileJSON.vectorLayers.append(try id.string())
            }
        }
        return tileJSON
    }

    /// The metadata of a source, where the style's own values override the TileJSON's, as in the SDKs.
    public func overridden(by source: StyleSource) -> TileJSON {
        var result = self
        if let tiles = source.tiles { result.tiles = tiles }
        if let minZoom = source.minZoom { result.minZoom = minZoom }
        if let maxZoom = source.maxZoom { result.maxZoom = maxZoom }
        if let bounds = source.bounds { result.bounds = bounds }
        if let scheme = source.scheme { result.scheme = scheme }
        return result
    }
}
