/// A strict JSON parser (RFC 8259) over UTF-8 bytes that reports errors by line and column.
public struct JSONParser {
    private let bytes: [UInt8]
    /// Where the document starts and ends in `bytes`: lines and columns count from `start`.
    private let start: Int
    private let end: Int
    private var position = 0
    private var depth = 0
    private static let maximumDepth = 512
    /// The root member whose array elements are summarized, and the keys a summary keeps (a few:
    /// looked through, cheaper than hashing every key of every element).
    private var summarized: (member: String, keys: [String])?
    /// The byte ranges of the summarized elements, and how many arrays the member had.
    private var summarizedRanges: [Range<Int>] = []
    private var summarizedCount = 0

    /// Parses one JSON document; anything but white space after it is an error.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseDocument()
    }

    /// Parses one JSON document and the line where each of its values starts, by JSON path
    /// (`""` for the document, `layers[0].paint.fill-color` for a member).
    public static func parseRecordingLines(_ bytes: [UInt8]) throws(JSONSyntaxError) -> (value: JSONValue, lines: JSONLineIndex) {
        let value = try parse(bytes)
        return (value, JSONLineIndex(scanning: bytes))
    }

    /// Parses a document whose root object's `member` array may be large: its elements are not
    /// built — an object element is kept as only its members named in `keeping`, any other element
    /// whole — and the byte range of each is returned, so that the caller can read the elements one
    /// at a time (`parseElement(_:in:)`) and never hold them all. `elements` is nil when nothing is
    /// summarized, and `value` is then the whole document: when the root has no such array, or has
    /// the member more than once. A syntax error is the one `parse(_:)` reports.
    ///
    /// The members an object element does not keep are passed over by their brackets, unchecked:
    /// the caller reads every element with `parseElement(_:in:)`, which checks it (on as many
    /// threads as it likes), and when one fails the document is not valid JSON — `parse(_:)` then
    /// says why.
    public static func parse(_ bytes: [UInt8], summarizingElementsOf member: String,
                             keeping keys: Set<String>) throws(JSONSyntaxError) -> (value: JSONValue, elements: [Range<Int>]?) {
        var parser = JSONParser(bytes: bytes)
        parser.summarized = (member, Array(keys))
        do {
            let value = try parser.parseDocument()
            switch parser.summarizedCount {
            case 0: return (value, nil)
            case 1: return (value, parser.summarizedRanges)
            default: return (try JSONParser.parse(bytes), nil)
            }
        } catch {
            // The skipping reader only knows that the text is wrong; the building one says how, and
            // has the last word.
            return (try JSONParser.parse(bytes), nil)
        }
    }

    /// The element at `range` of `bytes`, a range that `parse(_:summarizingElementsOf:keeping:)`
    /// gave, checked as a reading of the whole document checks it (at its depth, two levels down):
    /// an error when it is not one valid value filling the range.
    public static func parseElement(_ bytes: [UInt8], in range: Range<Int>) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, range: range)
        parser.depth = 2
        let value = try parser.parseValue()
        if parser.position != range.upperBound { throw parser.error("unexpected content after an element") }
        return value
    }

    /// Parses the one JSON document that `range` of `bytes` holds, as `parse(_:)` parses a whole
    /// buffer: nothing is read outside the range, and an error's line and column count from its start.
    public static func parse(_ bytes: [UInt8], document range: Range<Int>) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, range: range)
        return try parser.parseDocument()
    }

    /// Parses one JSON document from a string.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private init(bytes: [UInt8], range: Range<Int>? = nil) {
        self.bytes = bytes
        self.start = range?.lowerBound ?? 0
        self.end = range?.upperBound ?? bytes.count
        self.position = start
    }

    /// One value, with only white space around it.
    private mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if position < end { throw error("unexpected content after the JSON value") }
        return value
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard position < end else { throw error("unexpected end of input, expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character \(describe(bytes[position])), expected a value")
        }
    }

    /// An object; with `keys`, one checked whole but built with only the members they name.
    private mutating func parseObject(keeping keys: [String]? = nil) throws(JSONSyntaxError) -> JSONValue {
        try enter()
        position += 1
        // The members are gathered, then made an object at once (a repeated key still keeps its
        // last value, at its first position): cheaper than adding them one at a time.
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            position += 1
            depth -= 1
            return .object(JSONObject())
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after the key \"\(key)\"") }
            position += 1
            skipWhitespace()
            if let keys, !keys.contains(key) {
                try skimValue()
            } else if depth == 1, let summarized, key == summarized.member, peek(UInt8(ascii: "[")) {
                summarizedCount += 1
                members.append((key, try parseArray(summarizing: summarized.keys)))
            } else {
                members.append((key, try parseValue()))
            }
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                position += 1
                continue
            }
            if peek(UInt8(ascii: "}")) {
                position += 1
                depth -= 1
                return .object(JSONObject(members: members))
            }
            throw error("expected ',' or '}' in an object")
        }
    }

    /// An array; with `keys`, the summarized array: its object elements built with only the members
    /// `keys` name, the byte range of every element recorded.
    private mutating func parseArray(summarizing keys: [String]? = nil) throws(JSONSyntaxError) -> JSONValue {
        try enter()
        position += 1
        var elements: [JSONValue] = []
        if keys != nil { summarizedRanges = [] }
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            position += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if let keys {
                let start = position
                elements.append(try peek(UInt8(ascii: "{")) ? parseObject(keeping: keys) : parseValue())
                summarizedRanges.append(start..<position)
            } else {
                elements.append(try parseValue())
            }
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                position += 1
                continue
            }
            if peek(UInt8(ascii: "]")) {
                position += 1
                depth -= 1
                return .array(elements)
            }
            throw error("expected ',' or ']' in an array")
        }
    }

    /// Moves past a value by its brackets alone — strings passed whole, nothing else looked at —
    /// leaving its check to a later reading (`parseElement(_:in:)`). Wrong text it passes over
    /// either ends the document early (an error here) or fails that reading.
    private mutating func skimValue() throws(JSONSyntaxError) {
        guard position < end else { throw error("unexpected end of input") }
        let end = self.end
        let next = bytes.withUnsafeBufferPointer { buffer -> Int? in
            var index = position
            switch buffer[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var open = 0
                while index < end {
                    switch buffer[index] {
                    case UInt8(ascii: "\""):
                        index = Self.skimString(buffer, after: index, end: end)
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        open += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        open -= 1
                        if open == 0 { return index + 1 }
                    default:
                        break
                    }
                    index += 1
                }
                return nil
            case UInt8(ascii: "\""):
                index = Self.skimString(buffer, after: index, end: end)
                return index <= end ? index : nil
            default:
                while index < end {
                    switch buffer[index] {
                    case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return index
                    default: index += 1
                    }
                }
                return index
            }
        }
        guard let next, next <= end else {
            position = end
            throw error("unexpected end of input")
        }
        position = next
    }

    /// Where the string whose opening quote is at `quote` ends (past its closing quote), its
    /// escapes unread; past `end` when it is not closed. Sixteen bytes are looked at a time, and
    /// only a run of them that holds a quote or a backslash byte by byte.
    private static func skimString(_ buffer: UnsafeBufferPointer<UInt8>, after quote: Int, end: Int) -> Int {
        let quotes = SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
        let backslashes = SIMD16<UInt8>(repeating: UInt8(ascii: "\\"))
        var index = quote + 1
        while index < end {
            var stop = end
            if index + 16 <= end {
                // In bounds: index + 16 <= end <= buffer.count, so the buffer has a base address.
                let chunk = UnsafeRawPointer(buffer.baseAddress.unsafelyUnwrapped + index).loadUnaligned(as: SIMD16<UInt8>.self)
                if !any((chunk .== quotes) .| (chunk .== backslashes)) {
                    index += 16
                    continue
                }
                stop = index + 16
            }
            while index < stop {
                switch buffer[index] {
                case UInt8(ascii: "\""): return index + 1
                case UInt8(ascii: "\\"): index += 2
                default: index += 1
                }
            }
        }
        return end + 1
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels", code: .tooDeep) }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        position += 1
        let start = position
        // Fast path: no escapes.
        position = plainRun(from: position)
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = text(start..<position)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("unescaped control character in a string") }
            position += 1
        }
        var buffer = Array(bytes[start..<position])
        while position < end {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                position += 1
                guard position < end else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): buffer.append(0x22)
                case UInt8(ascii: "\\"): buffer.append(0x5C)
                case UInt8(ascii: "/"): buffer.append(0x2F)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800...0xDBFF).contains(scalar), position + 1 < end,
                       bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                        position += 2
                        let low = try parseHex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            throw error("invalid low surrogate in a \\u escape")
                        }
                    }
                    guard let unicode = Unicode.Scalar(scalar) else {
                        throw error("invalid unicode escape")
                    }
                    buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    position -= 1
                    throw error("invalid escape \\\(Character(Unicode.Scalar(escape)))")
                }
            default:
                if byte < 0x20 { throw error("unescaped control character in a string") }
                buffer.append(byte)
                position += 1
            }
        }
        throw error("unterminated string")
    }

    /// The bytes in `range` as a string, read in place: a slice of `bytes` would retain and release
    /// the document's buffer, which the threads that check a large style's layers all read, and
    /// their counts on one object take its cache line from each other at every string.
    private func text(_ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= end else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in a \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = position
        if let value = try parseNumberToken() { return value }
        let text = text(start..<position)
        guard let value = Double(text) else { throw error("invalid number \(text)") }
        guard value.isFinite else {
            position = start
            throw error("number \(text) is too large")
        }
        return value
    }

    /// Exact powers of ten as doubles: 10^22 is the last a double holds exactly.
    private static let powersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                                1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

    /// The same powers as whole numbers, 10^0 to 10^22.
    private static let wholePowersOfTen: [UInt128] = {
        var powers: [UInt128] = [1]
        while powers.count < 23 { powers.append(powers[powers.count - 1] * 10) }
        return powers
    }()

    /// Reads past one number's grammar, gathering its digits on the way; its value when its digits
    /// say it exactly, else nil (read from its text):
    /// - at most 15 significant digits and a decimal exponent within ±22: the digits are a whole
    ///   number a double holds exactly, and so is the power of ten, so one multiplication or
    ///   division rounds as reading the text would (Clinger's fast path);
    /// - 16 to 19 significant digits and a decimal exponent from −22 to 0 (how JavaScript and most
    ///   tools write a coordinate): the digits divided by the power of ten in 128-bit integers,
    ///   rounded to the nearest double, ties to even.
    ///
    /// Coordinates in GeoJSON are such numbers: reading them from text was a third of a validation
    /// of a style with its data inline.
    private mutating func parseNumberToken() throws(JSONSyntaxError) -> Double? {
        let negative = peek(UInt8(ascii: "-"))
        if negative { position += 1 }
        guard position < end, isDigit(bytes[position]) else { throw error("invalid number") }
        var digits: UInt64 = 0
        var significant = 0
        var exponent = 0
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < end, isDigit(bytes[position]) {
                significant += 1
                if significant <= 19 { digits = digits * 10 + UInt64(bytes[position] - UInt8(ascii: "0")) }
                position += 1
            }
        }
        if peek(UInt8(ascii: ".")) {
            position += 1
            guard position < end, isDigit(bytes[position]) else { throw error("invalid number: digits expected after '.'") }
            while position < end, isDigit(bytes[position]) {
                if digits > 0 || bytes[position] != UInt8(ascii: "0") { significant += 1 }
                if significant <= 19 {
                    digits = digits * 10 + UInt64(bytes[position] - UInt8(ascii: "0"))
                    exponent -= 1
                }
                position += 1
            }
        }
        if position < end, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            var exponentNegative = false
            if position < end, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                exponentNegative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            guard position < end, isDigit(bytes[position]) else { throw error("invalid number: digits expected in the exponent") }
            var written = 0
            while position < end, isDigit(bytes[position]) {
                if written <= 1_000 { written = written * 10 + Int(bytes[position] - UInt8(ascii: "0")) }
                position += 1
            }
            exponent += exponentNegative ? -written : written
        }
        let value: Double
        if digits == 0 {
            value = 0
        } else if significant <= 15, (-22...22).contains(exponent) {
            value = exponent < 0 ? Double(digits) / Self.powersOfTen[-exponent] : Double(digits) * Self.powersOfTen[exponent]
        } else if significant <= 19, (-22...0).contains(exponent) {
            value = Self.nearestDouble(digits, dividedByPowerOfTen: -exponent)
        } else {
            return nil
        }
        return negative ? -value : value
    }

    /// `digits` / 10^`power` rounded to the nearest double, ties to even, for `digits` above zero and
    /// `power` up to 22: the digits shifted to the top of 128 bits and divided, which leaves at least
    /// 54 bits of quotient (10^22 is below 2^74), the rest of it and the remainder saying whether
    /// what was cut off is above, at or below half a unit.
    private static func nearestDouble(_ digits: UInt64, dividedByPowerOfTen power: Int) -> Double {
        let shift = digits.leadingZeroBitCount + 64
        let (quotient, remainder) = (UInt128(digits) << shift).quotientAndRemainder(dividingBy: wholePowersOfTen[power])
        let extra = (128 - quotient.leadingZeroBitCount) - 53
        var significand = quotient >> extra
        let half = (quotient >> (extra - 1)) & 1 == 1
        let beyondHalf = quotient & ((1 << (extra - 1)) - 1) != 0 || remainder != 0
        if half && (beyondHalf || significand & 1 == 1) { significand += 1 }
        var binaryExponent = extra - shift
        if significand == 1 << 53 {
            significand >>= 1
            binaryExponent += 1
        }
        return Double(sign: .plus, exponent: binaryExponent, significand: Double(UInt64(significand)))
    }

    private mutating func expectLiteral(_ literal: String) throws(JSONSyntaxError) {
        let expected = Array(literal.utf8)
        let count = expected.count
        let matches = position + count <= end && expected.indices.allSatisfy { bytes[position + $0] == expected[$0] }
        guard matches else { throw error("unexpected character \(describe(bytes[position])), expected a value") }
        position += count
    }

    private mutating func skipWhitespace() {
        while position < end {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// Where the run of string bytes that need no attention starting at `index` ends: the first
    /// quote, backslash or control character at or after it, or `end`. Sixteen bytes are looked
    /// at a time (a style's long strings: notes, names, SVG paths).
    private func plainRun(from index: Int) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var index = index
            let quotes = SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
            let backslashes = SIMD16<UInt8>(repeating: UInt8(ascii: "\\"))
            let space = SIMD16<UInt8>(repeating: 0x20)
            while index + 16 <= end {
                // In bounds: index + 16 <= end <= buffer.count, so the buffer has a base address.
                let chunk = UnsafeRawPointer(buffer.baseAddress.unsafelyUnwrapped + index).loadUnaligned(as: SIMD16<UInt8>.self)
                if any((chunk .== quotes) .| (chunk .== backslashes) .| (chunk .< space)) { break }
                index += 16
            }
            while index < end {
                let byte = buffer[index]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return index }
                index += 1
            }
            return end
        }
    }

    private func peek(_ byte: UInt8) -> Bool {
        position < end && bytes[position] == byte
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private func error(_ message: String, code: JSONSyntaxError.Code = .malformed) -> JSONSyntaxError {
        var line = 1
        var lineStart = start
        for index in start..<min(position, end) where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return JSONSyntaxError(code, message, line: line, column: position - lineStart + 1)
    }
}
