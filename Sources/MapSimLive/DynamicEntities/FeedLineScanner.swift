#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MapSimJSON

/// Reads what a feed needs of one JSON line — the point and two attributes — without building the
/// rest: every other value is checked as JSON and skipped, so a malformed line is still caught, at a
/// fraction of the cost of parsing it into values (a replay reads a million lines a second).
struct FeedLineScanner {
    /// A scalar the scanner was asked for.
    enum Scalar: Equatable {
        case string(String)
        case number(Double)
    }

    /// What the line holds.
    struct Found {
        var x: Double?
        var y: Double?
        var coordinates: [Double] = []
        var isPoint = false
        var trackID: Scalar?
        var time: Scalar?
    }

    private static let geometryKey = Array("geometry".utf8)
    private static let attributesKey = Array("attributes".utf8)
    private static let propertiesKey = Array("properties".utf8)
    private static let xKey = Array("x".utf8)
    private static let yKey = Array("y".utf8)
    private static let typeKey = Array("type".utf8)
    private static let coordinatesKey = Array("coordinates".utf8)

    private let bytes: [UInt8]
    private var index = 0
    private let trackIDKey: [UInt8]
    private let timeKey: [UInt8]?

    init(_ bytes: [UInt8], trackIDField: String, timeField: String?) {
        self.bytes = bytes
        trackIDKey = Array(trackIDField.utf8)
        timeKey = timeField.map { Array($0.utf8) }
    }

    /// Scans the line: one object, nothing after it.
    mutating func scan() throws(FeedError) -> Found {
        var found = Found()
        skipWhitespace()
        try members { (scanner: inout FeedLineScanner, key: Range<Int>) throws(FeedError) in
            if scanner.equal(key, Self.geometryKey) {
                try scanner.geometry(into: &found)
            } else if scanner.equal(key, Self.attributesKey) || scanner.equal(key, Self.propertiesKey) {
                try scanner.attributes(into: &found)
            } else {
                try scanner.skipValue()
            }
        }
        skipWhitespace()
        guard index == bytes.count else { throw fail("text after the object") }
        return found
    }

    private mutating func geometry(into found: inout Found) throws(FeedError) {
        guard peek == UInt8(ascii: "{") else { return try skipValue() }
        try members { (scanner: inout FeedLineScanner, key: Range<Int>) throws(FeedError) in
            if scanner.equal(key, Self.xKey) {
                found.x = try scanner.numberOrSkip()
            } else if scanner.equal(key, Self.yKey) {
                found.y = try scanner.numberOrSkip()
            } else if scanner.equal(key, Self.typeKey) {
                if case .string(let type)? = try scanner.scalar() { found.isPoint = type == "Point" }
            } else if scanner.equal(key, Self.coordinatesKey), scanner.peek == UInt8(ascii: "[") {
                scanner.index += 1
                scanner.skipWhitespace()
                if scanner.peek == UInt8(ascii: "]") {
                    scanner.index += 1
                    return
                }
                while true {
                    if let number = try scanner.numberOrSkip() { found.coordinates.append(number) }
                    scanner.skipWhitespace()
                    guard let next = scanner.take() else { throw scanner.fail("an unfinished array") }
                    if next == UInt8(ascii: "]") { break }
                    guard next == UInt8(ascii: ",") else { throw scanner.fail("expected , or ] in an array") }
                    scanner.skipWhitespace()
                }
            } else {
                try scanner.skipValue()
            }
        }
    }

    private mutating func attributes(into found: inout Found) throws(FeedError) {
        guard peek == UInt8(ascii: "{") else { return try skipValue() }
        let trackIDKey = trackIDKey
        let timeKey = timeKey
        try members { (scanner: inout FeedLineScanner, key: Range<Int>) throws(FeedError) in
            if scanner.equal(key, trackIDKey) {
                found.trackID = try scanner.trackID()
            } else if let timeKey, scanner.equal(key, timeKey) {
                found.time = try scanner.scalar()
            } else {
                try scanner.skipValue()
            }
        }
    }

    /// Calls `member` for each key of the object here, with the index at its value.
    private mutating func members(_ member: (inout FeedLineScanner, Range<Int>) throws(FeedError) -> Void) throws(FeedError) {
        guard peek == UInt8(ascii: "{") else { throw fail("expected an object") }
        index += 1
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            let key = try rawString()
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw fail("expected : after a key") }
            index += 1
            skipWhitespace()
            try member(&self, key)
            skipWhitespace()
            guard let next = take() else { throw fail("an unfinished object") }
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { throw fail("expected , or } in an object") }
            skipWhitespace()
        }
    }

    /// A string or number here, read; anything else skipped (nil).
    private mutating func scalar() throws(FeedError) -> Scalar? {
        switch peek ?? 0 {
        case UInt8(ascii: "\""):
            let raw = bytes[try rawString()]
            return .string(raw.contains(UInt8(ascii: "\\")) ? Self.unescape(raw) : String(decoding: raw, as: UTF8.self))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number())
        default:
            try skipValue()
            return nil
        }
    }

    /// A track id here: a string as it is; a number as its text as the feed wrote it — never
    /// rounded to a double, so that 9999999999999999 and 10000000000000000 stay two tracks —
    /// except that one with a fraction or an exponent that is an exact integer is that integer
    /// (`1.0` and `1e3` are `1` and `1000`); anything else skipped (nil).
    private mutating func trackID() throws(FeedError) -> Scalar? {
        guard let first = peek, first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return try scalar() }
        let start = index
        let value = try number()
        let text = bytes[start..<index]
        let isPlainInteger = !text.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        if !isPlainInteger, value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return .string(String(Int64(value))) }
        return .string(String(decoding: text, as: UTF8.self))
    }

    private mutating func numberOrSkip() throws(FeedError) -> Double? {
        if case .number(let value)? = try scalar() { return value }
        return nil
    }

    /// Where the bytes of the string here are, between its quotes, escapes left as they are.
    private mutating func rawString() throws(FeedError) -> Range<Int> {
        guard peek == UInt8(ascii: "\"") else { throw fail("expected a string") }
        index += 1
        let start = index
        while let byte = take() {
            switch byte {
            case UInt8(ascii: "\""): return start..<index - 1
            case UInt8(ascii: "\\"):
                guard take() != nil else { throw fail("an unfinished string") }
            case 0..<0x20: throw fail("a control character in a string")
            default: break
            }
        }
        throw fail("an unfinished string")
    }

    /// The number here, checked against JSON's grammar.
    private mutating func number() throws(FeedError) -> Double {
        let start = index
        if peek == UInt8(ascii: "-") { index += 1 }
        guard let first = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { throw fail("a malformed number") }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() > 0 else { throw fail("a malformed number") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw fail("a malformed number") }
        }
        let text = bytes[start..<index]
        if let exact = Self.fastDouble(text) { return exact }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { characters in
            for (offset, byte) in text.enumerated() { characters[offset] = CChar(bitPattern: byte) }
            characters[text.count] = 0
            return strtod(characters.baseAddress!, nil)
        }
    }

    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    /// The number without strtod when that is exact (Clinger's fast path): at most 15 digits, so the
    /// digits are an exact integer, scaled by an exact power of ten up to 10^22; nil otherwise.
    private static func fastDouble(_ text: ArraySlice<UInt8>) -> Double? {
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var exponent = 0
        var negative = false
        var position = text.startIndex
        if text[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var afterPoint = false
        while position < text.endIndex {
            let byte = text[position]
            if byte == UInt8(ascii: ".") {
                afterPoint = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                position += 1
                var sign = 1
                if text[position] == UInt8(ascii: "-") || text[position] == UInt8(ascii: "+") {
                    if text[position] == UInt8(ascii: "-") { sign = -1 }
                    position += 1
                }
                var value = 0
                while position < text.endIndex {
                    value = value * 10 + Int(text[position] - 0x30)
                    if value > 400 { return nil }
                    position += 1
                }
                exponent = sign * value
                break
            } else {
                if mantissa != 0 || byte != UInt8(ascii: "0") { digits += 1 }
                guard digits <= 15 else { return nil }
                mantissa = mantissa * 10 + UInt64(byte - 0x30)
                if afterPoint { scale -= 1 }
            }
            position += 1
        }
        let power = scale + exponent
        guard abs(power) <= 22 else { return nil }
        let value = power >= 0 ? Double(mantissa) * powersOfTen[power] : Double(mantissa) / powersOfTen[-power]
        return negative ? -value : value
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = index
        while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }

    /// Skips the value here, checking it is JSON.
    private mutating func skipValue() throws(FeedError) {
        switch peek ?? 0 {
        case UInt8(ascii: "{"):
            try members { (scanner: inout FeedLineScanner, _: Range<Int>) throws(FeedError) in try scanner.skipValue() }
        case UInt8(ascii: "["):
            index += 1
            skipWhitespace()
            if peek == UInt8(ascii: "]") {
                index += 1
                return
            }
            while true {
                try skipValue()
                skipWhitespace()
                guard let next = take() else { throw fail("an unfinished array") }
                if next == UInt8(ascii: "]") { return }
                guard next == UInt8(ascii: ",") else { throw fail("expected , or ] in an array") }
                skipWhitespace()
            }
        case UInt8(ascii: "\""):
            _ = try rawString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try number()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: throw fail("expected a value")
        }
    }

    private mutating func literal(_ word: StaticString) throws(FeedError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("expected a value") }
        let matches = word.withUTF8Buffer { expected in bytes[index..<index + count].elementsEqual(expected) }
        guard matches else { throw fail("expected a value") }
        index += count
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Whether the key at `key` is `name` (a key with escapes never is: the names asked for have none).
    private func equal(_ key: Range<Int>, _ name: [UInt8]) -> Bool {
        guard key.count == name.count else { return false }
        var position = key.lowerBound
        for byte in name {
            if bytes[position] != byte { return false }
            position += 1
        }
        return true
    }

    private mutating func take() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private func fail(_ reason: String) -> FeedError {
        FeedError(.malformedLine, "not JSON: \(reason) at column \(index + 1)")
    }

    /// A string with escapes, decoded the slow way (rare in feeds).
    private static func unescape(_ raw: ArraySlice<UInt8>) -> String {
        var quoted = [UInt8(ascii: "\"")]
        quoted += raw
        quoted.append(UInt8(ascii: "\""))
        return (try? JSONParser.parse(quoted))?.stringValue ?? String(decoding: raw, as: UTF8.self)
    }
}
