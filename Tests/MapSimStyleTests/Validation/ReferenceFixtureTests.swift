import Foundation
import Testing
@testable import MapSimStyle

/// The validator's own fixtures — one for each family of differences the differential fuzzer found,
/// and their neighbours — with the reference validator's output recorded beside each
/// (`scripts/record-validator-fixtures`): mapsim's `--json` must be the same text.
@Suite("StyleValidator.ReferenceFixtures")
struct ReferenceFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/reference").path
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".output.json") }.map { String($0.dropLast(".json".count)) }.sorted()

    @Test func everyFamilyHasAFixture() {
        #expect(Self.names.count >= 16)
        for family in ["layer-type-missing-or-unknown", "sprite-number", "promote-id", "duplicate-layer-ids", "order-with-and-without-lines",
                       "formatted-and-image-values", "source-type-null-or-not-object"] {
            #expect(Self.names.contains(family), "no fixture for \(family)")
        }
    }

    @Test(arguments: names)
    func matchesTheReference(name: String) throws {
        let style = try Data(contentsOf: URL(fileURLWithPath: "\(Self.folder)/\(name).json"))
        let expected = try String(contentsOfFile: "\(Self.folder)/\(name).output.json", encoding: .utf8)
        #expect(StyleDiagnostic.jsonText(StyleValidator.validate(Array(style))) == expected)
    }
}
