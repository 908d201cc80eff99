import Benchmark
import MapSim
import MapSimJSON
import MapSimStyle
import MapSimTesting
import SwiftProtobuf

/// Which vector tile decoder is faster: mapsim's hand reader (VectorTile.decode, features with their
/// properties as objects and geometry checked) or swift-protobuf (the messages of ProtoVectorTile,
/// then the same features built from them). The tile is the Expressions benchmark's 558 KB one.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal], maxDuration: .seconds(10), maxIterations: 300)
    let tile = SyntheticTile.bytes()

    Benchmark("Hand reader: decode a \(tile.count / 1000) KB tile into features") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try VectorTile.decode(tile))
        }
    }

    Benchmark("swift-protobuf: decode a \(tile.count / 1000) KB tile into messages") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try ProtoTile(serializedBytes: tile))
        }
    }

    Benchmark("swift-protobuf: decode a \(tile.count / 1000) KB tile into features") { benchmark in
        for _ in benchmark.scaledIterations {
            let decoded = try ProtoTile(serializedBytes: tile)
            var features = 0
            for layer in decoded.layers {
                let values: [JSONValue] = layer.values.map { value in
                    if let text = value.stringValue { return .string(text) }
                    if let number = value.doubleValue { return .number(number) }
                    if let number = value.floatValue { return .number(Double(number)) }
                    if let number = value.intValue ?? value.sintValue { return .number(Double(number)) }
                    if let number = value.uintValue { return .number(Double(number)) }
                    if let flag = value.boolValue { return .bool(flag) }
                    return .null
                }
                for feature in layer.features {
                    var members: [(key: String, value: JSONValue)] = []
                    members.reserveCapacity(feature.tags.count / 2)
                    for pair in stride(from: 0, to: feature.tags.count - 1, by: 2) {
                        members.append((layer.keys[Int(feature.tags[pair])], values[Int(feature.tags[pair + 1])]))
                    }
                    blackHole(JSONObject(members: members))
                    features += 1
                }
            }
            blackHole(features)
        }
    }
}
