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
