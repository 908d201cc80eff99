import MapSimJSON

/// Decodes one feature table of an MLT tile (a block with tag 1) into a vector tile layer.
///
/// The table starts with its metadata: the layer name, the extent, the number of columns and each
/// column's declaration (`MLTColumn`). The columns' streams follow in that order: the id column's
/// (a present stream if it is nullable, then the ids), the geometry column's (their number, then
/// the streams), each scalar property's (a present stream if nullable, then the values), each
/// string or struct column's (their number — 0 when no feature has the column — then the streams).
enum MLTLayerDecoder {
    /// Decodes the table in `range` of `bytes`, the `index`th of the tile.
    static func decode(_ bytes: [UInt8], range: Range<Int>, index: Int, _ budget: inout MLTBudget) throws(LoadingError) -> VectorTile.Layer {
        var reader = MLTReader(bytes, range: range)
        let (name, extent, columns) = try metadata(&reader, index: index)
        var ids: [JSONValue?]?
        var geometry: MLTGeometryColumn?
        var properties: [MLTProperty] = []
        for column in columns {
            do throws(MLTFault) {
                switch column.kind {
                case .id(let wide):
                    guard ids == nil else { throw MLTFault("is a second id column") }
                    ids = try idColumn(column, wide: wide, &reader, &budget)
                case .geometry:
                    guard geometry == nil else { throw MLTFault("is a second geometry column") }
                    geometry = try MLTGeometryColumn.decode(try streams(&reader, count: try streamCount(&reader), firstIndex: 0), &budget)
                default:
                    properties += try propertyColumn(column, &reader, &budget)
                }
            } catch {
                throw LoadingError.malformedResource("MLT layer \"\(name)\", column \"\(column.name)\": \(error.message)")
            }
        }
        guard let geometry else { throw LoadingError.malformedResource("MLT layer \"\(name)\": no geometry column") }
        for column in properties + (ids.map { [MLTProperty(name: "id", values: $0)] } ?? []) where column.values.count != geometry.types.count {
            throw LoadingError.malformedResource(
                "MLT layer \"\(name)\", column \"\(column.name)\": has \(column.values.count) values for the \(geometry.types.count) features of the geometry column")
        }
        return VectorTile.Layer(name: name, extent: extent, features: features(ids: ids, geometry: geometry, properties: properties, extent: extent))
    }

    /// The layer name, the extent and the column declarations.
    private static func metadata(_ reader: inout MLTReader, index: Int) throws(LoadingError) -> (String, UInt32, [MLTColumn]) {
        var name: String?
        do throws(MLTFault) {
            let text = try reader.string("the layer name")
            guard !text.isEmpty else { throw MLTFault("the name is empty") }
            name = text
            let extent = try reader.varint32("the extent")
            guard extent > 0 else { throw MLTFault("the extent is 0") }
            let count = try reader.varint32("the column count")
            // A column takes at least one byte.
            guard Int(count) <= reader.remaining else { throw MLTFault("claims \(count) columns in \(reader.remaining) bytes") }
            var columns: [MLTColumn] = []
            for _ in 0..<count { columns.append(try MLTColumn.read(&reader)) }
            return (text, extent, columns)
        } catch {
            throw LoadingError.malformedResource("MLT layer \(name.map { "\"\($0)\"" } ?? String(index)): \(error.message)")
        }
    }

    /// The id column: a present stream if it is nullable, then the ids, 32 or 64 bits.
    private static func idColumn(_ column: MLTColumn, wide: Bool, _ reader: inout MLTReader, _ budget: inout MLTBudget) throws(MLTFault) -> [JSONValue?] {
        let present = column.nullable ? try MLTStream.readPresent(&reader, index: 0, &budget) : nil
        let stream = try MLTStream.read(&reader, index: column.nullable ? 1 : 0)
        let values = wide ? try stream.unsigned64(&budget).map { JSONValue.number(Double($0)) }
            : try stream.unsigned32(&budget).map { JSONValue.number(Double($0)) }
        return try MLTProperty(name: column.name, values: values, present: present).values
    }

    /// A property column's properties: one, or a struct's fields, or none when the tile lacks it.
    private static func propertyColumn(_ column: MLTColumn, _ reader: inout MLTReader, _ budget: inout MLTBudget) throws(MLTFault) -> [MLTProperty] {
        switch column.kind {
        case .string:
            let count = try streamCount(&reader)
            guard count > 0 else { return [] }
            let present = column.nullable ? try MLTStream.readPresent(&reader, index: 0, &budget) : nil
            let rest = try streams(&reader, count: count - (column.nullable ? 1 : 0), firstIndex: column.nullable ? 1 : 0)
            return [try MLTStringColumn.decode(name: column.name, streams: rest, present: present, &budget)]
        case .sharedDictionary(let fields):
            guard try streamCount(&reader) > 0 else { return [] }
            return try MLTSharedDictionary.decode(column, fields: fields, from: &reader, &budget)
        default:
            let present = column.nullable ? try MLTStream.readPresent(&reader, index: 0, &budget) : nil
            let stream = try MLTStream.read(&reader, index: column.nullable ? 1 : 0, bitmap: column.kind == .boolean)
            return [try MLTProperty(name: column.name, values: try scalars(column.kind, stream, &budget), present: present)]
        }
    }

    /// The features: each its id, geometry and the properties it has a value of, in column order.
    private static func features(ids: [JSONValue?]?, geometry: MLTGeometryColumn, properties: [MLTProperty], extent: UInt32) -> [VectorTile.Feature] {
        (0..<geometry.types.count).map { feature in
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(properties.count)
            for property in properties {
                if let value = property.values[feature] { members.append((property.name, value)) }
            }
            return VectorTile.Feature(id: ids?[feature] ?? nil, geometryType: geometry.types[feature], properties: JSONObject(members: members),
                                      shape: .points(geometry.shapes[feature], extent: extent))
        }
    }

    /// A column's stream count, checked against the bytes left (a stream takes at least four).
    private static func streamCount(_ reader: inout MLTReader) throws(MLTFault) -> Int {
        let count = Int(try reader.varint32("the stream count"))
        guard count <= reader.remaining / 4 else { throw MLTFault("claims \(count) streams in \(reader.remaining) bytes") }
        return count
    }

    private static func streams(_ reader: inout MLTReader, count: Int, firstIndex: Int) throws(MLTFault) -> [MLTStream] {
        var streams: [MLTStream] = []
        for index in 0..<count { streams.append(try MLTStream.read(&reader, index: firstIndex + index)) }
        return streams
    }

    /// The values of a scalar column's data stream, as JSON numbers and booleans.
    private static func scalars(_ kind: MLTColumn.Kind, _ stream: MLTStream, _ budget: inout MLTBudget) throws(MLTFault) -> [JSONValue] {
        switch kind {
        case .boolean: return try stream.bits(&budget).map(JSONValue.bool)
        case .int8: return try narrow(try stream.signed32(&budget), to: Int8.self, stream)
        case .uint8: return try narrow(try stream.unsigned32(&budget), to: UInt8.self, stream)
        case .int32: return try stream.signed32(&budget).map { .number(Double($0)) }
        case .uint32: return try stream.unsigned32(&budget).map { .number(Double($0)) }
        case .int64: return try stream.signed64(&budget).map { .number(Double($0)) }
        case .uint64: return try stream.unsigned64(&budget).map { .number(Double($0)) }
        case .float: return try stream.floats(&budget).map(JSONValue.number)
        case .double: return try stream.doubles(&budget).map(JSONValue.number)
        case .id, .geometry, .string, .sharedDictionary: throw MLTFault("is not a scalar column")
        }
    }

    private static func narrow<Wide: BinaryInteger, Narrow: FixedWidthInteger>(_ values: [Wide], to type: Narrow.Type, _ stream: MLTStream) throws(MLTFault) -> [JSONValue] {
        try values.map { (value) throws(MLTFault) -> JSONValue in
            guard Narrow(exactly: value) != nil else { throw stream.fault("has \(value), which an \(Narrow.bitWidth)-bit column cannot hold") }
            return .number(Double(value))
        }
    }
}
