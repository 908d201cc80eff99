import Foundation
import Testing
@testable import MapSimStyle

/// Styles checked under `--engine mapbox` (Mapbox's current specification, the Maps SDK v11's):
/// what it adds to Mapbox GL JS 3.0.1's — the clip, building and raster-particle layers, the
/// raster-array source, snow, rain, color-theme, indoor, featuresets and iconsets, appearances,
/// image and format options, `-use-theme`, config, split and at-interpolated — and the rules and
/// messages of Mapbox's current validator. Each fixture is ours; the `.output.json` beside it is
/// what Mapbox's `validateStyle` (npm mapbox-gl 3.22.0's, over the specification of
/// `MapboxCurrentStyleSpecPatch.version`) reports for it, which mapsim must give message for
/// message.
@Suite("StyleValidator.MapboxFixtures")
struct MapboxFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/mapbox").path
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".output.json") }.map { String($0.dropLast(".json".count)) }.sorted()

    static func style(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name).json")))
    }

    @Test func everyFeatureHasAFixture() {
        for name in ["layers-current", "root-current", "expressions-current", "sources-lights-current"] {
            #expect(Self.names.contains(name), "no fixture \(name)")
        }
    }

    @Test(arguments: names)
    func matchesMapbox(name: String) throws {
        let expected = try String(contentsOfFile: "\(Self.folder)/\(name).output.json", encoding: .utf8)
        #expect(StyleDiagnostic.jsonText(StyleValidator.validate(try Self.style(name), flavor: .mapbox)) == expected)
    }

    /// What the current specification has that Mapbox GL JS 3.0.1's does not: 3.0.1 refuses the
    /// layer and source types that `--engine mapbox` takes, and passes over the root properties it
    /// does not know (its validator skips unknown root keys) where the current one checks them.
    @Test func glJS301RefusesWhatTheCurrentSpecificationAdds() throws {
        let style = #"""
        {"version": 8, "snow": {"density": 2}, "rain": {"intensity": 0.5}, "color-theme": {"data": ""},
         "iconsets": {"i": {"type": "sprite", "url": "mapbox://sprites/x"}},
         "sources": {"a": {"type": "raster-array", "url": "mapbox://a"}, "v": {"type": "vector", "url": "mapbox://v"}},
         "layers": [{"id": "c", "type": "clip", "source": "v", "source-layer": "l"},
                    {"id": "b", "type": "building", "source": "v", "source-layer": "l"},
                    {"id": "p", "type": "raster-particle", "source": "a"}]}
        """#
        #expect(StyleValidator.validate(Array(style.utf8), flavor: .mapbox).map(\.message) == ["snow.density: 2 is greater than the maximum value 1"])
        let messages = StyleValidator.validate(Array(style.utf8), flavor: .mapboxGLJS).map(\.message)
        #expect(!messages.contains { $0.hasPrefix("snow") })
        #expect(messages.contains { $0.hasPrefix("sources.a.type: expected one of [") && $0.hasSuffix("\"raster-array\" found") })
        for (index, type) in ["clip", "building", "raster-particle"].enumerated() {
            #expect(messages.contains { $0.hasPrefix("layers[\(index)].type: expected one of [") && $0.hasSuffix("\"\(type)\" found") })
        }
    }

    /// Mapbox's image options (`params`, `iconset`) and a format section's options keyed by name,
    /// which 3.0.1 parses as an image's second name and its own section options.
    @Test func imageAndFormatOptionsAreTheCurrentValidators() throws {
        let diagnostics = StyleValidator.validate(try Self.style("expressions-current"), flavor: .mapbox)
        #expect(diagnostics.contains { $0.message == #"layers[1].layout.icon-image[2]: Image options "params" should be an object"# && $0.line == 31 })
        #expect(diagnostics.contains { $0.message.hasPrefix("layers[1].layout.text-field[2]['font-scale']: ") })
    }
}
