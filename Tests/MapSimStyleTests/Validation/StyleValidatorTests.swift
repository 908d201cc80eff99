import Foundation
import Testing
@testable import MapSimStyle
@testable import MapSimJSON
import MapSim

@Suite("StyleValidator")
struct StyleValidatorTests {
    private func check(_ json: String) -> [String] {
        StyleValidator.validate(Array(json.utf8)).map { "\($0.line.map(String.init) ?? "-"): \($0.message)" }
    }

    @Test func recordsTheLineOfEveryValue() throws {
        let (value, lines) = try JSONParser.parseRecordingLines(Array("{\n  \"a\": [1,\n    {\"b\": null}],\n  \"c\": \"x\"\n}".utf8))
        #expect(value["c"] == .string("x"))
        #expect(lines.line("") == 1 && lines.line("a") == 2 && lines.line("a[0]") == 2 && lines.line("a[1]") == 3 && lines.line("a[1].b") == 3 && lines.line("c") == 4)
        #expect(lines.line("a[2]") == nil && lines.line("b") == nil && lines.line("a.b") == nil)
        // Scanning a valid document finds a line for every value, escaped keys included.
        let text = Array("{\"x\": {\"k\\u0065y\": [\n1, {\"y\": [true,\n\"s\\\"]\"]}]},\n\"z\": -1.5e3, \"x\": null}".utf8)
        let parsed = try JSONParser.parseRecordingLines(text).lines
        let scanned = JSONLineIndex(scanning: text)
        for path in ["", "x", "x.key", "x.key[0]", "x.key[1]", "x.key[1].y", "x.key[1].y[0]", "x.key[1].y[1]", "z"] {
            #expect(scanned.line(path) == parsed.line(path) && parsed.line(path) != nil, "\(path)")
        }
    }

    @Test func aReadingEndsOnceNothingLaterCanHaveItsPathAndStillFindsALaterValueWrittenAnotherWay() {
        // Each document has its path again later, written so that only a careful stop sees it: a key
        // repeated in an outer object, with an escape, as a dotted key; or has it once, after which
        // the reading may stop (the answers are the index's, which reads everything).
        let cases: [(text: String, path: String, line: Int)] = [
            ("{\"a\": {\"b\": 1},\n\"c\": [{\"b\": 2}],\n\"d\": 0}", "a.b", 1),
            ("{\"a\": {\"b\": 1},\n\"c\": [{\"b\": 2}],\n\"d\": 0}", "c[0].b", 2),
            ("{\"a\": 1,\n\"\\u0061\": 2}", "a", 2),
            ("{\"a/b\": 1,\n\"s\": \"\\n\",\n\"a\\/b\": 3}", "a/b", 3),
            ("{\"a/b\": 1,\n\"s\": \"\\n\\t\"}", "a/b", 1),
            ("{\"a\": {\"b\": 1},\n\"a.b\": 2}", "a.b", 2),
            ("{\"l\": [{\"p\": {\"x\": 1}},\n{\"p\": {\"x\": 2}}],\n\"l\": [{\"p\": {\"x\": 3}}]}", "l[0].p.x", 3),
            ("{\"l\": [{\"p\": {\"x\": 1}},\n{\"p\": {\"x\": 2}}], \"m\": \"\\n\"}", "l[0].p.x", 1),
            ("{\"l\": [{\"p\": {\"x\": 1},\n\"p\": {\"x\": 2}}]}", "l[0].p.x", 2),
        ]
        for (text, path, line) in cases {
            let bytes = Array(text.utf8)
            #expect(JSONLineIndex.line(of: path, in: bytes) == line && JSONLineIndex(scanning: bytes).line(path) == line, "\(path) in \(text)")
        }
    }

    @Test func aReadingOfItsOwnFindsTheIndexsLineForEveryPathOfRandomDocumentsWithRepeatedAndEscapedKeys() throws {
        var random = SplitMix64(seed: 82)
        var compared = 0
        for _ in 0..<400 {
            var document = RandomLinesDocument()
            document.value(at: "", depth: 0, using: &random)
            let bytes = Array(document.text.utf8)
            _ = try #require(try? JSONParser.parse(bytes), "\(document.text)")
            let index = JSONLineIndex(scanning: bytes)
            for path in document.paths {
                #expect(JSONLineIndex.line(of: path, in: bytes) == index.line(path), "\(path) in \(document.text)")
                compared += 1
            }
        }
        #expect(compared > 4_000)
    }

    /// A JSON document drawn at random, with the path of each of its values: keys that repeat, that
    /// contain dots and brackets (so that two keys can give one path), written with `\u` and `\/`
    /// escapes, and line breaks between values and inside strings' escapes.
    private struct RandomLinesDocument {
        var text = ""
        var paths: [String] = []
        private static let keys = ["a", "b", "a.b", "a[0]", "a/b", "l", "p"]

        mutating func value(at path: String, depth: Int, using random: inout SplitMix64) {
            paths.append(path)
            if Int.random(in: 0..<3, using: &random) == 0 { text += "\n" }
            let kind = depth == 0 ? 0 : depth < 4 ? Int.random(in: 0..<5, using: &random) : Int.random(in: 1..<3, using: &random)
            switch kind {
            case 0, 3:
                text += "{"
                for member in 0..<Int.random(in: 0...4, using: &random) {
                    if member > 0 { text += "," }
                    let key = Self.keys.randomElement(using: &random)!
                    text += "\"" + written(key, using: &random) + "\":"
                    value(at: path.isEmpty ? key : path + "." + key, depth: depth + 1, using: &random)
                }
                text += "}"
            case 4:
                text += "["
                for element in 0..<Int.random(in: 0...3, using: &random) {
                    if element > 0 { text += "," }
                    value(at: path + "[\(element)]", depth: depth + 1, using: &random)
                }
                text += "]"
            case 1:
                text += ["\"s\"", "\"x\\ny\"", "\"\\u0061\"", "\"a\\/b\""].randomElement(using: &random)!
            default:
                text += ["1", "true", "null"].randomElement(using: &random)!
            }
        }

        /// `key` as written in the document: plainly, or with one character escaped.
        private func written(_ key: String, using random: inout SplitMix64) -> String {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return key.replacingOccurrences(of: "a", with: "\\u0061")
            case 1: return key.replacingOccurrences(of: "/", with: "\\/")
            default: return key
            }
        }
    }

    @Test func aLineFoundByAReadingOfItsOwnIsTheIndexsLineAndDocumentLinesSwitchesToTheIndexWithTheSameAnswers() throws {
        // Nested values, an escaped key, a key written twice (the later value's line), numbers, literals.
        let text = Array("{\"x\": {\"k\\u0065y\": [\n1, {\"y\": [true,\n\"s\\\"]\"]}]},\n\"z\": -1.5e3, \"x\": null,\n\"w\": {}, \"v\": [[], [\n0]]}".utf8)
        let index = JSONLineIndex(scanning: text)
        let paths = ["", "x", "x.key", "x.key[0]", "x.key[1]", "x.key[1].y", "x.key[1].y[1]", "z", "w", "v", "v[0]", "v[1]", "v[1][0]",
                     "missing", "x.key[2]", "v[1][1]", "x.k\\u0065y"]
        #expect(index.line("x") == 4, "the later of two values with one path")
        #expect(index.line("v[1][0]") == 6)
        for path in paths {
            #expect(JSONLineIndex.line(of: path, in: text) == index.line(path), "\(path)")
        }
        // A reading goes into only the values on the way to its path and skips the rest by their
        // brackets: brackets and escaped quotes inside skipped strings, line breaks inside skipped
        // values, a key that begins another, a key with a dot (its path is written as a member's).
        let skipped = Array("{\"s\": \"}]{[\\\"\", \"n\": {\"deep\": [1,\n2, {\"q\": \"]\"}\n]},\n\"nx\": [\"[\",\n{\"n\": 0}], \"a.b\": 1,\n\"a\": {\"b\": [\n2]}}".utf8)
        let skippedIndex = JSONLineIndex(scanning: skipped)
        for path in ["s", "n", "n.deep", "n.deep[1]", "n.deep[2].q", "nx", "nx[1]", "nx[1].n", "a.b", "a", "a.b[0]", "n.dee", "nx[2]", "x"] {
            #expect(JSONLineIndex.line(of: path, in: skipped) == skippedIndex.line(path), "\(path)")
        }
        #expect(JSONLineIndex.line(of: "nx[1].n", in: skipped) == 5 && JSONLineIndex.line(of: "a.b", in: skipped) == 6, "the later of a dotted key and a nested member")
        let lines = DocumentLines(bytes: text)
        let answers = (0..<3).flatMap { _ in paths }.map { lines.line($0) }
        #expect(answers.count > DocumentLines.readingsBeforeIndex, "the lookups outnumber the readings, so the index answers the rest")
        #expect(answers == (0..<3).flatMap { _ in paths }.map { index.line($0) })
    }

    @Test(arguments: [3, 40, 140])
    func wrongTextInsideALayersUnkeptMembersIsTheWholeDocumentsSyntaxError(layerCount: Int) throws {
        // The first reading passes over a layer's members but its id, ref and type by their
        // brackets; the layer's own reading (on one thread, or in parallel from 32 layers) checks them.
        func style(_ broken: String, at brokenIndex: Int) -> [UInt8] {
            let layers = (0..<layerCount).map { index in
                index == brokenIndex ? broken : "{\"id\": \"l\(index)\", \"type\": \"background\", \"paint\": {\"background-color\": \"#fff\"}}"
            }
            return Array("{\"version\": 8, \"sources\": {},\n\"layers\": [\n\(layers.joined(separator: ",\n"))\n]}".utf8)
        }
        let wrongLayers = [
            "{\"id\": \"x\", \"type\": \"background\", \"paint\": {\"background-color\": tru}}",
            "{\"id\": \"x\", \"type\": \"background\", \"paint\": {]}",
            "{\"id\": \"x\", \"type\": \"background\", \"paint\": {\"background-color\" \"#fff\"}}",
            "{\"id\": \"x\", \"type\": \"background\", \"paint\": [1 2]}",
            "{\"id\": \"x\", \"type\": \"background\", \"metadata\": \"a\\qb\"}",
            "{\"id\": \"x\", \"type\": \"background\", \"metadata\": 01}",
            "{\"id\": \"x\", \"type\": \"background\", \"metadata\": \"\u{1}\"}",
        ]
        for broken in wrongLayers {
            let bytes = style(broken, at: layerCount - 2)
            let expected: StyleDiagnostic
            do {
                _ = try JSONParser.parse(bytes)
                Issue.record("\(broken) parsed")
                continue
            } catch {
                let described = JSONLintSyntaxError.describe(bytes) ?? (error.message, error.line)
                expected = StyleDiagnostic(message: described.message, line: described.line, isParseError: true)
            }
            let diagnostics = StyleValidator.validate(bytes)
            #expect(diagnostics.count == 1 && diagnostics.first?.isParseError == true, "\(broken)")
            #expect(diagnostics.first?.message == expected.message && diagnostics.first?.line == expected.line, "\(broken)")
        }
        // Brackets and quotes inside strings of a valid layer are not structure.
        let valid = style("{\"id\": \"x\", \"type\": \"background\", \"metadata\": {\"a\": \"]}[{\\\"\", \"b\": [[], {}]}}", at: 1)
        #expect(StyleValidator.validate(valid).isEmpty)
    }

    @Test func aValidStyleHasNoDiagnostics() {
        #expect(check("""
        {"version": 8, "name": "x", "extra-root-key": 1, "glyphs": "g/{fontstack}/{range}.pbf",
         "sources": {"v": {"type": "vector", "url": "https://h/v.json"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "rgba(10, 20, 30, 0.5)"}},
                    {"id": "f", "type": "fill", "source": "v", "source-layer": "l", "paint": {"fill-color": "lightsteelblue", "fill-opacity": 0.5}}]}
        """).isEmpty)
    }

    @Test func reportsRootProblemsWithTheirLines() {
        #expect(check("{\n\"version\": 7,\n\"center\": [1, 2, 3],\n\"pitch\": \"steep\",\n\"glyphs\": \"g.pbf\",\n\"layers\": []\n}") == [
            "1: missing required property \"sources\"",
            "2: version: expected one of [8], 7 found",
            "3: center: array length 2 expected, length 3 found",
            "4: pitch: number expected, string found",
            "5: glyphs: \"glyphs\" url must include a \"{fontstack}\" token",
            "5: glyphs: \"glyphs\" url must include a \"{range}\" token",
        ])
    }

    /// gl-style-validate finds a glyphs URL's tokens with JavaScript's `indexOf`, unit by unit: a
    /// token followed by a combining mark is still there (a search that compares canonically
    /// equivalent text, as Foundation's `contains`, finds `}` + U+0301 no `}`), and a token's look-alike
    /// is not. Both flavors, as both reference validators check the URL so.
    @Test(arguments: [StyleSpecFlavor.maplibre, .mapbox, .mapboxGLJS])
    func glyphsTokensAreFoundByTheirBytes(flavor: StyleSpecFlavor) {
        func messages(_ glyphs: String) -> [String] {
            let style = "{\"version\": 8, \"glyphs\": \"\(glyphs)\", \"sources\": {}, \"layers\": []}"
            return StyleValidator.validate(Array(style.utf8), flavor: flavor).map(\.message)
        }
        #expect(messages("https://h/{fontstack}/{range}\u{0301}.pbf").isEmpty)
        #expect(messages("https://h/{fontstack}/{range}\\u0301.pbf").isEmpty)
        #expect(messages("https://h/{fontstack}/{ränge}.pbf") == ["glyphs: \"glyphs\" url must include a \"{range}\" token"])
        #expect(messages("{range}") == ["glyphs: \"glyphs\" url must include a \"{fontstack}\" token"])
        #expect(messages("{rang") == ["glyphs: \"glyphs\" url must include a \"{fontstack}\" token",
                                      "glyphs: \"glyphs\" url must include a \"{range}\" token"])
    }

    @Test func checksSourcesAndLayers() {
        let diagnostics = check("""
        {"version": 8,
         "sources": {"r": {"type": "raster", "tiles": ["t"]}, "bad": {"type": "invalid"}, "v": {"type": "vector", "url": "u"}},
         "layers": [
          {"id": "a", "type": "fill", "source": "r"},
          {"id": "a", "type": "line", "source": "missing"},
          {"id": "c", "type": "line", "source": "v"},
          {"type": "circle", "source": "v", "source-layer": "l", "paint": {"circle-radius": -1, "circle-color": "nope", "circle-bogus": 1}}
         ]}
        """)
        #expect(diagnostics == [
            "2: sources.bad.type: expected one of [vector, raster, raster-dem, geojson, video, image], \"invalid\" found",
            "4: layers[0]: layer \"a\" requires a vector source",
            "5: layers[1]: duplicate layer id \"a\", previously used at line 4",
            "5: layers[1]: source \"missing\" not found",
            "6: layers[2]: layer \"c\" must specify a \"source-layer\"",
            "7: layers[3].paint.circle-radius: -1 is less than the minimum value 0",
            "7: layers[3].paint.circle-color: color expected, \"nope\" found",
            "7: layers[3].paint.circle-bogus: unknown property \"circle-bogus\"",
            "7: layers[3]: missing required property \"id\"",
        ])
    }

    @Test func aLargeStyleChecksItsLayersInPartsAndReportsThemInOrder() {
        // 400 layers, every seventh with a mistake (one in every part), the layers of unequal size:
        // checked in parts on several threads, the diagnostics still come in the layers' order.
        // Over 512 KB, the style takes every path of a large one: the specification read on other
        // threads, a copy of it for each thread, and what the check built freed on a thread of its
        // own — and a second check, while the first one's is freed, says the same.
        let layers = (0..<400).map { index -> String in
            let padding = String(repeating: " ", count: index % 50 * 50)
            let paint = index % 7 == 0 ? "\"fill-bogus-\(index)\": 1" : "\"fill-opacity\": [\"interpolate\", [\"linear\"], [\"zoom\"], 5, 0, 10, 1]"
            return "{\"id\": \"l\(index)\", \"type\": \"fill\", \"source\": \"v\", \"source-layer\": \"s\",\(padding) \"paint\": {\(paint)}}"
        }
        let style = "{\"version\": 8, \"sources\": {\"v\": {\"type\": \"vector\", \"url\": \"u\"}},\n\"layers\": [\n" + layers.joined(separator: ",\n") + "]}"
        let expected = stride(from: 0, to: 400, by: 7).map { "\($0 + 3): layers[\($0)].paint.fill-bogus-\($0): unknown property \"fill-bogus-\($0)\"" }
        #expect(style.utf8.count > 512 * 1024)
        #expect(check(style) == expected)
        #expect(check(style) == expected)
    }

    @Test func aKeyIsLookedUpByItsPartBeforeTheFirstDot() {
        #expect(StyleValidator.specKey("paint") == "paint")
        #expect(StyleValidator.specKey("paint.night") == "paint")
        #expect(StyleValidator.specKey("a.b.c") == "a")
        #expect(StyleValidator.specKey(".x") == "")
        #expect(StyleValidator.specKey("x.") == "x")
        #expect(StyleValidator.specKey("é.ü") == "é")
        // A layer's `paint.night` is checked as its `paint`, a root `zoom.x` as its `zoom`, as
        // gl-style-validate checks them.
        #expect(check(#"{"version": 8, "sources": {}, "zoom.x": "a", "layers": [{"id": "b", "type": "background", "paint.night": {"background-opacity": "x"}}]}"#) == [
            "1: zoom.x: number expected, string found",
            "1: layers[0].paint.night.background-opacity: number expected, string found",
        ])
    }

    @Test func theLayersArePartedByTheirText() {
        let sizes = [100, 1, 1, 1, 50, 50, 1, 97, 3, 3, 90, 2]
        let parts = StyleValidator.parts(ofSizes: sizes, count: 4)
        #expect(parts.count <= 4 && parts.first?.lowerBound == 0 && parts.last?.upperBound == sizes.count)
        for (part, next) in zip(parts, parts.dropFirst()) { #expect(part.upperBound == next.lowerBound && !part.isEmpty) }
        #expect(parts.map { sizes[$0].reduce(0, +) } == [100, 103, 98, 98])
        // As many parts as layers at most, and one for a single layer.
        #expect(StyleValidator.parts(ofSizes: [5, 5], count: 16) == [0..<1, 1..<2])
        #expect(StyleValidator.parts(ofSizes: [7], count: 16) == [0..<1])
    }

    @Test func checksLegacyFunctions() {
        let diagnostics = check("""
        {"version": 8, "sources": {"v": {"type": "vector", "url": "u"}},
         "layers": [{"id": "a", "type": "line", "source": "v", "source-layer": "l", "paint": {
           "line-width": {"base": "x", "stops": [[10, 1], [5, 2], ["z", 3], [1]]},
           "line-color": {"type": "categorical", "stops": [[1.5, "red"], [2, "nope"]]},
           "line-opacity": {"type": "identity"},
           "line-blur": {"stops": [[1, ["get", "b"]]]}
         }}]}
        """)
        #expect(diagnostics == [
            "3: layers[0].paint.line-width.base: number expected, string found",
            "3: layers[0].paint.line-width.stops[1][0]: stop domain values must appear in ascending order",
            "3: layers[0].paint.line-width.stops[2][0]: string stop domain type must match previous stop domain type number",
            "3: layers[0].paint.line-width.stops[3]: array length 2 expected, length 1 found",
            "4: layers[0].paint.line-color: \"property\" property is required",
            "4: layers[0].paint.line-color.stops[0][0]: integer expected, found 1.5",
            "4: layers[0].paint.line-color.stops[1][1]: color expected, \"nope\" found",
            "5: layers[0].paint.line-opacity: missing required property \"property\"",
            "6: layers[0].paint.line-blur.stops[0][1]: expressions are not allowed in function stops.",
        ])
    }

    @Test func checksLegacyFilters() {
        let diagnostics = check("""
        {"version": 8, "sources": {"v": {"type": "vector", "url": "u"}}, "layers": [
          {"id": "a", "type": "fill", "source": "v", "source-layer": "l", "filter": ["all", ["==", 1, "x"], ["in", "$type", "Circle"], ["has"]]},
          {"id": "b", "type": "fill", "source": "v", "source-layer": "l", "filter": [">", "$type", "Point"]},
          {"id": "c", "type": "fill", "source": "v", "source-layer": "l", "filter": ["==", ["get", "x"], 1]}
        ]}
        """)
        #expect(diagnostics == [
            "2: layers[0].filter[1][1]: string expected, number found",
            "2: layers[0].filter[2][2]: expected one of [Point, LineString, Polygon], \"Circle\" found",
            "2: layers[0].filter[3]: filter array for \"has\" operator must have 2 elements",
            "3: layers[1].filter: \"$type\" cannot be use with operator \">\"",
        ])
        #expect(StyleFilter.isExpressionFilter(.array([.string("=="), .array([.string("get"), .string("x")]), .number(1)])))
        #expect(!StyleFilter.isExpressionFilter(.array([.string("=="), .string("x"), .number(1)])))
    }

    @Test func reportsSyntaxErrorsAsTheReferenceReaderDoes() {
        // The line is that of the last token read; the window shows 20 characters either side.
        #expect(check("{\n  \"version\": 8,\n  \"sources\": {}\n  \"layers\": []\n}") == [
            "3: Parse error on line 3:\n...,  \"sources\": {}  \"layers\": []}\n---------------------^\nExpecting 'EOF', '}', ',', ']', got 'STRING'",
        ])
        #expect(check("{\"a\": 1,}") == ["1: Parse error on line 1:\n{\"a\": 1,}\n--------^\nExpecting 'STRING', got '}'"])
        #expect(check("{\"a\" 1}") == ["1: Parse error on line 1:\n{\"a\" 1}\n-----^\nExpecting 'EOF', '}', ':', ',', ']', got 'NUMBER'"])
        #expect(check("[1 }").first?.hasSuffix("Expecting ',', ']', got '}'") == true)
        #expect(check("{\"a\": 01}").first?.hasSuffix("got 'INVALID'") == true)
        #expect(check("").first == "1: Parse error on line 1:\n\n^\nExpecting 'STRING', 'NUMBER', 'NULL', 'TRUE', 'FALSE', '{', '[', got 'EOF'")
        #expect(JSONLintSyntaxError.describe(Array("{\"a\": [1, 2.5e-3, true, null, \"\\u00e9\"]}".utf8)) == nil)
    }

    /// A style with one fill layer (line 3) whose paint and filter are given, and a clustered source.
    private func fill(paint: String = "{}", filter: String? = nil, layout: String = "{}") -> [String] {
        check("""
        {"version": 8, "sources": {"v": {"type": "vector", "url": "u"}},
         "layers": [
          {"id": "f", "type": "fill", "source": "v", "source-layer": "l", \(filter.map { "\"filter\": \($0), " } ?? "")"layout": \(layout), "paint": \(paint)}
         ]}
        """)
    }

    @Test func typeChecksExpressionsInProperties() {
        #expect(fill(paint: #"{"fill-color": ["interpolate", ["linear"], ["zoom"], 5, "red", 10, ["get", "c"]], "fill-opacity": ["get", "o"]}"#).isEmpty)
        #expect(fill(paint: #"{"fill-color": ["+", 1, 2]}"#) == ["3: layers[0].paint.fill-color: Expected color but found number instead."])
        #expect(fill(paint: #"{"fill-color": ["case", ["get", "a"], "red", 5]}"#) == ["3: layers[0].paint.fill-color[3]: Expected color but found number instead."])
        #expect(fill(paint: #"{"fill-opacity": ["*", ["zoom"], 2]}"#)
            == ["3: layers[0].paint.fill-opacity: \"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression."])
        #expect(fill(paint: #"{"fill-antialias": ["get", "a"]}"#) == ["3: layers[0].paint.fill-antialias: data expressions not supported"])
        #expect(fill(paint: #"{"fill-color": ["to-color", "reddish"]}"#) == ["3: layers[0].paint.fill-color: Could not parse color from value 'reddish'"])
        #expect(fill(paint: #"{"fill-opacity": ["at", 3, ["literal", [1, 2]]]}"#) == ["3: layers[0].paint.fill-opacity: Array index out of bounds: 3 > 1."])
        #expect(fill(paint: #"{"fill-color": ["rgb", 300, 0, 0]}"#)
            == ["3: layers[0].paint.fill-color: Invalid rgba value [300, 0, 0, 1]: 'r', 'g', and 'b' must be between 0 and 255."])
        #expect(fill(paint: #"{"fill-opacity": ["-", "a", "b", "c"]}"#)
            == ["3: layers[0].paint.fill-opacity: Expected arguments of type (number, number) | (number), but found (string, string, string) instead."])
        #expect(fill(paint: #"{"fill-opacity": ["let", "x", 1, ["var", "y"]]}"#)
            == ["3: layers[0].paint.fill-opacity[3][1]: Unknown variable \"y\". Make sure \"y\" has been bound in an enclosing \"let\" expression before using it."])
        #expect(fill(layout: #"{"fill-sort-key": ["feature-state", "k"]}"#)
            == ["3: layers[0].layout.fill-sort-key: \"feature-state\" data expressions are not supported with layout properties."])
    }

    @Test func checksExpressionFilters() {
        #expect(fill(filter: #"["all", ["==", ["get", "class"], "park"], [">", ["zoom"], 5]]"#).isEmpty)
        #expect(fill(filter: #"["==", ["get", "a"], 1, 2, 3]"#) == ["3: layers[0].filter: Expected two or three arguments."])
        #expect(fill(filter: #"["==", ["get", "a"], ["to-rgba", "red"]]"#)
            == ["3: layers[0].filter[2]: \"==\" comparisons are not supported for type 'array<number, 4>'."])
        #expect(fill(filter: #"["==", ["feature-state", "a"], 1]"#) == ["3: layers[0].filter: \"feature-state\" data expressions are not supported with filters."])
    }

    @Test func checksLegacyTokensTextFontAndClusterProperties() {
        #expect(fill(paint: #"{"fill-opacity": "{opacity}"}"#) == [
            "3: layers[0].paint.fill-opacity: \"fill-opacity\" does not support interpolation syntax\nUse an identity property function instead: `{ \"type\": \"identity\", \"property\": \"opacity\" }`.",
        ])
        let symbol = check("""
        {"version": 8, "glyphs": "g/{fontstack}/{range}", "sources": {"v": {"type": "vector", "url": "u"}},
         "layers": [{"id": "s", "type": "symbol", "source": "v", "source-layer": "l",
                     "layout": {"text-field": "x", "text-font": ["get", "font"]}},
                    {"id": "t", "type": "symbol", "source": "v", "source-layer": "l",
                     "layout": {"text-field": "x", "text-font": ["step", ["zoom"], ["literal", ["A"]], 5, ["literal", ["B"]]]}}]}
        """)
        #expect(symbol == ["3: layers[0].layout.text-font: Invalid data expression for \"text-font\". Output values must be contained as literals within the expression."])
        let cluster = check("""
        {"version": 8, "sources": {"g": {"type": "geojson", "data": "d.geojson", "cluster": true,
          "clusterProperties": {"sum": ["+", ["get", "n"]], "bad": ["max", ["zoom"]]}}},
         "layers": []}
        """)
        #expect(cluster == ["2: sources.g.bad.map: \"zoom\" and \"feature-state\" expressions are not supported with cluster properties."])
    }

    @Test func recognizesCSSColors() {
        // Out-of-range components are clamped, not refused, as gl-style-validate 24.8.0 clamps them.
        for color in ["#fff", "#ffff", "#a0b1c2", "#a0b1c2ff", "rgb(0, 128, 255)", "rgba(0,0,0,0.5)", "hsl(120, 50%, 50%)", "hsla(0, 0%, 0%, 1)", "Red",
                      "transparent", "rgb(255 0 0 / 50%)", "rgb(300, 0, 0)", "rgba(0,0,0,2)", "hsl(1, 200%, 5%)"] {
            #expect(CSSColor.isColor(color), "\(color)")
        }
        for bad in ["", "#ff", "#gggggg", "rgb(255, 0 0)", "rgb(10%, 0, 0)", "hsl(1, 2, 3)", "valueOf", "__proto__", "not a color", "#12345", "#ffg", " ", "#"] {
            #expect(!CSSColor.isColor(bad), "\(bad)")
        }
    }

    @Test func readsAColorsChannelsWhetherWrittenTrimmedAndInLowerCaseOrNot() throws {
        let cases: [(String, [Double])] = [
            ("#fff", [255, 255, 255, 255]),
            ("#0a0b0c", [10, 11, 12, 255]),
            ("#1234", [0x11, 0x22, 0x33, 0x44]),
            ("#a0b1c2d3", [0xA0, 0xB1, 0xC2, 0xD3]),
            ("  #ABC\t", [0xAA, 0xBB, 0xCC, 255]),
            ("#A0B1C2", [0xA0, 0xB1, 0xC2, 255]),
            ("Red", [255, 0, 0, 255]),
            (" transparent ", [0, 0, 0, 0]),
            ("rgb(0, 51, 255)", [0, 51, 255, 255]),
            ("RGBA(0, 51, 255, 0.2)", [0, 51, 255, 51]),
            ("hsl(0, 100%, 50%)", [255, 0, 0, 255]),
        ]
        for (text, expected) in cases {
            let color = try #require(CSSColor.parse(text), "\(text)")
            #expect([color.red, color.green, color.blue, color.alpha].map { ($0 * 255).rounded() } == expected, "\(text)")
        }
    }
}

/// The validator never crashes or hangs: thousands of seeded mutations of a real style.
@Suite("StyleValidator.Robustness")
struct StyleValidatorRobustnessTests {
    @Test func mutatedAndRandomStylesGiveDiagnosticsOrPass() throws {
        let sample = Array(try SampleStyleText.json().utf8)
        var random = SplitMix64(seed: 99)
        let tokens = ["null", "[]", "{}", "-1", "1e308", "\"#zz\"", "[\"get\"]", "true", "{\"stops\": []}", "\"\\u0000\""]
        var invalid = 0
        for round in 0..<3_000 {
            var bytes = sample
            switch random.next() % 3 {
            case 0:
                for _ in 0...(random.next() % 5) { bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next()) }
            case 1:
                let token = Array(tokens[Int(random.next() % UInt64(tokens.count))].utf8)
                let at = Int(random.next() % UInt64(bytes.count))
                bytes.replaceSubrange(at..<min(bytes.count, at + token.count), with: token)
            default:
                let alphabet = Array("{}[]\",:0123456789abc truefalsenull".utf8)
                bytes = (0..<Int(random.next() % 200)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            }
            let diagnostics = StyleValidator.validate(bytes)
            if !diagnostics.isEmpty { invalid += 1 }
            #expect(diagnostics.allSatisfy { !$0.message.isEmpty }, "round \(round)")
        }
        #expect(invalid > 1_000)
    }

    /// Random expression trees of every operator, with random arguments, on properties of every type.
    @Test func randomExpressionsGiveDiagnosticsOrPass() {
        let operators = ["let", "var", "literal", "array", "at", "in", "index-of", "slice", "case", "match", "coalesce", "step",
                         "interpolate", "interpolate-hcl", "typeof", "string", "number", "boolean", "object", "collator", "format",
                         "image", "number-format", "to-string", "to-number", "to-boolean", "to-rgba", "to-color", "rgb", "rgba",
                         "get", "has", "length", "properties", "feature-state", "geometry-type", "id", "zoom", "+", "*", "-", "/",
                         "%", "^", "sqrt", "min", "max", "round", "==", "!=", ">", "<", "all", "any", "!", "within", "distance",
                         "concat", "split", "join", "global-state", "upcase", "error", "filter-==", "filter-in-small"]
        let leaves = ["0", "1", "-2.5", "300", "\"red\"", "\"x\"", "\"\"", "true", "null", "[]", "{}", "[\"linear\"]",
                      "{\"type\": \"Polygon\"}", "[\"exponential\", 2]", "{\"font-scale\": 1}"]
        var random = SplitMix64(seed: 7)
        func expression(_ depth: Int) -> String {
            if depth == 0 || random.next() % 4 == 0 { return leaves[Int(random.next() % UInt64(leaves.count))] }
            let op = operators[Int(random.next() % UInt64(operators.count))]
            let arguments = (0..<Int(random.next() % 6)).map { _ in expression(depth - 1) }
            return "[\"\(op)\"\(arguments.map { ", " + $0 }.joined())]"
        }
        var reported = 0
        for _ in 0..<3_000 {
            let style = """
            {"version": 8, "glyphs": "g/{fontstack}/{range}", "sources": {"v": {"type": "vector", "url": "u"},
              "g": {"type": "geojson", "data": "d", "cluster": true, "clusterProperties": {"p": [\(expression(2)), \(expression(3))]}}},
             "layers": [{"id": "s", "type": "symbol", "source": "v", "source-layer": "l", "filter": \(expression(4)),
               "layout": {"text-field": \(expression(4)), "text-font": \(expression(3)), "icon-image": \(expression(3))},
               "paint": {"text-color": \(expression(4)), "text-opacity": \(expression(4)), "text-translate": \(expression(3))}}]}
            """
            let diagnostics = StyleValidator.validate(Array(style.utf8))
            #expect(diagnostics.allSatisfy { !$0.message.isEmpty && $0.message.hasPrefix("layers[0]") || $0.message.hasPrefix("sources.g.p") })
            reported += diagnostics.isEmpty ? 0 : 1
        }
        #expect(reported > 2_000)
    }
}

/// The sample style's text, for validator tests.
enum SampleStyleText {
    static func json() throws -> String {
        try String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("styles/sample/style.json").path, encoding: .utf8)
    }
}
