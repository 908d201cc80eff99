import MapSimJSON

/// A decoded Mapbox Vector Tile (spec 2.1): its layers, their features and feature properties.
///
/// Geometry command streams are checked for well-formedness, not kept: the simulator needs to know
/// which layers have features and what their properties say, not their shapes.
public struct VectorTile: Sendable, Equatable {
    /// One layer of a vector tile.
    public struct Layer: Sendable, Equatable {
        /// The layer name a style's `source-layer` refers to.
        public var name: String
        /// The tile extent in layer units (default 4096).
        public var extent: UInt32
        /// The features in tile order.
        public var features: [Feature]
    }

    /// A feature: its id, geometry type and properties.
    public struct Feature: Sendable, Equatable {
        /// The geometry types of the spec.
        public enum GeometryType: UInt64, Sendable {
            case unknown = 0, point = 1, lineString = 2, polygon = 3
        }

        /// The feature id, if any.
        public var id: UInt64?
        /// The geometry type.
        public var geometryType: GeometryType
        /// The properties, in tag order.
        public var properties: [(key: String, value: JSONValue)]

        /// The property `key`, if present.
        public func property(_ key: String) -> JSONValue? {
            properties.first { $0.key == key }?.value
        }

        public static func == (lhs: Feature, rhs: Feature) -> Bool {
            lhs.id == rhs.id && lhs.geometryType == rhs.geometryType && lhs.properties.count == rhs.properties.count
                && zip(lhs.properties, rhs.properties).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        }
    }

    /// The layers in tile order.
    public var layers: [Layer]

    /// The layer called `name`.
    public func layer(named name: String) -> Layer? {
        layers.first { $0.name == name }
    }

    /// Decodes an uncompressed vector tile; truncated or corrupt data gives a `LoadingError`.
    public static func decode(_ bytes: [UInt8]) throws(LoadingError) -> VectorTile {
        if bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B {
            throw LoadingError.malformedResource("the tile is gzip-compressed; mapsim reads uncompressed tiles (serve them with Content-Encoding: gzip, or unzip them)")
        }
        var reader = ProtobufReader(bytes)
        var layers: [Layer] = []
        while !reader.isAtEnd {
            let field = try reader.nextField()
            if field.number == 3 && field.type == .lengthDelimited {
                var layerReader = try reader.message()
                layers.append(try decodeLayer(&layerReader, index: layers.count))
            } else {
                try reader.skip(field.type)
            }
        }
        return VectorTile(layers: layers)
    }

    private static func decodeLayer(_ reader: inout ProtobufReader, index: Int) throws(LoadingError) -> Layer {
        var name: String?
        var extent: UInt32 = 4096
        var version: UInt64 = 1
        var keys: [String] = []
        var values: [JSONValue] = []
        var rawFeatures: [ProtobufReader] = []
        while !reader.isAtEnd {
            let field = try reader.nextField()
            switch (field.number, field.type) {
            case (1, .lengthDelimited): name = try reader.string()
            case (2, .lengthDelimited): rawFeatures.append(try reader.message())
            case (3, .lengthDelimited): keys.append(try reader.string())
            case (4, .lengthDelimited):
                var valueReader = try reader.message()
                values.append(try decodeValue(&valueReader))
            case (5, .varint): extent = UInt32(truncatingIfNeeded: try reader.varint())
            case (15, .varint): version = try reader.varint()
            default: try reader.skip(field.type)
            }
        }
        guard let name else { throw LoadingError.malformedResource("layer \(index) of the tile has no name") }
        guard (1...2).contains(version) else { throw LoadingError.malformedResource("layer \"\(name)\" has unsupported version \(version)") }
        guard extent > 0 else { throw LoadingError.malformedResource("layer \"\(name)\" has extent 0") }
        var features: [Feature] = []
        for (featureIndex, var featureReader) in rawFeatures.enumerated() {
            features.append(try decodeFeature(&featureReader, keys: keys, values: values, where: "feature \(featureIndex) of layer \"\(name)\""))
        }
        return Layer(name: name, extent: extent, features: features)
    }

    private static func decodeFeature(_ reader: inout ProtobufReader, keys: [String], values: [JSONValue], where location: String) throws(LoadingError) -> Feature {
        var feature = Feature(id: nil, geometryType: .unknown, properties: [])
        var tags: [UInt64] = []
        var geometry: [UInt64] = []
        while !reader.isAtEnd {
            let field = try reader.nextField()
            switch field.number {
            case 1: feature.id = try reader.varint()
            case 2: tags += try reader.packedVarints(field.type)
            case 3: feature.geometryType = Feature.GeometryType(rawValue: try reader.varint()) ?? .unknown
            case 4: geometry += try reader.packedVarints(field.type)
            default: try reader.skip(field.type)
            }
        }
        guard tags.count % 2 == 0 else { throw LoadingError.malformedResource("\(location) has an odd number of tags") }
        for pair in stride(from: 0, to: tags.count, by: 2) {
            guard tags[pair] < keys.count, tags[pair + 1] < values.count else {
                throw LoadingError.malformedResource("\(location) has a tag index outside the layer's keys or values")
            }
            feature.properties.append((keys[Int(tags[pair])], values[Int(tags[pair + 1])]))
        }
        try checkGeometry(geometry, where: location)
        return feature
    }

    private static func checkGeometry(_ commands: [UInt64], where location: String) throws(LoadingError) {
        var index = 0
        while index < commands.count {
            let command = commands[index] & 7
            let count = Int(commands[index] >> 3)
            index += 1
            switch command {
            case 1, 2:
                guard count <= (commands.count - index) / 2 else { throw LoadingError.malformedResource("\(location) has a truncated geometry") }
                index += 2 * count
            case 7:
                break
            default:
                throw LoadingError.malformedResource("\(location) has an unknown geometry command \(command)")
            }
        }
    }

    private static func decodeValue(_ reader: inout ProtobufReader) throws(LoadingError) -> JSONValue {
        var value = JSONValue.null
        while !reader.isAtEnd {
            let field = try reader.nextField()
            switch (field.number, field.type) {
            case (1, .lengthDelimited): value = .string(try reader.string())
            case (2, .fixed32): value = .number(Double(Float(bitPattern: try reader.fixed32())))
            case (3, .fixed64): value = .number(Double(bitPattern: try reader.fixed64()))
            case (4, .varint): value = .number(Double(Int64(bitPattern: try reader.varint())))
            case (5, .varint): value = .number(Double(try reader.varint()))
            case (6, .varint): value = .number(Double(try reader.zigzag()))
            case (7, .varint): value = .bool(try reader.varint() != 0)
            default: try reader.skip(field.type)
            }
        }
        return value
    }
}
