import MapSimJSON

/// Decodes a struct column of an MLT feature table: string fields (`name:en`, `name:de`, …) that
/// share one dictionary, plain or FSST-compressed. The dictionary's streams come first, up to and
/// with its data stream; then each field: its stream count (0 when no feature has it), its present
/// stream when it is nullable, and its offsets into the dictionary.
enum MLTSharedDictionary {
    /// The fields of `column` that the tile has, as properties named after the struct and the field.
    static func decode(_ column: MLTColumn, fields: [MLTColumn], from reader: inout MLTReader, _ budget: inout MLTBudget) throws(MLTFault) -> [MLTProperty] {
        var dictionary = MLTStringDictionary()
        var index = 0
        while true {
            let stream = try MLTStream.read(&reader, index: index)
            index += 1
            guard try dictionary.take(stream) else { throw stream.fault("is not a stream a shared dictionary has") }
            if dictionary.data != nil { break }
            // The symbol lengths, the symbol table, the lengths and the data: four streams at most.
            guard index < 4 else { throw MLTFault("has no dictionary data among its first four streams") }
        }
        let strings = try dictionary.strings(&budget)
        var properties: [MLTProperty] = []
        for field in fields {
            let name = column.name + field.name
            let count = try reader.varint32("the stream count of field \"\(name)\"")
            guard count > 0 else { continue }
            guard count == (field.nullable ? 2 : 1) else {
                throw MLTFault("field \"\(name)\" has \(count) streams; a \(field.nullable ? "nullable" : "non-nullable") field has \(field.nullable ? 2 : 1)")
            }
            do throws(MLTFault) {
                let present = field.nullable ? try MLTStream.readPresent(&reader, index: 0, &budget) : nil
                let offsets = try MLTStream.read(&reader, index: field.nullable ? 1 : 0)
                guard offsets.kind == .offset(.string) else { throw offsets.fault("is not the offsets of a shared dictionary field") }
                let values = try offsets.unsigned32(&budget).map { (entry) throws(MLTFault) -> JSONValue in
                    guard Int(entry) < strings.count else { throw offsets.fault("refers to string \(entry) of a dictionary of \(strings.count)") }
                    return .string(strings[Int(entry)])
                }
                properties.append(try MLTProperty(name: name, values: values, present: present))
            } catch {
                throw MLTFault("field \"\(name)\": \(error.message)")
            }
        }
        return properties
    }
}
