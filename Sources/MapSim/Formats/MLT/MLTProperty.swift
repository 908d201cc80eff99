import MapSimJSON

/// A property column decoded: its name and each feature's value, nil where the feature has none.
struct MLTProperty {
    let name: String
    let values: [JSONValue?]

    /// The column `name` whose values are `values` for the features `present` marks (every feature
    /// when there is no present stream): the values of the features without one are not stored.
    init(name: String, values: [JSONValue], present: [Bool]?) throws(MLTFault) {
        self.name = name
        guard let present else {
            self.values = values
            return
        }
        let expected = present.count(where: { $0 })
        guard values.count == expected else {
            throw MLTFault("has \(values.count) values but its present stream marks \(expected) features")
        }
        var next = values.makeIterator()
        self.values = present.map { $0 ? next.next() : nil }
    }

    /// The column `name` with a value, or none, for every feature.
    init(name: String, values: [JSONValue?]) {
        self.name = name
        self.values = values
    }
}
