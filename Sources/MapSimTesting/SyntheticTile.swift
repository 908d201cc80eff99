import MapSim
import MapSimJSON

/// A synthetic vector tile of about 550 KB in the source layers of Mapbox Streets and of the
/// benchmark style (roads, buildings, land use, water, places, POIs, transit stops), for benchmarks.
public enum SyntheticTile {
    /// The tile's bytes, the same on every call.
    public static func bytes() -> [UInt8] {
        var encoder = VectorTileEncoder()
        var random = SplitMix64(seed: 42)
        func point() -> (x: Int, y: Int) { (Int(random.next() % 4096), Int(random.next() % 4096)) }
        func line(_ count: Int) -> [(x: Int, y: Int)] { (0..<count).map { _ in point() } }
        let roadClasses = ["motorway", "trunk", "primary", "secondary", "tertiary", "street", "service", "path", "track", "pedestrian"]
        encoder.addLayer("road", features: (0..<3_000).map { index in
            .init(geometryType: 2, parts: [line(8)], properties: [("class", .string(roadClasses[index % roadClasses.count])), ("structure", .string(index % 7 == 0 ? "bridge" : "none")),
                                                                 ("name", .string("Road \(index)")), ("type", .string("road")), ("underground", .bool(index % 11 == 0))])
        })
        encoder.addLayer("building", features: (0..<2_500).map { index in
            .init(geometryType: 3, parts: [line(6)], properties: [("height", .number(Double(index % 40 + 3))), ("min_height", .number(0)),
                                                                 ("type", .string("building")), ("underground", .bool(false))])
        })
        encoder.addLayer("landuse", features: (0..<600).map { index in
            .init(geometryType: 3, parts: [line(10)], properties: [("class", .string(["park", "grass", "wood", "cemetery"][index % 4])), ("type", .string("x"))])
        })
        encoder.addLayer("water", features: (0..<150).map { _ in .init(geometryType: 3, parts: [line(12)], properties: [("class", .string("water"))]) })
        encoder.addLayer("place_label", features: (0..<600).map { index in
            .init(geometryType: 1, parts: [[point()]], properties: [
                ("class", .string(index % 2 == 0 ? "settlement" : "settlement_subdivision")), ("filterrank", .number(Double(index % 6))),
                ("name", .string(["Zürich", "Москва", "Αθήνα", "東京", "القاهرة", "São Paulo"][index % 6] + " \(index)")),
                ("name_en", .string("Place \(index)")), ("population", .number(Double(index * 1_000))), ("symbolrank", .number(Double(index % 18))),
                ("capital", .number(Double(index % 5))), ("text_anchor", .string(["left", "right", "top", "center"][index % 4])),
            ])
        })
        encoder.addLayer("poi_label", features: (0..<3_000).map { index in
            .init(geometryType: 1, parts: [[point()]], properties: [
                ("class", .string(["food_and_drink", "park_like", "education", "commercial_services"][index % 4])), ("filterrank", .number(Double(index % 6))),
                ("maki", .string(["cafe", "park", "school", "shop", "marker"][index % 5])), ("name", .string("Poi \(index) café")),
                ("sizerank", .number(Double(index % 16))), ("scale", .number(Double(index % 3))),
            ])
        })
        encoder.addLayer("transit_stop_label", features: (0..<400).map { index in
            .init(geometryType: 1, parts: [[point()]], properties: [("mode", .string(["rail", "bus", "metro_rail"][index % 3])), ("name", .string("Stop \(index)")),
                                                                   ("filterrank", .number(Double(index % 4)))])
        })
        return encoder.bytes
    }
}
