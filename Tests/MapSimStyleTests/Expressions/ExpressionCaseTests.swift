import Foundation
import Testing
@testable import MapSimStyle
@testable import MapSimJSON

/// The style spec's 557 expression cases (generated into Fixtures/ by
/// scripts/generate-expression-cases.py), and 3,295 more that the reference (24.8.0) evaluated —
/// the upstream HEAD cases and cases at the edges of numbers, types and global state
/// (scripts/record-reference-expression-cases.py): each must compile to the reference's type and
/// constancy or fail with its errors, and evaluate on every input to the reference's output.
@Suite("Expression cases")
struct ExpressionCaseTests {
    private static func loadCases(_ file: String = "expression-cases.jsonl") throws -> [JSONValue] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/" + file)
        return try Data(contentsOf: url).split(separator: 0x0A).map { try JSONParser.parse(Array($0)) }
    }

    /// Equality as the suite's harness judges it: members in any order, numbers to 6 significant digits.
    static func matches(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number, .number):
            return ExpressionCaseRunner.stripPrecision(a) == ExpressionCaseRunner.stripPrecision(b)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy(matches)
        case (.object(let x), .object(let y)):
            return x.members.count == y.members.count && x.members.allSatisfy { member in y[member.key].map { matches(member.value, $0) } ?? false }
        default:
            return a == b
        }
    }

    @Test func everyCaseCompilesAndEvaluatesAsTheReferenceDoes() throws {
        let cases = try Self.loadCases()
        #expect(cases.count == 557)
        Self.expectReferenceResults(cases)
    }

    @Test func upstreamAndEdgeCasesEvaluatedByTheReferenceMatch() throws {
        let cases = try Self.loadCases("reference-cases.jsonl")
        #expect(cases.count == 4_320)
        Self.expectReferenceResults(cases)
    }

    private static func expectReferenceResults(_ cases: [JSONValue]) {
        var compileMismatches: [String] = []
        var outputMismatches: [String] = []
        for testCase in cases {
            let name = testCase["name"]?.stringValue ?? "?"
            let expected = testCase["expected"] ?? .null
            let actual = ExpressionCaseRunner.run(testCase)
            if !matches(actual["compiled"] ?? .null, expected["compiled"] ?? .null) {
                compileMismatches.append("\(name):\n  expected \(JSONWriter.string(expected["compiled"] ?? .null))\n  actual   \(JSONWriter.string(actual["compiled"] ?? .null))")
            } else if !matches(actual["outputs"] ?? .null, expected["outputs"] ?? .null) {
                outputMismatches.append("\(name):\n  expected \(JSONWriter.string(expected["outputs"] ?? .null))\n  actual   \(JSONWriter.string(actual["outputs"] ?? .null))")
            }
        }
        #expect(compileMismatches.isEmpty, "\(compileMismatches.count) of \(cases.count) cases compile differently:\n\(compileMismatches.joined(separator: "\n"))")
        #expect(outputMismatches.isEmpty, "\(outputMismatches.count) of \(cases.count) cases evaluate differently:\n\(outputMismatches.joined(separator: "\n"))")
    }

    @Test func theComparisonTellsDifferentOutputsApart() {
        #expect(Self.matches(.number(0.1234564), .number(0.1234567)))
        #expect(!Self.matches(.number(0.123456), .number(0.123457)))
        #expect(!Self.matches(.array([.number(1)]), .array([.number(1), .number(2)])))
        #expect(!Self.matches(.object(JSONObject([("a", .null)])), .object(JSONObject([("b", .null)]))))
    }
}
