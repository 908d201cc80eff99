/// What the tiles a map loaded hold, for checks that read the data (`mapsim validate --deep`): per
/// source the source layers its tiles have, with their features' fields, and per style layer the
/// images its features use.
public struct TileDataReport: Sendable, Equatable {
    /// One source layer as the loaded tiles have it.
    public struct SourceLayer: Sendable, Equatable {
        /// How many features the loaded tiles have in it.
        public var featureCount = 0
        /// Every property name of those features.
        public var fields: Set<String> = []
    }

    /// One source: the zooms of its loaded tiles and their source layers (a GeoJSON source has one,
    /// named "").
    public struct Source: Sendable, Equatable {
        public var zooms: Set<Int> = []
        public var layers: [String: SourceLayer] = [:]
    }

    /// The sources whose tiles have data, by id.
    public var sources: [String: Source] = [:]
    /// The images each style layer's features use, by layer id.
    public var imagesByLayer: [String: Set<String>] = [:]
}

extension LoadSequence {
    /// What the tiles loaded so far hold.
    var tileDataReport: TileDataReport {
        var report = TileDataReport()
        for source in load.sources {
            for (key, tile) in source.tiles {
                for (layer, images) in tile.layout?.imagesByLayer ?? [:] { report.imagesByLayer[layer, default: []].formUnion(images) }
                let layers: [(String, [VectorTile.Feature])]
                switch tile.content {
                case .vector(let data)?: layers = data.layers.map { ($0.name, $0.features) }
                case .geoJSON(let features)?: layers = [("", features)]
                default: continue
                }
                report.sources[source.spec.id, default: TileDataReport.Source()].zooms.insert(key.canonical.z)
                for (name, features) in layers {
                    var entry = report.sources[source.spec.id]?.layers[name] ?? TileDataReport.SourceLayer()
                    entry.featureCount += features.count
                    for feature in features { entry.fields.formUnion(feature.properties.keys) }
                    report.sources[source.spec.id]?.layers[name] = entry
                }
            }
        }
        return report
    }
}
