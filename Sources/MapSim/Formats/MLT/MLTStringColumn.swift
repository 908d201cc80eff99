import MapSimJSON

/// Decodes a string column of an MLT feature table: plain (the strings of the features that have
/// one), dictionary (offsets into distinct strings) or FSST dictionary (the same, the dictionary
/// FSST-compressed).
enum MLTStringColumn {
    /// The column `name` from its streams, its present stream already read into `present`.
    static func decode(name: String, streams: [MLTStream], present: [Bool]?, _ budget: inout MLTBudget) throws(MLTFault) -> MLTProperty {
        var dictionary = MLTStringDictionary()
        var offsets: MLTStream?
        for stream in streams {
            if try dictionary.take(stream) { continue }
            guard stream.kind == .offset(.string), offsets == nil else { throw stream.fault("is not a stream a string column has") }
            offsets = stream
        }
        let strings = try dictionary.strings(&budget)
        guard let offsets else {
            // Plain strings: one per feature that has one, or one per feature, nulls included.
            if let present, strings.count == present.count {
                return MLTProperty(name: name, values: zip(present, strings).map { $0 ? .string($1) : nil })
            }
            return try MLTProperty(name: name, values: strings.map(JSONValue.string), present: present)
        }
        let values = try offsets.unsigned32(&budget).map { (index) throws(MLTFault) -> JSONValue in
            guard Int(index) < strings.count else { throw offsets.fault("refers to string \(index) of a dictionary of \(strings.count)") }
            return .string(strings[Int(index)])
        }
        return try MLTProperty(name: name, values: values, present: present)
    }
}
