import MapSimJSON

/// A JSON value with its path in the document, for decoding with precise error messages.
public struct JSONField: Sendable {
    /// The value.
    public let value: JSONValue
    /// Where the value is, below its parent's path: the path is only spelled out for a message, so
    /// that decoding a document builds no string per member it reads.
    private let location: Location

    /// A field's place: a whole path, or one or two members below a path, or an element of one.
    private enum Location: Sendable {
        case path(String)
        case member(parent: String, key: String)
        case grandchild(parent: String, key: String, member: String)
        case element(parent: String, index: Int)
    }

    /// The value's path in its document: `layers[3].paint.fill-color`; empty for the root.
    public var path: String {
        switch location {
        case .path(let path): path
        case .member(let parent, let key): Self.join(parent, key)
        case .grandchild(let parent, let key, let member): Self.join(parent, key) + "." + member
        case .element(let parent, let index): parent + "[" + String(index) + "]"
        }
    }

    private static func join(_ parent: String, _ key: String) -> String {
        parent.isEmpty ? key : parent + "." + key
    }

    public init(_ value: JSONValue, path: String = "") {
        self.value = value
        self.location = .path(path)
    }

    private init(_ value: JSONValue, location: Location) {
        self.value = value
        self.location = location
    }

    /// The root of a JSON document; a syntax error is reported as "`what` is not valid JSON: ...", and
    /// a document that begins as markup is said to be the HTML page it is — what a server's sign-in
    /// page, error page or single-page app's index answers in a style's place —, one that begins with
    /// a byte order mark to have one.
    public static func document(_ bytes: [UInt8], what: String) throws(StyleError) -> JSONField {
        do {
            return JSONField(try JSONParser.parse(bytes))
        } catch {
            let hint: String
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                hint = " (it begins with a UTF-8 byte order mark, as some editors save files: save it without one)"
            } else if bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<") {
                hint = " (it begins with '<': an HTML page — a sign-in page, an error page, a web app's index — not JSON)"
            } else {
                hint = ""
            }
            throw StyleError(.notJSON, path: "", message: "\(what) is not valid JSON: \(error)\(hint)", underlying: error)
        }
    }

    public func failure(_ message: String) -> StyleError {
        StyleError(.invalidValue, path: path, message: message)
    }

    public func member(_ key: String) -> JSONField? {
        guard let member = value[key] else { return nil }
        switch location {
        case .path(let path): return JSONField(member, location: .member(parent: path, key: key))
        case .member(let parent, let name): return JSONField(member, location: .grandchild(parent: parent, key: name, member: key))
        default: return JSONField(member, location: .member(parent: path, key: key))
        }
    }

    public func object() throws(StyleError) -> JSONObject {
        guard let object = value.objectValue else { throw failure("expected an object, found \(value.typeName)") }
        return object
    }

    public func array() throws(StyleError) -> [JSONField] {
        guard let array = value.arrayValue else { throw failure("expected an array, found \(value.typeName)") }
        let parent = path
        return array.enumerated().map { JSONField($1, location: .element(parent: parent, index: $0)) }
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
