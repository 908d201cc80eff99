import Foundation
import Testing
@testable import MapSimStyle
@testable import MapSimJSON

/// The style spec's expression cases (generated into Fixtures/ by scripts/generate-expression-cases.py):
/// each must compile to the reference's type and constancy, or fail with the reference's errors.
@Suite("StyleExpressionCompiler")
struct ExpressionCompilerTests {
    private static func loadCases() throws -> [JSONValue] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/expression-cases.json")
        return try JSONParser.parse(Array(try Data(contentsOf: url))).arrayValue ?? []
    }

    /// The reference harness's defaults: a data-driven, interpolated property of zoom and feature.
    private static func propertySpec(_ given: JSONValue?) -> JSONObject {
        var spec = given?.objectValue ?? JSONObject()
        if spec["expression"] == nil {
            spec["expression"] = .object(JSONObject([("interpolated", .bool(true)), ("parameters", .array([.string("zoom"), .string("feature")]))]))
        }
        if spec["property-type"] == nil { spec["property-type"] = .string("data-driven") }
        return spec
    }

    /// What the compiler gives for one case, in the fixture's form.
    private static func outcome(_ testCase: JSONValue) -> JSONValue {
        switch StyleExpressionCompiler.compileProperty(testCase["expression"] ?? .null, spec: propertySpec(testCase["propertySpec"])) {
        case .success(let compiled):
            return .object(JSONObject([
                ("isFeatureConstant", .bool(compiled.isFeatureConstant)), ("isZoomConstant", .bool(compiled.isZoomConstant)),
                ("result", .string("success")), ("type", .string(compiled.expression.type.description)),
            ]))
        case .failure(let failure):
            let errors = failure.errors.map { JSONValue.object(JSONObject([("error", .string($0.message)), ("key", .string($0.key))])) }
            return .object(JSONObject([("errors", .array(errors)), ("result", .string("error"))]))
        }
    }

    /// The expected outcome with its members in the same order as `outcome` writes them.
    private static func normalized(_ expected: JSONValue?) -> JSONValue {
        guard let object = expected?.objectValue else { return .null }
        let sorted = object.members.sorted { $0.key < $1.key }.map { member -> (String, JSONValue) in
            guard member.key == "errors", let errors = member.value.arrayValue else { return member }
            return (member.key, .array(errors.map { error in
                .object(JSONObject([("error", error["error"] ?? .null), ("key", error["key"] ?? .null)]))
            }))
        }
        return .object(JSONObject(sorted))
    }

    @Test func everyCaseCompilesAsTheReferenceDoes() throws {
        let cases = try Self.loadCases()
        #expect(cases.count == 504)
        var mismatches: [String] = []
        for testCase in cases {
            let expected = Self.normalized(testCase["compiled"])
            let actual = Self.outcome(testCase)
            if actual != expected {
                mismatches.append("\(testCase["name"]?.stringValue ?? "?"):\n  expected \(JSONWriter.string(expected))\n  actual   \(JSONWriter.string(actual))")
            }
        }
        if !mismatches.isEmpty {
            Issue.record("\(mismatches.count) of \(cases.count) cases differ:\n\(mismatches.joined(separator: "\n"))")
        }
    }
}
