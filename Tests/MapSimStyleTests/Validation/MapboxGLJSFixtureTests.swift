import Foundation
import Testing
@testable import MapSimStyle

/// Styles checked under `--engine mapbox-gl-js` (Mapbox GL JS 3.0.1's specification): imports,
/// schema, slots, lights, fog, camera, models, the model, sky and slot layers, Mapbox's
/// expressions, and what Mapbox refuses that MapLibre takes. Each fixture is ours; the
/// `.output.json` beside it is what Mapbox GL JS 3.0.1's `validateStyle` reports for it (run over
/// the fixture parsed with line numbers, as Mapbox's `gl-style-validate --json` parses it), which
/// mapsim must give message for message.
@Suite("StyleValidator.MapboxGLJSFixtures")
struct MapboxGLJSFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/mapbox-gl-js").path
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".output.json") }.map { String($0.dropLast(".json".count)) }.sorted()

    @Test func everyFeatureHasAFixture() {
        for name in ["standard-like", "standard-like-errors", "imports-invalid", "schema-invalid", "lights-invalid", "expressions", "layers-sources"] {
            #expect(Self.names.contains(name), "no fixture \(name)")
        }
    }

    @Test(arguments: names)
    func matchesMapbox(name: String) throws {
        let style = try Data(contentsOf: URL(fileURLWithPath: "\(Self.folder)/\(name).json"))
        let expected = try String(contentsOfFile: "\(Self.folder)/\(name).output.json", encoding: .utf8)
        #expect(StyleDiagnostic.jsonText(StyleValidator.validate(Array(style), flavor: .mapboxGLJS)) == expected)
    }

    /// 3.0.1 warns of an unknown property — of an object (an import, a GeoJSON source), a paint or
    /// layout property, a light's, the fog's or the terrain's — and loads the style; of the legacy
    /// `light`'s it errs. Its validator lists both alike (so does mapsim's `validate`).
    @Test(arguments: [StyleSpecFlavor.mapboxGLJS, .mapbox])
    func anUnknownPropertyIsAWarningExceptInTheLegacyLight(flavor: StyleSpecFlavor) {
        let style = #"""
            {"version": 8, "imports": [{"id": "a", "url": "a.json", "colour": 1}], "fog": {"hue": 1}, "light": {"glow": 1},
             "terrain": {"source": "dem", "tilt": 1}, "lights": [{"id": "sun", "type": "ambient", "beam": 1, "properties": {"warmth": 1}}],
             "sources": {"dem": {"type": "raster-dem", "tiles": ["t/{z}/{x}/{y}.png"]}, "pts": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}, "shade": 1}},
             "layers": [{"id": "h", "type": "hillshade", "source": "dem", "paint": {"hillshade-gloss": 1}, "layout": {"hillshade-fold": 1}}]}
            """#
        let diagnostics = StyleValidator.validate(Array(style.utf8), flavor: flavor)
        let unknown = diagnostics.filter { $0.message.contains("unknown property") }
        #expect(unknown.filter { !$0.engineLoadsAnyway }.map(\.message) == [#"glow: unknown property "glow""#], "\(diagnostics)")
        #expect(diagnostics.allSatisfy { !$0.isWarning })
        for name in ["colour", "hue", "tilt", "beam", "warmth", "shade", "hillshade-gloss", "hillshade-fold"] {
            #expect(unknown.contains { $0.engineLoadsAnyway && $0.message.hasSuffix("unknown property \"\(name)\"") }, "\(name): \(diagnostics)")
        }
    }

    /// A style with imports, checked for MapLibre: gl-style-validate's verdict (nothing: MapLibre's
    /// validator skips unknown root keys), then one warning that MapLibre ignores the imports.
    @Test func mapLibreSaysItIgnoresImports() throws {
        let style = try Data(contentsOf: URL(fileURLWithPath: "\(Self.folder)/standard-like.json"))
        let diagnostics = StyleValidator.validate(Array(style))
        let note = try #require(diagnostics.last)
        #expect(note.isWarning)
        #expect(note.message == StyleValidator.ignoredImportsNote)
        #expect(note.line == 5)
        #expect(diagnostics.filter { $0.message.hasPrefix("imports") }.count == 1)
    }

    @Test func mapLibreSaysNothingOfAStyleWithoutImports() {
        let style = #"{"version": 8, "sources": {}, "layers": []}"#
        #expect(StyleValidator.validate(Array(style.utf8)).isEmpty)
        #expect(StyleValidator.validate(Array(style.utf8), flavor: .mapbox).isEmpty)
        #expect(StyleValidator.validate(Array(style.utf8), flavor: .mapboxGLJS).isEmpty)
    }

    @Test func enginesPickTheirFlavor() {
        #expect(StyleSpecFlavor(engine: "mapbox") == .mapbox)
        #expect(StyleSpecFlavor(engine: "mapbox-gl-js") == .mapboxGLJS)
        #expect(StyleSpecFlavor(engine: "maplibre-native") == .maplibre)
        #expect(StyleSpecFlavor(engine: "maplibre-gl-js") == .maplibre)
        #expect(StyleSpecFlavor(engine: "tangram") == nil)
    }
}
