import Testing
import MapSim
@testable import MapSimStyle
@testable import MapSimJSON

/// The parts of evaluation the suite's cases touch lightly: JavaScript's number spelling, CSS
/// colors, number formatting, collation, legacy tokens, and evaluation on a feature.
@Suite("Expression evaluation")
struct ExpressionEvaluatorTests {
    private func evaluate(_ expression: String, zoom: Double? = nil, properties: String = "{}") throws -> ExpressionValue {
        guard case .success(let compiled) = StyleExpression.compile(try JSONParser.parse(expression), propertySpec: nil) else {
            Issue.record("\(expression) does not compile")
            return .null
        }
        let feature = ExpressionFeature(properties: try JSONParser.parse(properties).objectValue ?? JSONObject(), geometryType: "Point")
        return try compiled.evaluate(ExpressionContext(zoom: zoom, feature: feature))
    }

    @Test func numbersAreSpelledAsJavaScriptSpellsThem() {
        #expect(JavaScriptNumber.string(1e21) == "1e+21")
        #expect(JavaScriptNumber.string(1e20) == "100000000000000000000")
        #expect(JavaScriptNumber.string(0.000001) == "0.000001")
        #expect(JavaScriptNumber.string(1.5e-7) == "1.5e-7")
        #expect(JavaScriptNumber.string(-0.0) == "0")
        #expect(JavaScriptNumber.string(123.456) == "123.456")
        #expect(JavaScriptNumber.parse(" 0x1F ") == 31)
        #expect(JavaScriptNumber.parse("") == 0)
        #expect(JavaScriptNumber.parse("1e3") == 1000)
        #expect(JavaScriptNumber.parse("12px").isNaN)
    }

    @Test func cssColorsParseInBothSyntaxesAndClamp() throws {
        let spaced = try #require(RGBAColor(css: "rgb(255 0 0 / 50%)"))
        #expect(spaced.red == 0.5 && spaced.alpha == 0.5)
        let clamped = try #require(RGBAColor(css: "rgba(300, 0, 0, 2)"))
        #expect(clamped.red == 1 && clamped.alpha == 1)
        #expect(RGBAColor(css: "#0f08")?.alpha == Double(0x88) / 255)
        #expect(RGBAColor(css: "hsl(120deg 100% 50%)")?.green == 1)
        #expect(RGBAColor(css: "rgb(255, 0 0)") == nil)
        #expect(RGBAColor(css: "rgb(50%, 0, 0)") == nil)
        #expect(RGBAColor(css: "reddish") == nil)
    }

    @Test func numberFormatRoundsHalfAwayAndCarries() {
        #expect(LocaleNumberFormat(maximumFractionDigits: 3).string(9.9995) == "10")
        #expect(LocaleNumberFormat().string(-1234.5) == "-1,234.5")
        #expect(LocaleNumberFormat(currency: "USD").string(0.5) == "$0.50")
        #expect(LocaleNumberFormat(locale: "de-DE", currency: "EUR").string(1234.5) == "1.234,50\u{00A0}€")
        #expect(LocaleNumberFormat(unit: "kilometer-per-hour").string(50) == "50 km/h")
    }

    @Test func collatorsFoldWhatTheyAreToldToFold() throws {
        let base = try ExpressionCollator(caseSensitive: false, diacriticSensitive: false, locale: "en")
        #expect(base.compare("Ärger", "arger") == 0 && base.compare("a", "b") < 0)
        let variant = try ExpressionCollator(caseSensitive: true, diacriticSensitive: true, locale: nil)
        #expect(variant.compare("a", "A") < 0 && variant.compare("a", "ä") < 0 && variant.compare("äa", "aä") > 0)
        #expect(variant.resolvedLocale == "en-US" && base.resolvedLocale == "en")
    }

    @Test func collatorsCompareInTheLocalesTailoringAndResolveItAsIntlDoes() throws {
        // German search collation: ä is ae. Swedish: ä after z. Danish under its wrong code dk: the root order.
        #expect(try ExpressionCollator(caseSensitive: false, diacriticSensitive: false, locale: "de").compare("ä", "ae") == 0)
        #expect(try ExpressionCollator(caseSensitive: false, diacriticSensitive: false, locale: "sv").compare("ä", "z") > 0)
        #expect(try ExpressionCollator(caseSensitive: false, diacriticSensitive: false, locale: "dk").compare("ä", "a") == 0)
        let resolved = try ["de-DE", "en-GB", "zh-TW", "fr-CA", "pt-BR", "iw", "tl", "sh", "xx", "en-US-POSIX", "es-ES-u-co-trad", "DE", ""].map {
            try ExpressionCollator(caseSensitive: false, diacriticSensitive: false, locale: $0).resolvedLocale
        }
        #expect(resolved == ["de", "en", "zh-TW", "fr-CA", "pt", "he", "fil", "sr-Latn", "en-US", "en-US-u-va-posix", "es-u-co-trad", "de", "en-US"])
        for (tag, message) in [("root", "Incorrect locale information provided"), ("de_DE", "Incorrect locale information provided"),
                               ("en-GB-oed", "Incorrect locale information provided"), ("de-", "Invalid language tag: de-"),
                               ("de-1996-1996", "Invalid language tag: de-1996-1996")] {
            #expect(throws: ExpressionError(.evaluation, message), "\(tag)") { try ExpressionCollator(caseSensitive: false, diacriticSensitive: false, locale: tag) }
        }
    }

    @Test func legacyTokensBecomeExpressions() {
        #expect(TokenReplacer.tokenExpression("{name}") == .array([.string("to-string"), .array([.string("get"), .string("name")])]))
        #expect(TokenReplacer.tokenExpression("no tokens") == .string("no tokens"))
        #expect(TokenReplacer.tokenExpression("{{a}} {}") == .array([.string("concat"), .string("{"), .array([.string("get"), .string("a")]), .string("} {}")]))
    }

    /// Tokens are found by their braces' bytes: text around them, in any script, is kept as it is;
    /// a token without a value, an empty one and a brace that is never closed stay as written, and
    /// a brace opened inside a token starts the token again.
    @Test func tokensAreReplacedInPlace() {
        let values = ["z": "14", "name": "Zürich", "x": ""]
        let replace = { (text: String) in TokenReplacer.replace(in: text) { values[$0] } }
        #expect(replace("https://a/{z}/{x}/{y}.pbf") == "https://a/14//{y}.pbf")
        #expect(replace("no tokens") == "no tokens")
        #expect(replace("{name} – 東京 {z}") == "Zürich – 東京 14")
        #expect(replace("{}{a{z}}") == "{}{a14}", "a token holds no brace, as in MapLibre Native and GL JS")
        #expect(replace("{{z}") == "{14")
        #expect(replace("{z}{name") == "14{name")
        #expect(replace("a{z}b{c") == "a14b{c", "the text before a brace never closed, once")
        #expect(replace("é{z}é") == "é14é")
        #expect(replace("") == "")
    }

    @Test func featuresAreRead() throws {
        #expect(try evaluate(#"["concat", ["get", "name"], " ", ["geometry-type"]]"#, properties: #"{"name": "Oslo"}"#) == .string("Oslo Point"))
        #expect(try evaluate(#"["interpolate", ["exponential", 2], ["zoom"], 0, 0, 10, 100]"#, zoom: 5) == .number(100 * (pow2(5) - 1) / (pow2(10) - 1)))
        #expect(throws: ExpressionError.self) { try evaluate(#"["number", ["get", "missing"]]"#) }
    }

    /// What may stand where a type is expected, decided without a message, and the message when not.
    @Test func aTypeAcceptsItselfItsValuesMembersAndErrorsAndSaysWhatItFoundOtherwise() {
        let accepted: [(ExpressionType, ExpressionType)] = [
            (.number, .number), (.value, .string), (.value, .value), (.value, .array(.number, count: 2)), (.color, .error),
            (.array(.value, count: nil), .array(.string, count: 3)), (.array(.number, count: 2), .array(.number, count: 2)),
            (.array(.number, count: nil), .array(.value, count: 0)),
        ]
        for (expected, actual) in accepted {
            #expect(expected.accepts(actual) && expected.mismatch(actual) == nil, "\(expected) of \(actual)")
        }
        let refused: [(ExpressionType, ExpressionType, String)] = [
            (.number, .string, "Expected number but found string instead."),
            (.string, .value, "Expected string but found value instead."),
            (.value, .collator, "Expected value but found collator instead."),
            (.array(.number, count: 2), .array(.number, count: 3), "Expected array<number, 2> but found array<number, 3> instead."),
            (.array(.string, count: nil), .array(.number, count: nil), "Expected array<string> but found array<number> instead."),
            (.array(.value, count: nil), .number, "Expected array but found number instead."),
        ]
        for (expected, actual, message) in refused {
            #expect(!expected.accepts(actual) && expected.mismatch(actual) == message, "\(expected) of \(actual)")
        }
    }

    private func pow2(_ n: Double) -> Double { (0..<Int(n)).reduce(1.0) { value, _ in value * 2 } }
}

/// Layer filters, legacy and expression, as the SDKs run them.
@Suite("StyleFilter")
struct StyleFilterTests {
    private func passes(_ filter: String, properties: String = "{}", type: String = "Point", id: JSONValue? = nil, zoom: Double = 10) throws -> Bool {
        let compiled = try StyleFilter(try JSONParser.parse(filter))
        let feature = ExpressionFeature(properties: try JSONParser.parse(properties).objectValue ?? JSONObject(), id: id, geometryType: type)
        return compiled.matches(ExpressionContext(zoom: zoom, feature: feature))
    }

    @Test func legacyFiltersAreConvertedAsTheReferenceConvertsThem() throws {
        #expect(try passes(#"["==", "class", "park"]"#, properties: #"{"class": "park"}"#))
        #expect(try !passes(#"["==", "class", "park"]"#, properties: #"{"class": "parking"}"#))
        #expect(try passes(#"["!=", "class", "park"]"#))
        #expect(try passes(#"["in", "$type", "Point", "LineString"]"#))
        #expect(try !passes(#"["in", "$type", "Polygon"]"#))
        #expect(try passes(#"["!in", "rank", 1, 2]"#, properties: #"{"rank": 3}"#))
        #expect(try passes(#"["has", "name"]"#, properties: #"{"name": ""}"#) && !passes(#"["!has", "name"]"#, properties: #"{"name": ""}"#))
        #expect(try passes(#"["none", ["==", "a", 1], ["==", "a", 2]]"#, properties: #"{"a": 3}"#))
        #expect(try passes(#"["all", [">=", "rank", 2], ["<", "rank", 5]]"#, properties: #"{"rank": 4}"#))
        // Legacy ordering compares only values of the same type.
        #expect(try !passes(#"["<", "rank", 5]"#, properties: #"{"rank": "4"}"#))
        #expect(try passes(#"["==", "$id", 7]"#, id: .number(7)) && !passes(#"["has", "$id"]"#))
        #expect(try passes(#"["any"]"#) == false && passes(#"["all"]"#))
    }

    @Test func expressionFiltersEvaluateAndErrorsCountAsFalse() throws {
        #expect(try passes(#"["==", ["get", "class"], "park"]"#, properties: #"{"class": "park"}"#))
        #expect(try passes(#"[">=", ["zoom"], 9]"#, zoom: 9.5))
        #expect(try !passes(#"["<", ["get", "rank"], 5]"#, properties: #"{"rank": "x"}"#))
        #expect(try passes("true") && !passes("false"))
        #expect(throws: ExpressionCompilationError.self) { try StyleFilter(try JSONParser.parse(#"["==", ["get", "a"]]"#)) }
    }
}

/// Evaluation never crashes or hangs: thousands of random expressions, compiled without a property
/// and evaluated on features of every kind, give a value or a runtime error.
@Suite("Expression evaluation robustness")
struct ExpressionRobustnessTests {
    @Test func randomExpressionsEvaluateOrFail() throws {
        let operators = ["let", "var", "literal", "array", "at", "in", "index-of", "slice", "case", "match", "coalesce", "step",
                         "interpolate", "interpolate-hcl", "interpolate-lab", "typeof", "string", "number", "boolean", "object", "collator",
                         "format", "image", "number-format", "to-string", "to-number", "to-boolean", "to-rgba", "to-color", "rgb", "rgba",
                         "get", "has", "length", "properties", "feature-state", "geometry-type", "id", "zoom", "+", "*", "-", "/",
                         "%", "^", "sqrt", "ln", "min", "max", "round", "floor", "==", "!=", ">", "<", "<=", "all", "any", "!", "concat",
                         "split", "join", "upcase", "downcase", "resolved-locale", "error", "global-state", "within", "distance"]
        let leaves = ["0", "1", "-2.5", "1e308", "-1e308", "300", "0.5", "\"red\"", "\"name\"", "\"rank\"", "\"\"", "\"x,y\"", "true", "null",
                      "[\"get\", \"name\"]", "[\"get\", \"rank\"]", "[\"zoom\"]", "[\"literal\", [1, 2, 3]]", "[\"literal\", {\"a\": [1]}]",
                      "[\"linear\"]", "[\"exponential\", 2]", "[\"cubic-bezier\", 0, 0, 1, 1]", "{\"locale\": \"de\", \"currency\": \"EUR\"}",
                      "{\"type\": \"Point\", \"coordinates\": [0, 0]}", "{\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}"]
        var random = SplitMix64(seed: 11)
        func expression(_ depth: Int) -> String {
            if depth == 0 || random.next() % 4 == 0 { return leaves[Int(random.next() % UInt64(leaves.count))] }
            let op = operators[Int(random.next() % UInt64(operators.count))]
            let arguments = (0..<Int(random.next() % 6)).map { _ in expression(depth - 1) }
            return "[\"\(op)\"\(arguments.map { ", " + $0 }.joined())]"
        }
        let features = [
            ExpressionFeature(properties: try JSONParser.parse(#"{"name": "Zürich", "rank": 3, "tags": [1, "a"], "nested": {"a": null}}"#).objectValue ?? JSONObject(),
                              id: .number(7), geometryType: "Point", geometry: [[TilePoint(x: 10, y: 10)]]),
            ExpressionFeature(properties: JSONObject(), id: .string("x"), geometryType: "Polygon",
                              geometry: [[TilePoint(x: 0, y: 0), TilePoint(x: 100, y: 0), TilePoint(x: 100, y: 100), TilePoint(x: 0, y: 0)]]),
            ExpressionFeature(properties: JSONObject([("rank", .number(.infinity))])),
        ]
        var compiled = 0
        for _ in 0..<4_000 {
            guard let json = try? JSONParser.parse(expression(4)), case .success(let expression) = StyleExpression.compile(json, propertySpec: nil) else { continue }
            compiled += 1
            for (index, feature) in features.enumerated() {
                let context = ExpressionContext(zoom: Double(index * 7), feature: feature, availableImages: ["red"], tile: CanonicalTile(z: 3, x: 4, y: 2))
                switch Result(catching: { try expression.evaluate(context) }) {
                case .success(let value): _ = ExpressionValue.jsonText(expression.outputJSON(value))
                case .failure(let error): #expect(!(error as? ExpressionError)!.message.isEmpty)
                }
            }
        }
        #expect(compiled > 500)
    }
}
