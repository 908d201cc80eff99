import Testing
@testable import MapSimJSON

/// Reading a root array one element at a time: the first parse builds only summaries and passes
/// over what they do not keep; between it and each element's own reading, a document with a syntax
/// error is always refused, and where the first parse refuses it, with the error a whole parse reports.
@Suite("JSONParser.summaries")
struct JSONParserSummaryTests {
    private let text = #"{"version": 8, "layers": [{"id": "a", "type": "fill", "paint": {"fill-color": ["get", "c"]}}, 5, {"ref": "a", "id": "b"}], "x": [1]}"#

    @Test func keepsOnlyTheNamedMembersAndTheRangeOfEachElement() throws {
        let bytes = Array(text.utf8)
        let (value, elements) = try JSONParser.parse(bytes, summarizingElementsOf: "layers", keeping: ["id", "ref", "type"])
        let ranges = try #require(elements)
        #expect(value["layers"] == .array([.object(JSONObject([("id", .string("a")), ("type", .string("fill"))])), .number(5),
                                          .object(JSONObject([("ref", .string("a")), ("id", .string("b"))]))]))
        #expect(value["x"] == .array([.number(1)]))
        let whole = try JSONParser.parse(bytes)
        for (index, range) in ranges.enumerated() {
            #expect(try JSONParser.parseElement(bytes, in: range) == whole["layers"]?.arrayValue?[index])
        }
    }

    @Test func aRootWithoutTheArrayOrWithItTwiceHasNoElements() throws {
        #expect(try JSONParser.parse(Array(#"{"layers": 5}"#.utf8), summarizingElementsOf: "layers", keeping: []).elements == nil)
        #expect(try JSONParser.parse(Array(#"{"layers": [], "layers": []}"#.utf8), summarizingElementsOf: "layers", keeping: []).elements == nil)
        #expect(try JSONParser.parse(Array("[1]".utf8), summarizingElementsOf: "layers", keeping: []).elements == nil)
    }

    @Test(arguments: [
        #"{"layers": [{"id": "a", "paint": {"x": [1, 2,]}}]}"#,
        #"{"layers": [{"id": "a", "paint": {"x": "\q"}}]}"#,
        #"{"layers": [{"id": "a", "paint": {"x": 01}}]}"#,
        #"{"layers": [{"id": "a", "paint": {"x": 1e999}}]}"#,
        "{\"layers\": [{\"id\": \"a\", \"p\": \"\u{01}\"}]}",
        #"{"layers": [{"id": "a", "p": "\ud800"}]}"#,
        #"{"layers": [{"id": "a", "p": tru}]}"#,
        #"{"layers": [{"id": "a" "p": 1}]}"#,
        #"{"layers": [{"id": "a", "paint": {]}}]}"#,
        #"{"layers": [{"id": "a", "paint": {"x": [1}}]}"#,
        #"{"layers": [{"id": "a", "paint": {"x": "]}"}, "q": 1 2}]}"#,
        #"{"layers": [{"id": "a", "paint": {"x": [1, "]"}}]"#,
        #"{"layers": [{"id": "a", "paint": {"x": "open}]}"#,
        #"{"layers": [{"id": tru, "paint": {}}]}"#,
        #"{"layers": [{"id": "a"}, tru]}"#,
        #"{"layers": [{"id": "a"}], "x": [1,]}"#,
    ])
    func aSyntaxErrorAnywhereIsRefusedByTheSummaryOrByAnElementsReading(text: String) {
        let bytes = Array(text.utf8)
        var whole: JSONSyntaxError?
        do { _ = try JSONParser.parse(bytes) } catch { whole = error }
        #expect(whole != nil)
        do {
            let summarized = try JSONParser.parse(bytes, summarizingElementsOf: "layers", keeping: ["id"])
            let ranges = try #require(summarized.elements, "a summary without elements is the whole document, which is not JSON")
            #expect(ranges.contains { range in (try? JSONParser.parseElement(bytes, in: range)) == nil }, "an element's reading refuses it")
        } catch {
            #expect(error as? JSONSyntaxError == whole, "the summary's error is the whole parse's")
        }
    }

    @Test func anElementIsReadAtItsDepthAndMustFillItsRange() throws {
        // 509 levels inside an element's member are 512 in the document (the root, `layers`, the
        // element): the limit a whole parse has.
        let deep = String(repeating: "[", count: 509) + String(repeating: "]", count: 509)
        let tooDeep = "[" + deep + "]"
        for (inner, isAllowed) in [(deep, true), (tooDeep, false)] {
            let bytes = Array("{\"layers\": [{\"p\": \(inner)}]}".utf8)
            let wholeParses = (try? JSONParser.parse(bytes)) != nil
            #expect(wholeParses == isAllowed)
            let range = try #require(try JSONParser.parse(bytes, summarizingElementsOf: "layers", keeping: []).elements?.first)
            #expect(((try? JSONParser.parseElement(bytes, in: range)) != nil) == isAllowed)
        }
        let bytes = Array("[1 2]".utf8)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parseElement(bytes, in: 1..<4) }
        #expect(try JSONParser.parseElement(bytes, in: 1..<2) == .number(1))
    }
}
