import Foundation
import Testing
import MapSimTesting
@testable import MapSimJSON

/// `--engine` on `load`, `validate --deep` and in traces; what each engine rejects.
@Suite("mapsim --engine")
struct EngineCommandTests {
    /// The sample with a glyph range whose space has no width or height, as it once shipped.
    private func sampleWithAnUnsizedGlyph() throws -> FixtureDirectory {
        let fixture = try FixtureDirectory()
        try FileManager.default.removeItem(atPath: fixture.path)
        try FileManager.default.copyItem(atPath: SampleStyle.folder, toPath: fixture.path)
        let stack = Array("Mapsim Sans Regular".utf8)
        let space: [UInt8] = [0x08, 0x20, 0x28, 0x02, 0x30, 0x04, 0x38, 0x0C]
        let letters: [UInt8] = [0x08, 0x61, 0x18, 0x00, 0x20, 0x00, 0x28, 0x02, 0x30, 0x04, 0x38, 0x0C]
        let body = [0x0A, UInt8(stack.count)] + stack + [0x1A, UInt8(space.count)] + space + [0x1A, UInt8(letters.count)] + letters
        try fixture.write("glyphs/Mapsim Sans Regular/0-255.pbf", [0x0A, UInt8(body.count)] + body)
        return fixture
    }

    @Test func aGlyphGLJSRejectsIsAGlyphsErrorOfItsEngineOnly() async throws {
        let fixture = try sampleWithAnUnsizedGlyph()
        let events = fixture.path + "/gljs.jsonl"
        let gljs = try await CommandRunner.run(["load", fixture.path + "/style.json", "--engine=maplibre-gl-js", "-q", "--timeout", "5", "--events", events])
        #expect(gljs.status == 2, "GL JS never goes idle on it: \(gljs.standardError)")
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        let errors = lines.filter { $0.contains(#""type":"map-loading-error""#) }
        #expect(errors.count == 1 && errors[0].contains(#""type":"glyphs""#) && errors[0].contains("0-255.pbf") && errors[0].contains("mismatched image size"),
                "\(errors)")
        let native = try await CommandRunner.run(["load", fixture.path + "/style.json", "--engine", "maplibre-native", "-q"])
        #expect(native.status == 0 && native.standardOutput.contains("errors         none"), "MapLibre Native skips the glyph")
        let trace = fixture.path + "/run.jsonl"
        _ = try await CommandRunner.run(["load", "styles/sample/style.json", "--engine", "mapbox", "-q", "--trace", trace])
        #expect(try String(contentsOfFile: trace, encoding: .utf8).hasPrefix(#"{"mapsim":"#) && String(contentsOfFile: trace, encoding: .utf8).contains(#""engine":"mapbox""#))
        let unknown = try await CommandRunner.run(["load", "styles/sample/style.json", "--engine", "leaflet"])
        #expect(unknown.status == 64)
    }

    @Test func validateDeepNamesWhatEachEngineRejects() async throws {
        let fixture = try sampleWithAnUnsizedGlyph()
        let every = try await CommandRunner.run(["validate", "--deep", fixture.path + "/style.json", "--no-cache"])
        #expect(every.status == 1)
        #expect(every.standardOutput.contains("maplibre-gl-js: glyphs: glyph range") && every.standardOutput.contains("glyph 32 has no width and height"), "\(every.standardOutput)")
        #expect(every.standardOutput.contains("warning: maplibre-native: glyphs") && every.standardOutput.contains("maplibre-native skips glyph 32"))
        let native = try await CommandRunner.run(["validate", "--deep", fixture.path + "/style.json", "--no-cache", "--engine", "maplibre-native"])
        #expect(native.status == 0, "a warning only: \(native.standardOutput)")
        // Values the loader refuses, which gl-style-validate lets through.
        let style = fixture.path + "/refused.json"
        try #"{"version": 8, "sources": {"a": {"type": "vector", "tiles": ["t/{z}/{x}/{y}.pbf"], "maxzoom": 1000000}}, "layers": [{"id": "a", "type": "line", "source": "a", "source-layer": "x"}]}"#
            .write(toFile: style, atomically: true, encoding: .utf8)
        #expect(try await CommandRunner.run(["validate", style]).status == 0, "plain validate stays gl-style-validate's")
        let refused = try await CommandRunner.run(["validate", "--deep", style, "--no-cache"])
        #expect(refused.status == 1 && refused.standardOutput.contains("the loader refuses sources.a.maxzoom: 1000000 is outside 0...30"), "\(refused.standardOutput)")
        // The sample as it ships loads cleanly in every engine.
        let sample = try await CommandRunner.run(["validate", "--deep", "styles/sample/style.json", "--no-cache"])
        #expect(sample.status == 0 && sample.standardOutput.isEmpty, "\(sample.standardOutput)")
    }

    /// A GeoJSON label in a range the sample's fonts lack: Mapbox GL JS 3.0.1 never goes idle on it,
    /// and `load` and `validate --deep` say why at once; MapLibre GL JS draws it locally.
    @Test func aGeoJSONLabelInAMissingRangeKeepsMapboxGLJSFromIdleAndBothCommandsSayWhy() async throws {
        let fixture = try FixtureDirectory()
        try FileManager.default.removeItem(atPath: fixture.path)
        try FileManager.default.copyItem(atPath: SampleStyle.folder, toPath: fixture.path)
        try FileManager.default.removeItem(atPath: fixture.path + "/glyphs/Mapsim Sans Regular/768-1023.pbf")
        let data = try Data(contentsOf: URL(fileURLWithPath: fixture.path + "/style.json"))
        var style = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var sources = try #require(style["sources"] as? [String: Any])
        sources["pt"] = ["type": "geojson", "data": ["type": "Point", "coordinates": [-122.42, 37.78]]]
        style["sources"] = sources
        let label: [String: Any] = ["id": "pt", "type": "symbol", "source": "pt", "layout": ["text-field": "Ωmega", "text-font": ["Mapsim Sans Regular"]]]
        style["layers"] = (style["layers"] as? [Any] ?? []) + [label]
        try JSONSerialization.data(withJSONObject: style).write(to: URL(fileURLWithPath: fixture.path + "/style.json"))
        let load = try await CommandRunner.run(["load", fixture.path + "/style.json", "--engine", "mapbox-gl-js", "-q"])
        #expect(load.status == 2 && load.standardOutput.contains("map-loaded     at"), "\(load.standardOutput)")
        #expect(load.standardError.contains(#"a glyph range the text of GeoJSON source "pt" needs could not be loaded, and mapbox-gl-js fails such tiles, then their parents, and never goes idle"#),
                "\(load.standardError)")
        let deep = try await CommandRunner.run(["validate", "--deep", fixture.path + "/style.json", "--no-cache", "--engine", "mapbox-gl-js"])
        #expect(deep.status == 1 && deep.standardOutput.contains(#"glyphs: the map never goes idle: the text of GeoJSON source "pt" needs"#)
                && deep.standardOutput.contains("768-1023.pbf"), "\(deep.standardOutput)")
        let maplibre = try await CommandRunner.run(["load", fixture.path + "/style.json", "--engine", "maplibre-gl-js", "-q"])
        #expect(maplibre.status == 0, "MapLibre GL JS draws the range locally: \(maplibre.standardError)")
    }
}
