import Testing
@testable import MapSimJSON

/// Reading a root array one element at a time: the first parse checks everything but builds only
/// summaries, and reports exactly the syntax errors a whole parse reports.
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
            #expect(try JSONParser.parse(bytes, in: range) == whole["layers"]?.arrayValue?[index])
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
    ])
    func aSyntaxErrorAnywhereIsTheOneAWholeParseReports(text: String) {
        let bytes = Array(text.utf8)
        var whole: JSONSyntaxError?
        do { _ = try JSONParser.parse(bytes) } catch { whole = error }
        #expect(whole != nil)
        #expect { try JSONParser.parse(bytes, summarizingElementsOf: "layers", keeping: ["id"]) } throws: { error in
            (error as? JSONSyntaxError) == whole
        }
    }
}
