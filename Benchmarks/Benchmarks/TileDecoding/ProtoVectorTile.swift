import SwiftProtobuf

// The Mapbox Vector Tile 2.1 messages (vector_tile.proto) for swift-protobuf, written in the shape
// protoc-gen-swift generates, so that its decoder can be measured against mapsim's hand reader.

struct ProtoTile: SwiftProtobuf.Message, SwiftProtobuf._MessageImplementationBase, SwiftProtobuf._ProtoNameProviding {
    static let protoMessageName = "vector_tile.Tile"
    static let _protobuf_nameMap: SwiftProtobuf._NameMap = [3: .same(proto: "layers")]

    var layers: [ProtoLayer] = []
    var unknownFields = SwiftProtobuf.UnknownStorage()

    init() {}

    mutating func decodeMessage<D: SwiftProtobuf.Decoder>(decoder: inout D) throws {
        while let field = try decoder.nextFieldNumber() {
            if field == 3 { try decoder.decodeRepeatedMessageField(value: &layers) }
        }
    }

    func traverse<V: SwiftProtobuf.Visitor>(visitor: inout V) throws {
        if !layers.isEmpty { try visitor.visitRepeatedMessageField(value: layers, fieldNumber: 3) }
        try unknownFields.traverse(visitor: &visitor)
    }

    static func == (lhs: ProtoTile, rhs: ProtoTile) -> Bool {
        lhs.layers == rhs.layers && lhs.unknownFields == rhs.unknownFields
    }
}

struct ProtoLayer: SwiftProtobuf.Message, SwiftProtobuf._MessageImplementationBase, SwiftProtobuf._ProtoNameProviding {
    static let protoMessageName = "vector_tile.Tile.Layer"
    static let _protobuf_nameMap: SwiftProtobuf._NameMap = [
        15: .same(proto: "version"), 1: .same(proto: "name"), 2: .same(proto: "features"), 3: .same(proto: "keys"),
        4: .same(proto: "values"), 5: .same(proto: "extent"),
    ]

    var version: UInt32 = 1
    var name = ""
    var features: [ProtoFeature] = []
    var keys: [String] = []
    var values: [ProtoValue] = []
    var extent: UInt32 = 4096
    var unknownFields = SwiftProtobuf.UnknownStorage()

    init() {}

    mutating func decodeMessage<D: SwiftProtobuf.Decoder>(decoder: inout D) throws {
        while let field = try decoder.nextFieldNumber() {
            switch field {
            case 15: try decoder.decodeSingularUInt32Field(value: &version)
            case 1: try decoder.decodeSingularStringField(value: &name)
            case 2: try decoder.decodeRepeatedMessageField(value: &features)
            case 3: try decoder.decodeRepeatedStringField(value: &keys)
            case 4: try decoder.decodeRepeatedMessageField(value: &values)
            case 5: try decoder.decodeSingularUInt32Field(value: &extent)
            default: break
            }
        }
    }

    func traverse<V: SwiftProtobuf.Visitor>(visitor: inout V) throws {
        try visitor.visitSingularStringField(value: name, fieldNumber: 1)
        if !features.isEmpty { try visitor.visitRepeatedMessageField(value: features, fieldNumber: 2) }
        if !keys.isEmpty { try visitor.visitRepeatedStringField(value: keys, fieldNumber: 3) }
        if !values.isEmpty { try visitor.visitRepeatedMessageField(value: values, fieldNumber: 4) }
        try visitor.visitSingularUInt32Field(value: extent, fieldNumber: 5)
        try visitor.visitSingularUInt32Field(value: version, fieldNumber: 15)
        try unknownFields.traverse(visitor: &visitor)
    }

    static func == (lhs: ProtoLayer, rhs: ProtoLayer) -> Bool {
        lhs.version == rhs.version && lhs.name == rhs.name && lhs.features == rhs.features && lhs.keys == rhs.keys
            && lhs.values == rhs.values && lhs.extent == rhs.extent && lhs.unknownFields == rhs.unknownFields
    }
}

struct ProtoFeature: SwiftProtobuf.Message, SwiftProtobuf._MessageImplementationBase, SwiftProtobuf._ProtoNameProviding {
    static let protoMessageName = "vector_tile.Tile.Feature"
    static let _protobuf_nameMap: SwiftProtobuf._NameMap = [1: .same(proto: "id"), 2: .same(proto: "tags"), 3: .same(proto: "type"), 4: .same(proto: "geometry")]

    var id: UInt64 = 0
    var tags: [UInt32] = []
    var type: UInt32 = 0
    var geometry: [UInt32] = []
    var unknownFields = SwiftProtobuf.UnknownStorage()

    init() {}

    mutating func decodeMessage<D: SwiftProtobuf.Decoder>(decoder: inout D) throws {
        while let field = try decoder.nextFieldNumber() {
            switch field {
            case 1: try decoder.decodeSingularUInt64Field(value: &id)
            case 2: try decoder.decodeRepeatedUInt32Field(value: &tags)
            case 3: try decoder.decodeSingularUInt32Field(value: &type)
            case 4: try decoder.decodeRepeatedUInt32Field(value: &geometry)
            default: break
            }
        }
    }

    func traverse<V: SwiftProtobuf.Visitor>(visitor: inout V) throws {
        try visitor.visitSingularUInt64Field(value: id, fieldNumber: 1)
        if !tags.isEmpty { try visitor.visitPackedUInt32Field(value: tags, fieldNumber: 2) }
        try visitor.visitSingularUInt32Field(value: type, fieldNumber: 3)
        if !geometry.isEmpty { try visitor.visitPackedUInt32Field(value: geometry, fieldNumber: 4) }
        try unknownFields.traverse(visitor: &visitor)
    }

    static func == (lhs: ProtoFeature, rhs: ProtoFeature) -> Bool {
        lhs.id == rhs.id && lhs.tags == rhs.tags && lhs.type == rhs.type && lhs.geometry == rhs.geometry && lhs.unknownFields == rhs.unknownFields
    }
}

struct ProtoValue: SwiftProtobuf.Message, SwiftProtobuf._MessageImplementationBase, SwiftProtobuf._ProtoNameProviding {
    static let protoMessageName = "vector_tile.Tile.Value"
    static let _protobuf_nameMap: SwiftProtobuf._NameMap = [
        1: .same(proto: "string_value"), 2: .same(proto: "float_value"), 3: .same(proto: "double_value"), 4: .same(proto: "int_value"),
        5: .same(proto: "uint_value"), 6: .same(proto: "sint_value"), 7: .same(proto: "bool_value"),
    ]

    var stringValue: String?
    var floatValue: Float?
    var doubleValue: Double?
    var intValue: Int64?
    var uintValue: UInt64?
    var sintValue: Int64?
    var boolValue: Bool?
    var unknownFields = SwiftProtobuf.UnknownStorage()

    init() {}

    mutating func decodeMessage<D: SwiftProtobuf.Decoder>(decoder: inout D) throws {
        while let field = try decoder.nextFieldNumber() {
            switch field {
            case 1: try decoder.decodeSingularStringField(value: &stringValue)
            case 2: try decoder.decodeSingularFloatField(value: &floatValue)
            case 3: try decoder.decodeSingularDoubleField(value: &doubleValue)
            case 4: try decoder.decodeSingularInt64Field(value: &intValue)
            case 5: try decoder.decodeSingularUInt64Field(value: &uintValue)
            case 6: try decoder.decodeSingularSInt64Field(value: &sintValue)
            case 7: try decoder.decodeSingularBoolField(value: &boolValue)
            default: break
            }
        }
    }

    func traverse<V: SwiftProtobuf.Visitor>(visitor: inout V) throws {
        if let stringValue { try visitor.visitSingularStringField(value: stringValue, fieldNumber: 1) }
        if let floatValue { try visitor.visitSingularFloatField(value: floatValue, fieldNumber: 2) }
        if let doubleValue { try visitor.visitSingularDoubleField(value: doubleValue, fieldNumber: 3) }
        if let intValue { try visitor.visitSingularInt64Field(value: intValue, fieldNumber: 4) }
        if let uintValue { try visitor.visitSingularUInt64Field(value: uintValue, fieldNumber: 5) }
        if let sintValue { try visitor.visitSingularSInt64Field(value: sintValue, fieldNumber: 6) }
        if let boolValue { try visitor.visitSingularBoolField(value: boolValue, fieldNumber: 7) }
        try unknownFields.traverse(visitor: &visitor)
    }

    static func == (lhs: ProtoValue, rhs: ProtoValue) -> Bool {
        lhs.stringValue == rhs.stringValue && lhs.floatValue == rhs.floatValue && lhs.doubleValue == rhs.doubleValue && lhs.intValue == rhs.intValue
            && lhs.uintValue == rhs.uintValue && lhs.sintValue == rhs.sintValue && lhs.boolValue == rhs.boolValue && lhs.unknownFields == rhs.unknownFields
    }
}
