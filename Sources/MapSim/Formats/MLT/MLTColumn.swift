/// A column of an MLT feature table as the table's metadata declares it.
///
/// A column is a type code (a varint), then its name when the type has one, then for a struct the
/// number of its fields and the fields, each declared the same way. Codes 0–3 are the id column
/// (bit 0 nullable, bit 1 64-bit), 4 the geometry, 10–29 scalar properties in pairs (even
/// non-nullable, odd nullable) and 30 a struct of string fields sharing one dictionary.
struct MLTColumn: Equatable, Sendable {
    /// What a column holds.
    enum Kind: Equatable, Sendable {
        case id(wide: Bool)
        case geometry
        case boolean, int8, uint8, int32, uint32, int64, uint64, float, double, string
        /// String fields sharing one dictionary, named after the struct's name followed by theirs
        /// (`name` + `:en`).
        case sharedDictionary(fields: [MLTColumn])
    }

    let kind: Kind
    /// Whether a present stream says which features have a value.
    let nullable: Bool
    /// The property name ("id" and "geometry" for those columns, which have none in the tile).
    let name: String

    private static let scalars: [Kind] = [.boolean, .int8, .uint8, .int32, .uint32, .int64, .uint64, .float, .double, .string]

    /// Reads a column's declaration; `field` for the fields of a struct, which are scalars only.
    static func read(_ reader: inout MLTReader, field: Bool = false) throws(MLTFault) -> MLTColumn {
        let start = reader.position
        let code = try reader.varint32("a column type")
        switch code {
        case 0...3 where !field:
            return MLTColumn(kind: .id(wide: code & 2 != 0), nullable: code & 1 != 0, name: "id")
        case 4 where !field:
            return MLTColumn(kind: .geometry, nullable: false, name: "geometry")
        case 10...29:
            let name = try reader.string("a column name")
            return MLTColumn(kind: scalars[Int(code - 10) / 2], nullable: code & 1 != 0, name: name)
        case 30 where !field:
            let name = try reader.string("a column name")
            let count = try reader.varint32("the field count of struct \"\(name)\"")
            // A field takes at least two bytes: its type and its name's length.
            guard Int(count) <= reader.remaining / 2 else { throw MLTFault("struct \"\(name)\" claims \(count) fields in \(reader.remaining) bytes") }
            var fields: [MLTColumn] = []
            for _ in 0..<count {
                let fieldStart = reader.position
                let child = try read(&reader, field: true)
                guard child.kind == .string else {
                    throw MLTFault("struct \"\(name)\" has a field \"\(child.name)\" at byte \(fieldStart) that is not a string; only string fields share a dictionary")
                }
                fields.append(child)
            }
            return MLTColumn(kind: .sharedDictionary(fields: fields), nullable: false, name: name)
        default:
            throw MLTFault("unknown \(field ? "field" : "column") type \(code) at byte \(start)")
        }
    }
}
