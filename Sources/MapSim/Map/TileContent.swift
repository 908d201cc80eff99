import MapSimJSON
import MapSimStyle

/// What a tile's data holds that loading and rendering care about.
enum TileContent: Sendable {
    /// A raster image: every layer of the source draws it.
    case image
    /// A decoded vector tile (no layers for an empty tile).
    case vector(VectorTile)
    /// The features of a GeoJSON source that fall in the tile: one layer that every style layer reads.
    case geoJSON([VectorTile.Feature])

    /// A tile without data (204, or 304 without a body).
    static let empty = TileContent.vector(VectorTile(layers: []))

    /// The features a style layer of `sourceLayer` reads, with their extent; nil for images.
    func features(in sourceLayer: String?) -> (features: [VectorTile.Feature], extent: UInt32)? {
        switch self {
        case .image: nil
        case .geoJSON(let features): (features, GeoJSONTiler.extent)
        case .vector(let tile): tile.layer(named: sourceLayer ?? "").map { ($0.features, $0.extent) } ?? ([], 4096)
        }
    }

    /// Whether a layer of `sourceLayer` has anything to draw in the tile.
    func hasFeatures(in sourceLayer: String?) -> Bool {
        guard let features = features(in: sourceLayer) else { return true }
        return !features.features.isEmpty
    }
}
