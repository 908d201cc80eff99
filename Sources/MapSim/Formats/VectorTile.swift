import MapSimJSON
import MapSimStyle

/// A decoded Mapbox Vector Tile (spec 2.1): its layers, their features and feature properties.
///
/// Geometry command streams are checked for well-formedness when the tile is decoded and kept as
/// they are; `Feature.geometry(extent:)` decodes them when an expression needs the shapes.
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

    /// A feature: its id, geometry type, properties and geometry.
    public struct Feature: Sendable, Equatable {
        /// The geometry types of the spec.
        public enum GeometryType: UInt64, Sendable {
            case unknown = 0, point = 1, lineString = 2, polygon = 3

            /// The name expressions see (`["geometry-type"]`).
            public var name: String {
                switch self {
                case .unknown: "Unknown"
                case .point: "Point"
                case .lineString: "LineString"
                case .polygon: "Polygon"
                }
            }
        }

        /// The feature id, if any: a number from the tile, or whatever `promoteId` or GeoJSON gives.
        public var id: JSONValue?
        /// The geometry type.
        public var geometryType: GeometryType
        /// The properties, in tag order.
        public var properties: JSONObject
        /// The geometry: lines or rings of points in tile units of `geometryExtent`.
        public var shape: Shape

        /// A feature's geometry: the tile's packed command stream (checked, not yet decoded), or
        /// points already decoded (GeoJSON).
        public enum Shape: Sendable, Equatable {
            case packed([UInt8], range: Range<Int>, extent: UInt32)
            case points([[TilePoint]], extent: UInt32)
        }

        public init(id: JSONValue? = nil, geometryType: GeometryType, properties: JSONObject, shape: Shape = .points([], extent: 4096)) {
            self.id = id
            self.geometryType = geometryType
            self.properties = properties
            self.shape = shape
        }

        /// The property `key`, if present.
        public func property(_ key: String) -> JSONValue? {
            properties[key]
        }

        /// The geometry as lines or rings of points, scaled to a tile of `extent` units.
        public func geometry(extent: UInt32) -> [[TilePoint]] {
            switch shape {
            case .points(let lines, let own):
                if own == extent { return lines }
                let scale = Double(extent) / Double(own)
                return lines.map { $0.map { TilePoint(x: $0.x * scale, y: $0.y * scale) } }
            case .packed(let bytes, let range, let own):
                var reader = ProtobufReader(bytes, range: range)
                var commands: [UInt32] = []
                while !reader.isAtEnd, let value = try? reader.varint() { commands.append(UInt32(truncatingIfNeeded: value)) }
                return VectorTile.decodeGeometry(commands, scale: Double(extent) / Double(own))
            }
        }
    }

    /// The layers in tile order.
    public var layers: [Layer]

    /// The layer called `name`.
    public func layer(named name: String) -> Layer? {
        layers.first { $0.name == name }
    }

    /// Decodes an uncompressed tile in `encoding`: a Mapbox Vector Tile, or a MapLibre Tile
    /// (`MLTTile`), both into the one feature model.
    public static func decode(_ bytes: [UInt8], encoding: StyleSource.TileEncoding) throws(LoadingError) -> VectorTile {
        switch encoding {
        case .mvt: try decode(bytes)
        case .mlt: try MLTTile.decode(bytes)
        }
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
            features.append(try decodeFeature(&featureReader, keys: keys, values: values, extent: extent, index: featureIndex, layer: name))
        }
        return Layer(name: name, extent: extent, features: features)
    }

    private static func decodeFeature(_ reader: inout ProtobufReader, keys: [String], values: [JSONValue], extent: UInt32,
                                      index: Int, layer: String) throws(LoadingError) -> Feature {
        var location: String { "feature \(index) of layer \"\(layer)\"" }
        var feature = Feature(geometryType: .unknown, properties: JSONObject())
        var members: [(key: String, value: JSONValue)] = []
        var geometry: (buffer: [UInt8], range: Range<Int>) = ([], 0..<0)
        func addTag(_ key: UInt64, _ value: UInt64) throws(LoadingError) {
            guard key < keys.count, value < values.count else {
                throw LoadingError.malformedResource("\(location) has a tag index outside the layer's keys or values")
            }
            members.append((keys[Int(key)], values[Int(value)]))
        }
        var pendingKey: UInt64?
        while !reader.isAtEnd {
            let field = try reader.nextField()
            switch (field.number, field.type) {
            case (1, .varint): feature.id = .number(Double(try reader.varint()))
            case (2, .lengthDelimited):
                var tags = try reader.message()
                members.reserveCapacity(members.count + 8)
                while !tags.isAtEnd {
                    let key = try tags.varint()
                    guard !tags.isAtEnd else { throw LoadingError.malformedResource("\(location) has an odd number of tags") }
                    try addTag(key, try tags.varint())
                }
            case (2, .varint):
                let value = try reader.varint()
                if let key = pendingKey {
                    try addTag(key, value)
                    pendingKey = nil
                } else {
                    pendingKey = value
                }
            case (3, .varint): feature.geometryType = Feature.GeometryType(rawValue: try reader.varint()) ?? .unknown
            case (4, .lengthDelimited): geometry = try reader.dataRange()
            default: try reader.skip(field.type)
            }
        }
        if pendingKey != nil { throw LoadingError.malformedResource("\(location) has an odd number of tags") }
        try checkGeometry(geometry.buffer, range: geometry.range, where: { location })
        feature.properties = JSONObject(members: members)
        feature.shape = .packed(geometry.buffer, range: geometry.range, extent: extent)
        return feature
    }

    /// Checks a packed command stream: known commands, each with all the coordinates it announces.
    private static func checkGeometry(_ bytes: [UInt8], range: Range<Int>, where location: () -> String) throws(LoadingError) {
        var reader = ProtobufReader(bytes, range: range)
        while !reader.isAtEnd {
            let header = try reader.varint()
            let command = header & 7
            let count = header >> 3
            switch command {
            case 1, 2:
                for _ in 0..<(2 * count) {
                    guard !reader.isAtEnd else { throw LoadingError.malformedResource("\(location()) has a truncated geometry") }
                    _ = try reader.varint()
                }
            case 7:
                break
            default:
                throw LoadingError.malformedResource("\(location()) has an unknown geometry command \(command)")
            }
        }
    }

    /// Decodes a checked command stream: MoveTo starts a line or ring, LineTo extends it, ClosePath
    /// closes a ring by repeating its first point.
    static func decodeGeometry(_ commands: [UInt32], scale: Double) -> [[TilePoint]] {
        var lines: [[TilePoint]] = []
        var x: Int64 = 0
        var y: Int64 = 0
        var index = 0
        func zigzag(_ value: UInt32) -> Int64 { Int64(value >> 1) ^ -Int64(value & 1) }
        while index < commands.count {
            let command = commands[index] & 7
            let count = Int(commands[index] >> 3)
            index += 1
            switch command {
            case 1, 2:
                for _ in 0..<count where index + 1 < commands.count {
                    x += zigzag(commands[index])
                    y += zigzag(commands[index + 1])
                    index += 2
                    if command == 1 || lines.isEmpty { lines.append([]) }
                    lines[lines.count - 1].append(TilePoint(x: Double(x) * scale, y: Double(y) * scale))
                }
            case 7:
                if let first = lines.last?.first { lines[lines.count - 1].append(first) }
            default:
                return lines
            }
        }
        return lines
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
