import MapSimJSON
import MapSimStyle

/// What a tile's data holds that loading and rendering care about.
struct TileContent: Sendable, Equatable {
    /// Names of the source layers with at least one feature; nil means "every layer" (raster, GeoJSON).
    var layersWithFeatures: Set<String>?
    /// The property lists of the features of each source layer, for text.
    var featureProperties: [String: [[(key: String, value: JSONValue)]]]

    static func == (lhs: TileContent, rhs: TileContent) -> Bool {
        lhs.layersWithFeatures == rhs.layersWithFeatures && lhs.featureProperties.keys.sorted() == rhs.featureProperties.keys.sorted()
    }

    static let opaque = TileContent(layersWithFeatures: nil, featureProperties: [:])

    func hasFeatures(in sourceLayer: String?) -> Bool {
        guard let layersWithFeatures else { return true }
        guard let sourceLayer else { return !layersWithFeatures.isEmpty }
        return layersWithFeatures.contains(sourceLayer)
    }

    func properties(in sourceLayer: String?) -> [[(key: String, value: JSONValue)]] {
        featureProperties[sourceLayer ?? ""] ?? featureProperties[""] ?? []
    }
}

extension TileContent {
    /// The content of a decoded vector tile.
    init(_ tile: VectorTile) {
        var layers = Set<String>()
        var properties: [String: [[(key: String, value: JSONValue)]]] = [:]
        for layer in tile.layers where !layer.features.isEmpty {
            layers.insert(layer.name)
            properties[layer.name, default: []] += layer.features.map(\.properties)
        }
        self.init(layersWithFeatures: layers, featureProperties: properties)
    }
}
