import Foundation
import MapSimJSON
import MapSimStyle
@testable import MapSim

/// Compares a decoded MLT tile with what it was made from — the MVT tile it was converted from, or
/// the spec's expected JSON — layer by layer and feature by feature, and lists every difference.
enum MLTFixtureComparison {
    /// A difference, and whether it is one the conversion from MVT made rather than the decoder.
    struct Difference: CustomStringConvertible {
        /// What the converter did, if it explains the difference.
        enum Artifact: String {
            /// An id of 0 where the MVT feature has none: the converter wrote one for every feature.
            case zeroForMissingID = "id 0 for a feature without one"
            /// A 64-bit id (OpenMapTiles' negative ids of relations) kept to its low 32 bits.
            case idNarrowedTo32Bits = "id narrowed to 32 bits"
            /// A number in a column whose values MVT gives of several types, which became strings.
            case numberAsString = "number stored as a string"
        }

        let text: String
        let artifact: Artifact?

        var description: String { text }
    }

    /// The differences between `decoded` and `expected`; numbers compare within float32 precision,
    /// since a converter may store a double property as a float column or the other way round.
    static func differences(_ decoded: VectorTile, _ expected: VectorTile) -> [Difference] {
        var differences: [Difference] = []
        // Encoders may order the layers differently.
        let decodedNames = decoded.layers.filter { !$0.features.isEmpty }.map(\.name).sorted()
        let expectedNames = expected.layers.filter { !$0.features.isEmpty }.map(\.name).sorted()
        if decodedNames != expectedNames { differences.append(Difference(text: "layers \(decodedNames), expected \(expectedNames)", artifact: nil)) }
        for layer in expected.layers where !layer.features.isEmpty {
            guard let mine = decoded.layer(named: layer.name) else { continue }
            if mine.extent != layer.extent { differences.append(Difference(text: "\(layer.name): extent \(mine.extent), expected \(layer.extent)", artifact: nil)) }
            if mine.features.count != layer.features.count {
                differences.append(Difference(text: "\(layer.name): \(mine.features.count) features, expected \(layer.features.count)", artifact: nil))
                continue
            }
            for (index, (feature, original)) in zip(mine.features, layer.features).enumerated() {
                let place = "\(layer.name) feature \(index)"
                if feature.id != original.id {
                    differences.append(Difference(text: "\(place): id \(describe(feature.id)), expected \(describe(original.id))", artifact: idArtifact(feature.id, original.id)))
                }
                if feature.geometryType != original.geometryType {
                    differences.append(Difference(text: "\(place): geometry type \(feature.geometryType.name), expected \(original.geometryType.name)", artifact: nil))
                }
                let geometry = feature.geometry(extent: layer.extent)
                let originalGeometry = original.geometry(extent: layer.extent)
                if geometry != originalGeometry {
                    differences.append(Difference(text: "\(place): geometry \(summary(geometry)), expected \(summary(originalGeometry))", artifact: nil))
                }
                differences += propertyDifferences(feature.properties, original.properties, at: place)
            }
        }
        return differences
    }

    private static func propertyDifferences(_ properties: JSONObject, _ expected: JSONObject, at place: String) -> [Difference] {
        var differences: [Difference] = []
        if Set(properties.keys) != Set(expected.keys) {
            differences.append(Difference(text: "\(place): keys \(properties.keys.sorted()), expected \(expected.keys.sorted())", artifact: nil))
        }
        for (key, value) in expected.members {
            guard let mine = properties[key], !same(mine, value) else { continue }
            let asString = mine.stringValue != nil && mine.stringValue.flatMap(Double.init) == value.numberValue
            differences.append(Difference(text: "\(place): \(key) = \(mine), expected \(value)", artifact: asString ? .numberAsString : nil))
        }
        return differences
    }

    private static func describe(_ id: JSONValue?) -> String {
        id?.numberValue.map { String(format: "%.0f", $0) } ?? "none"
    }

    private static func idArtifact(_ id: JSONValue?, _ expected: JSONValue?) -> Difference.Artifact? {
        guard let decoded = id?.numberValue else { return nil }
        guard let original = expected?.numberValue else { return decoded == 0 ? .zeroForMissingID : nil }
        // The original's 64 bits are its low 32 sign-extended: Double of the same 64-bit value.
        guard decoded >= 0, decoded <= Double(UInt32.max), original >= 0x1p63 else { return nil }
        let widened = UInt64(bitPattern: Int64(Int32(bitPattern: UInt32(decoded))))
        return Double(widened) == original ? .idNarrowedTo32Bits : nil
    }

    private static func same(_ value: JSONValue, _ expected: JSONValue) -> Bool {
        guard case .number(let number) = value, case .number(let other) = expected else { return value == expected }
        if number.isNaN || other.isNaN { return number.isNaN && other.isNaN }
        if number == other { return true }
        return abs(number - other) <= 1e-6 * max(1, abs(number), abs(other))
    }

    private static func summary(_ lines: [[TilePoint]]) -> String {
        let text = lines.map { $0.map { "\(Int($0.x)) \(Int($0.y))" }.joined(separator: ", ") }.joined(separator: " | ")
        return "\(lines.count) lines [" + (text.count > 300 ? String(text.prefix(300)) + "…" : text) + "]"
    }

    /// The tile the spec's expected JSON describes (a GeoJSON feature collection in tile
    /// coordinates, each feature's layer and extent among its properties), as MVT would give it.
    static func tile(fromExpectedJSON bytes: [UInt8]) throws -> VectorTile {
        let document = try JSONParser.parse(bytes)
        var layers: [VectorTile.Layer] = []
        for feature in document["features"]?.arrayValue ?? [] {
            var properties = feature["properties"]?.objectValue ?? JSONObject()
            let name = properties["_layer"]?.stringValue ?? ""
            let extent = UInt32(properties["_extent"]?.numberValue ?? 4096)
            properties["_layer"] = nil
            properties["_extent"] = nil
            for (key, value) in properties.members {
                if let special = value.stringValue.flatMap(specialNumber) { properties[key] = .number(special) }
            }
            let (type, lines) = shape(feature["geometry"] ?? .null)
            let converted = VectorTile.Feature(id: feature["id"], geometryType: type, properties: properties, shape: .points(lines, extent: extent))
            if let index = layers.firstIndex(where: { $0.name == name }) {
                layers[index].features.append(converted)
            } else {
                layers.append(VectorTile.Layer(name: name, extent: extent, features: [converted]))
            }
        }
        return VectorTile(layers: layers)
    }

    /// How the expected JSON writes floats JSON has no number for.
    private static func specialNumber(_ text: String) -> Double? {
        switch text {
        case "f32::NAN", "f64::NAN": .nan
        case "f32::INFINITY", "f64::INFINITY": .infinity
        case "f32::NEG_INFINITY", "f64::NEG_INFINITY": -.infinity
        default: nil
        }
    }

    private static func shape(_ geometry: JSONValue) -> (VectorTile.Feature.GeometryType, [[TilePoint]]) {
        let coordinates = geometry["coordinates"] ?? .null
        func point(_ value: JSONValue) -> TilePoint {
            TilePoint(x: value.arrayValue?.first?.numberValue ?? .nan, y: value.arrayValue?.dropFirst().first?.numberValue ?? .nan)
        }
        func line(_ value: JSONValue) -> [TilePoint] { (value.arrayValue ?? []).map(point) }
        func lines(_ value: JSONValue) -> [[TilePoint]] { (value.arrayValue ?? []).map(line) }
        switch geometry["type"]?.stringValue {
        case "Point": return (.point, [[point(coordinates)]])
        case "MultiPoint": return (.point, (coordinates.arrayValue ?? []).map { [point($0)] })
        case "LineString": return (.lineString, [line(coordinates)])
        case "MultiLineString": return (.lineString, lines(coordinates))
        case "Polygon": return (.polygon, lines(coordinates))
        case "MultiPolygon": return (.polygon, (coordinates.arrayValue ?? []).flatMap(lines))
        default: return (.unknown, [])
        }
    }
}
