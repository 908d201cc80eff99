import Benchmark
import Foundation
import MapSim
import MapSimJSON
import MapSimStyle
import MapSimTesting

/// The expression engine on features, and the tile layout that decides a tile's glyphs and images:
/// a synthetic ~500 KB vector tile (roads, buildings, land use, water, places, POIs, transit stops)
/// laid out for every layer of the 941-layer benchmark style, whose symbol layers use streets-like
/// expressions (format, coalesce, match, step, interpolate). Set MAPSIM_BENCH_STYLE to a style file
/// (for example Mapbox Streets v12) to lay the same tile out for that style instead.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .peakMemoryResident, .mallocCountTotal],
                                           maxDuration: .seconds(10), maxIterations: 1000)
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fixtures/large-style.json").path
    let stylePath = ProcessInfo.processInfo.environment["MAPSIM_BENCH_STYLE"] ?? fixture
    let style = (try? Style.parse(Array((try? Data(contentsOf: URL(fileURLWithPath: stylePath))) ?? Data()))) ?? Style()
    let source = style.sources.first { $0.kind == .vector }?.id ?? "composite"
    let tile = SyntheticTile.bytes()

    Benchmark("Decode and lay out a \(tile.count / 1000) KB vector tile for \(style.layers.count) layers",
              configuration: .init(metrics: [.wallClock, .peakMemoryResident], maxIterations: 200)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try TileRequirements(vectorTile: tile, style: style, source: source, tile: CanonicalTileID(z: 14, x: 8_000, y: 5_000),
                                           availableImages: ["marker"]))
        }
    }

    // The decoding alone: a tile with no layer on its source.
    Benchmark("Decode a \(tile.count / 1000) KB vector tile", configuration: .init(metrics: [.wallClock, .peakMemoryResident], maxIterations: 200)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try TileRequirements(vectorTile: tile, style: Style(), source: source, tile: CanonicalTileID(z: 14, x: 8_000, y: 5_000)))
        }
    }

    // One symbol layer's filter, text, font and icon on 10,000 features: the per-feature cost.
    let filter = try? StyleFilter(try JSONParser.parse(#"["all", ["<=", ["get", "filterrank"], 3], ["match", ["get", "class"], ["settlement", "settlement_subdivision"], true, false]]"#))
    let text = try? StyleExpression.compile(try JSONParser.parse(#"["format", ["coalesce", ["get", "name_en"], ["get", "name"]], {"font-scale": 1.1}, "\n", {}, ["to-string", ["get", "population"]], {"font-scale": 0.8}]"#),
                                           propertySpec: nil).get()
    let font = try? StyleExpression.compile(try JSONParser.parse(#"["step", ["zoom"], ["literal", ["DIN Pro Regular"]], 8, ["literal", ["DIN Pro Medium"]]]"#), propertySpec: nil).get()
    let features = (0..<10_000).map { (index: Int) -> ExpressionFeature in
        let kind: JSONValue = .string(index % 3 == 0 ? "settlement" : "poi")
        let members: [(String, JSONValue)] = [("class", kind), ("filterrank", .number(Double(index % 6))), ("name", .string("Place \(index)")),
                                              ("population", .number(Double(index * 37)))]
        return ExpressionFeature(properties: JSONObject(members), geometryType: "Point")
    }
    Benchmark("Evaluate a filter, a format text-field and a step text-font on 10k features",
              configuration: .init(metrics: [.wallClock, .throughput], scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations {
            var context = ExpressionContext(zoom: 12)
            var passed = 0
            for feature in features {
                context.feature = feature
                guard filter?.matches(context) == true else { continue }
                passed += 1
                blackHole(try? text?.evaluate(context))
                blackHole(try? font?.evaluate(context))
            }
            blackHole(passed)
        }
    }
}

/// A synthetic vector tile of about 500 KB in the source layers of the benchmark style.
enum SyntheticTile {
    static func bytes() -> [UInt8] {
        var encoder = VectorTileEncoder()
        var random = SplitMix(seed: 42)
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

/// A small deterministic random number generator for the synthetic data.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
