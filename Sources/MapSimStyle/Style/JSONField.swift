import MapSimJSON

/// A JSON value with its path in the document, for decoding with precise error messages.
public struct JSONField: Sendable {
    public let value: JSONValue
    public let path: String

    public init(_ value: JSONValue, path: String = "") {
        self.value = value
        self.path = path
    }

    /// The root of a JSON document; a syntax error is reported as "`what` is not valid JSON: ...".
    public static func document(_ bytes: [UInt8], what: String) throws(StyleError) -> JSONField {
        do {
            return JSONField(try JSONParser.parse(bytes))
        } catch {
            throw StyleError(.notJSON, path: "", message: "\(what) is not valid JSON: \(error)", underlying: error)
        }
    }

    public func failure(_ message: String) -> StyleError {
        StyleError(.invalidValue, path: path, message: message)
    }

    public func member(_ key: String) -> JSONField? {
        value[key].map { JSONField($0, path: path.isEmpty ? key : "\(path).\(key)") }
    }

    public func object() throws(StyleError) -> JSONObject {
        guard let object = value.objectValue else { throw failure("expected an object, found \(value.typeName)") }
        return object
    }

    public func array() throws(StyleError) -> [JSONField] {
        guard let array = value.arrayValue else { throw failure("expected an array, found \(value.typeName)") }
        return array.enumerated().map { JSONField($1, path: "\(path)[\($0)]") }
    }

    public func string() throws(StyleError) -> String {
        guard let string = value.stringValue else { throw failure("expected a string, found \(value.typeName)") }
        return string
    }

    public func number() throws(StyleError) -> Double {
        guard let number = value.numberValue else { throw failure("expected a number, found \(value.typeName)") }
        return number
    }

    public func number(in range: ClosedRange<Double>) throws(StyleError) -> Double {
        let n = try number()
        guard range.contains(n) else { throw failure("\(JSONWriter.formatNumber(n)) is outside \(JSONWriter.formatNumber(range.lowerBound))...\(JSONWriter.formatNumber(range.upperBound))") }
        return n
    }

    public func integer(in range: ClosedRange<Int>) throws(StyleError) -> Int {
        let n = try number(in: Double(range.lowerBound)...Double(range.upperBound))
        guard n == n.rounded() else { throw failure("expected a whole number, found \(JSONWriter.formatNumber(n))") }
        // Double(Int.max) is 2^63, one past Int.max: in range by the double's measure, and no Int.
        guard let integer = Int(exactly: n) else { throw failure("expected a whole number up to \(range.upperBound), found \(JSONWriter.formatNumber(n))") }
        return integer
    }

    public func bool() throws(StyleError) -> Bool {
        guard let bool = value.boolValue else { throw failure("expected a boolean, found \(value.typeName)") }
        return bool
    }

    public func strings() throws(StyleError) -> [String] {
        var result: [String] = []
        for element in try array() { result.append(try element.string()) }
        return result
    }

    /// The four corners of an image or video source: `[[lon, lat], …]`, top left first, clockwise.
    public func corners() throws(StyleError) -> [LngLat] {
        let points = try array()
        guard points.count == 4 else { throw failure("expected 4 corners, found \(points.count)") }
        var corners: [LngLat] = []
        for point in points {
            let pair = try point.array()
            guard pair.count == 2 else { throw point.failure("expected [longitude, latitude]") }
            corners.append(LngLat(longitude: try pair[0].number(in: -360...360), latitude: try pair[1].number(in: -90...90)))
        }
        return corners
    }

    public func bounds() throws(StyleError) -> LngLatBounds {
        let numbers = try array()
        guard numbers.count == 4 else { throw failure("expected [west, south, east, north], found \(numbers.count) values") }
        let west = try numbers[0].number(in: -180...180)
        let south = try numbers[1].number(in: -90...90)
        let east = try numbers[2].number(in: -180...180)
        let north = try numbers[3].number(in: -90...90)
        guard west <= east, south <= north else { throw failure("expected west ≤ east and south ≤ north") }
        return LngLatBounds(west: west, south: south, east: east, north: north)
    }

    /// The value of an enumeration, as its raw string, among the cases `allowing` admits.
    public func enumeration<E: RawRepresentable<String> & CaseIterable>(_ type: E.Type, allowing admits: (E) -> Bool = { _ in true }) throws(StyleError) -> E {
        let raw = try string()
        guard let value = E(rawValue: raw), admits(value) else {
            let allowed = E.allCases.filter(admits).map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw failure("\"\(raw)\" is not one of \(allowed)")
        }
        return value
    }
}
