import Foundation
import Testing
import MapSimJSON
@testable import MapSimStyle

/// The order gl-style-validate gives its errors comes from V8's sort with a comparator that is NaN
/// for an error with no line: recorded from node (`Fixtures/javascript-sort.json`), reproduced here.
@Suite("JavaScriptArraySort")
struct JavaScriptArraySortTests {
    @Test func ordersAsNodeDoesEvenWhenTheComparatorIsNaN() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/javascript-sort.json").path
        let document = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let cases = try #require(document["cases"]?.arrayValue)
        #expect(cases.count == 220)
        var withMerges = 0
        var differing: [Int] = []
        for (number, entry) in cases.enumerated() {
            let lines = (entry["lines"]?.arrayValue ?? []).map(\.numberValue)
            let expected = (entry["order"]?.arrayValue ?? []).compactMap(\.numberValue).map(Int.init)
            var items = Array(lines.enumerated())
            JavaScriptArraySort.sort(&items) { ($0.element ?? .nan) - ($1.element ?? .nan) }
            if items.map(\.offset) != expected { differing.append(number) }
            if lines.count >= 64 { withMerges += 1 }
        }
        #expect(differing.isEmpty, "cases ordered otherwise than node: \(differing)")
        #expect(withMerges == 60, "long arrays take TimSort's merges and gallops")
    }
}
