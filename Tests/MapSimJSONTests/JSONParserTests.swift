import Testing
@testable import MapSimJSON

@Suite("JSONParser")
struct JSONParserTests {
    @Test func parsesEveryValueTypeAndKeepsMemberOrder() throws {
        let value = try JSONParser.parse(#"{"z": 1, "a": [true, false, null, -2.5e2, "x\u00e9\n"], "m": {}}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["z", "a", "m"])
        #expect(value["a"] == .array([.bool(true), .bool(false), .null, .number(-250), .string("xé\n")]))
        #expect(value["m"] == .object(JSONObject()))
    }

    @Test(arguments: [3, 20])
    func aRepeatedKeyKeepsItsLastValueAtItsFirstPositionInSmallAndLargeObjects(members: Int) throws {
        // Keys k0…, then k1 again, and two keys Swift's == calls equal but JSON does not.
        let text = "{" + (0..<members).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + #", "k1": "again", "\u00e9": 1, "e\u0301": 2}"#
        let object = try #require(try JSONParser.parse(text).objectValue)
        #expect(object.count == members + 2)
        #expect(object.keys.prefix(3) == ["k0", "k1", "k2"].prefix(min(3, members)))
        #expect(object["k1"] == .string("again") && object["k0"] == .number(0))
        #expect(object["k\(members - 1)"] == .number(Double(members - 1)))
        #expect(object["\u{e9}"] == .number(1) && object["e\u{301}"] == .number(2))
        #expect(object["k\(members)"] == nil)
    }

    @Test func readsStringsWhateverWhereTheirSpecialBytesFallInSixteenByteRuns() throws {
        // Strings are scanned sixteen bytes at a time: a quote, an escape, a control character or a
        // multibyte character at any offset — in the first run, across runs, in the tail — reads
        // as it would byte by byte, parsed and skipped (a summarized element) alike.
        for length in 0..<40 {
            for offset in 0...length {
                let prefix = String(repeating: "a", count: offset)
                let suffix = String(repeating: "b", count: length - offset)
                for (middle, expected) in [("", prefix + suffix), ("\\n", prefix + "\n" + suffix), ("\\\"", prefix + "\"" + suffix),
                                           ("é", prefix + "é" + suffix), ("\\u00e9", prefix + "é" + suffix)] {
                    let text = "\"" + prefix + middle + suffix + "\""
                    #expect(try JSONParser.parse(text) == .string(expected), "\(text)")
                    // An object element's members are skipped, not built.
                    let document = Array("{\"l\": [{\"k\": \(text), \(text): 1}, 1]}".utf8)
                    let summarized = try JSONParser.parse(document, summarizingElementsOf: "l", keeping: [])
                    let element = try JSONParser.parseElement(document, in: try #require(summarized.elements?.first))
                    #expect(summarized.elements?.count == 2 && element["k"] == .string(expected) && element[expected] == .number(1), "\(text)")
                }
                // A raw control character is refused where it is, and so is a string left open.
                let control = Array(("\"" + prefix + "\u{01}" + suffix + "\"").utf8)
                #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(control) }
                // A member the summary passes over is refused by the element's own reading.
                let skipped = Array("{\"l\": [{\"k\": ".utf8) + control + Array("}]}".utf8)
                let range = try #require(try JSONParser.parse(skipped, summarizingElementsOf: "l", keeping: []).elements?.first)
                #expect(throws: JSONSyntaxError.self) { try JSONParser.parseElement(skipped, in: range) }
                #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("\"" + prefix + suffix) }
                #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array("{\"l\": [{\"k\": \"\(prefix)\(suffix)".utf8), summarizingElementsOf: "l", keeping: []) }
            }
        }
    }

    @Test func decodesSurrogatePairs() throws {
        #expect(try JSONParser.parse(#""\ud83d\uddfa""#) == .string("🗺"))
    }

    @Test(arguments: [
        ("{\"a\": 1,}", 1, 9, "expected a string key"),
        ("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3, "expected ',' or '}' in an object"),
        ("[1, 2", 1, 6, "expected ',' or ']' in an array"),
        ("\"abc", 1, 5, "unterminated string"),
        ("01", 1, 2, "unexpected content after the JSON value"),
        ("tru", 1, 1, "unexpected character 't', expected a value"),
        ("", 1, 1, "unexpected end of input, expected a value"),
        ("[1.]", 1, 4, "invalid number: digits expected after '.'"),
    ])
    func reportsSyntaxErrorsWithLineAndColumn(text: String, line: Int, column: Int, message: String) {
        #expect(throws: JSONSyntaxError(.malformed, message, line: line, column: column)) {
            try JSONParser.parse(text)
        }
    }

    @Test func refusesNestingDeeperThanTheLimit() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
    }

    @Test func writerRoundTripsAndFormatsNumbers() throws {
        let text = #"{"b":[1,2.5,-0.125,true,null],"a":"q\"\\\n\u0001"}"#
        #expect(JSONWriter.string(try JSONParser.parse(text)) == text)
        #expect(JSONWriter.formatNumber(316_667) == "316667")
        #expect(JSONWriter.formatNumber(.nan) == "null")
    }

    @Test func theByteWriterEscapesAsTheTextWriterAndReadsBack() throws {
        // Every ASCII byte, alone and among others, and text with no escape at all.
        let texts = (0..<128).map { String(UnicodeScalar(UInt8($0))) } + ["plain é text", "", #"{"a":"b\c","d":[1]}"#,
                                                                        String(decoding: Array(0..<128), as: UTF8.self)]
        for text in texts {
            var expected = ""
            JSONWriter.writeString(text, to: &expected)
            var bytes: [UInt8] = [0x2A]
            Array(text.utf8).withUnsafeBufferPointer { JSONWriter.writeString(utf8: $0, into: &bytes) }
            #expect(bytes == [0x2A] + Array(expected.utf8), "\(Array(text.utf8))")
            #expect(try JSONParser.parse(Array(bytes.dropFirst())) == .string(text))
        }
    }

    @Test func readsEveryNumberAsItsTextReads() throws {
        // Short decimals are read from their digits, the rest from their text: both ways give the
        // double the text names, to the last bit, sign of zero included.
        var texts = ["0", "-0", "0.0", "-0.0", "0e5", "-0E-5", "1", "-1", "7e22", "7e23", "1e-22", "1e-23", "123456789012345",
                     "1234567890123456", "12345678901234567890", "0.1", "0.3", "-122.4194155", "37.77492950000001", "1.5e+3",
                     "2.5E-3", "0.000001234", "0.0000000000000000000000001", "100000000000000000000000", "9007199254740993",
                     "4.9e-324", "2.2250738585072014e-308", "1.7976931348623157e308", "0.1e1", "10.00", "999999999999999e7",
                     "1e1000", "-0e-1000", "1e-1000", "9999999999999999999", "18446744073709551615", "0.12345678901234567890123",
                     "-122.41941550000001", "37.774929500000009", "9007199254740993.0", "9007199254740992.5", "9007199254740993.5",
                     "0.1000000000000000055511151231257827", "1.00000000000000011102230246251565404", "2.2204460492503131e-16",
                     "123456789012345678e-22", "0.0000000000000000000001234567890123456789"]
        var generator = XorShift(state: 0x9E37_79B9_7F4A_7C15)
        for _ in 0..<20_000 {
            let whole = Int.random(in: -180...180, using: &generator)
            let decimals = Int.random(in: 0...20, using: &generator)
            let fraction = (0..<decimals).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
            let exponent = Int.random(in: 0...3, using: &generator) == 0 ? "e\(Int.random(in: -30...30, using: &generator))" : ""
            texts.append("\(whole)" + (fraction.isEmpty ? "" : ".\(fraction)") + exponent)
        }
        for text in texts {
            let expected = try #require(Double(text), "\(text)")
            guard expected.isFinite else {
                #expect(throws: JSONSyntaxError.self, "\(text)") { try JSONParser.parse(text) }
                continue
            }
            let read = try JSONParser.parse("[\(text)]").arrayValue?.first?.numberValue
            #expect(read?.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    /// Numbers drawn the same in every run.
    private struct XorShift: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
    }
}
