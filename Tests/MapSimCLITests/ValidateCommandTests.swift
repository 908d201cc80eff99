import ArgumentParser
import Foundation
import Testing
@testable import MapSimCLI
import MapSimJSON
import MapSimTesting
@testable import MapSim
@testable import MapSimStyle

@Suite("mapsim validate")
struct ValidateCommandTests {
    @Test func validStylesPrintNothingAndExitZero() async throws {
        let result = try await CommandRunner.run(["validate", "styles/sample/style.json", "styles/failing/missing-icon.json"])
        #expect(result.status == 0 && result.standardOutput.isEmpty)
    }

    @Test func reportsEachFileUnderItsNameAndAsJSON() async throws {
        let fixture = try FixtureDirectory()
        let bad = try fixture.write("bad.json", "{\n  \"version\": 8,\n  \"pitch\": \"steep\",\n  \"sources\": {},\n  \"layers\": []\n}\n")
        let text = try await CommandRunner.run(["validate", bad, "styles/sample/style.json"])
        #expect(text.status == 1)
        #expect(text.standardOutput == "\(bad):3: pitch: number expected, string found\n")
        // As gl-style-validate writes it: JSON.stringify(errors, null, 2).
        let json = try await CommandRunner.run(["validate", "--json", bad])
        #expect(json.standardOutput == "[\n  {\n    \"message\": \"pitch: number expected, string found\",\n    \"line\": 3\n  }\n]\n")
        // A plain call is answered before the argument parser runs; with any other option it goes
        // through the parser, and the output is the same.
        let parsed = try await CommandRunner.run(["validate", "--json", bad, "--no-cache"])
        #expect(parsed.standardOutput == json.standardOutput && parsed.status == json.status)
        let plainText = try await CommandRunner.run(["validate", bad, "styles/sample/style.json", "--seed", "1"])
        #expect(plainText.standardOutput == text.standardOutput && plainText.status == text.status)
        let unreadable = try await CommandRunner.run(["validate", fixture.path + "/none.json"])
        #expect(unreadable.status == 2 && unreadable.standardError.contains("cannot read"))
    }

    /// `--engine mapbox` checks Mapbox's current specification (the Maps SDK v11's), which has the
    /// clip layer; `--engine mapbox-gl-js` checks Mapbox GL JS 3.0.1's, which has not.
    @Test func mapboxEnginesCheckTheirOwnSpecification() async throws {
        let fixture = try FixtureDirectory()
        let clip = try fixture.write("clip.json", """
            {
              "version": 8,
              "sources": {"v": {"type": "vector", "url": "mapbox://mapbox.mapbox-streets-v8"}},
              "layers": [{"id": "c", "type": "clip", "source": "v", "source-layer": "l", "layout": {"clip-layer-types": ["fill"]}}]
            }
            """)
        let current = try await CommandRunner.run(["validate", "--engine", "mapbox", clip])
        #expect(current.status == 1)
        #expect(current.standardOutput == "\(clip):4: layers[0].layout.clip-layer-types[0]: expected one of [model, symbol], \"fill\" found\n")
        let glJS = try await CommandRunner.run(["validate", "--engine", "mapbox-gl-js", clip])
        #expect(glJS.status == 1)
        #expect(glJS.standardOutput.hasPrefix("\(clip):4: layers[0].type: expected one of [fill, line, symbol, circle, heatmap, fill-extrusion, raster, hillshade, model, background, sky, slot], \"clip\" found\n"))
    }

    @Test func deepValidationReportsWhatDoesNotResolve() async throws {
        let icon = try await CommandRunner.run(["validate", "--deep", "--no-cache", "styles/failing/missing-icon.json"])
        #expect(icon.status == 1)
        #expect(icon.standardOutput == "styles/failing/missing-icon.json:96: layers[6].layout.icon-image: image \"no-such-icon\" is not in the sprite\n")
        let tileJSON = try await CommandRunner.run(["validate", "--deep", "--no-cache", "styles/failing/broken-tilejson.json"])
        #expect(tileJSON.status == 1 && tileJSON.standardOutput.contains("styles/failing/broken-tilejson.json: source: source \"city\": invalid TileJSON at file://"))
        let sample = try await CommandRunner.run(["validate", "--deep", "--no-cache", "styles/sample/style.json"])
        #expect(sample.status == 0 && sample.standardOutput.isEmpty)
    }

    /// `validate --deep -` loads the style it reads as `load -` does, in the current folder; it used
    /// to check it statically only, and pass a style whose icon the sprite lacks.
    @Test func deepValidationOfStandardInputLoadsItInTheCurrentFolder() async throws {
        let folder = try FixtureDirectory()
        try FileManager.default.copyItem(atPath: SampleStyle.stylesFolder + "/failing", toPath: folder.path + "/failing")
        try FileManager.default.copyItem(atPath: SampleStyle.stylesFolder + "/sample", toPath: folder.path + "/sample")
        let bin = CommandRunner.executable.deletingLastPathComponent().path
        let icon = try await ShellRunner.run("mapsim validate --deep --no-cache - < missing-icon.json", in: folder.path + "/failing", path: bin)
        #expect(icon.status == 1 && icon.output == "-:96: layers[6].layout.icon-image: image \"no-such-icon\" is not in the sprite\n", "\(icon.output)")
        let sample = try await ShellRunner.run("mapsim validate --deep --no-cache - < style.json", in: folder.path + "/sample", path: bin)
        #expect(sample.status == 0 && sample.output.isEmpty, "\(sample.output)")
    }

    @Test func deepValidationReadsTheTiles() async throws {
        let result = try await CommandRunner.run(["validate", "--deep", "--no-cache", "styles/failing/data-mismatch.json"])
        #expect(result.status == 1)
        let file = "styles/failing/data-mismatch.json"
        #expect(result.standardOutput == """
        \(file):47: layers[3].source-layer: source layer "road" is in no tile of source "city" (loaded at zoom 10)
        \(file):69: warning: layers[4].filter[1]: no feature of source layer "roads" has the field "klass"
        \(file):96: layers[6].layout.icon-image: image "food" is not in the sprite
        \(file):96: layers[6].layout.icon-image: image "museum" is not in the sprite
        \(file):96: layers[6].layout.icon-image: image "pier" is not in the sprite

        """)
        let json = try await CommandRunner.run(["validate", "--deep", "--no-cache", "--json", file])
        #expect(json.standardOutput.contains("\"severity\": \"warning\""))
    }

    @Test func deepValidationTriesEachResourceOnceAndReportsItOnce() async throws {
        // A server that always fails with 503: the SDK's schedule would retry it without end.
        let fixture = try FixtureDirectory()
        let server = try await FixtureServer.start(serving: fixture.path)
        server.reply("/tiles.json", with: .status(503))
        let style = #"{"version": 8, "sources": {"a": {"type": "vector", "url": "http://127.0.0.1:\#(server.port)/tiles.json"}},"#
            + #" "layers": [{"id": "f", "type": "fill", "source": "a", "source-layer": "l"}]}"#
        let path = try fixture.write("style.json", style)
        let once = try await CommandRunner.run(["validate", "--deep", "--no-cache", "--engine", "maplibre-native", path])
        let twice = try await CommandRunner.run(["validate", "--deep", "--no-cache", "--engine", "maplibre-native", "--retries", "2", path])
        await server.stop()
        #expect(once.status == 1 && twice.status == 1)
        let lines = once.standardOutput.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.contains("source: failed to load source \"a\"") == true, "\(once.standardOutput)")
        #expect(twice.standardOutput.split(separator: "\n").count == 1, "a retried failure is still reported once")
        #expect(server.received.filter { $0.path == "/tiles.json" }.count == 1 + 3, "one try, then one plus two retries")
    }

    @Test func deepValidationReadsAnEmptyIconImageAsNoIcon() async throws {
        let fixture = try sampleFolderCopy()
        let path = fixture.path + "/sample/style.json"
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: #""icon-image": "park""#, with: #""icon-image": """#)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await CommandRunner.run(["validate", "--deep", "--no-cache", path])
        #expect(result.status == 0 && result.standardOutput.isEmpty, "\(result.standardOutput)")
    }

    @Test func aStyleGivenByURLIsReadOverTheNetworkAndNamedByItsURL() async throws {
        let fixture = try sampleFolderCopy()
        try fixture.write("bad.json", "{\n  \"version\": 8,\n  \"pitch\": \"steep\",\n  \"sources\": {},\n  \"layers\": []\n}\n")
        try FileManager.default.createDirectory(atPath: fixture.path + "/styles/v1/acme", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture.path + "/bad.json", toPath: fixture.path + "/styles/v1/acme/bad")
        let server = try await FixtureServer.start(serving: fixture.path)
        let base = "http://127.0.0.1:\(server.port)/"
        let bad = try await CommandRunner.run(["validate", base + "bad.json"])
        #expect(bad.status == 1 && bad.standardOutput == "\(base)bad.json:3: pitch: number expected, string found\n", "\(bad.standardOutput)")
        // The sample by URL, loaded --deep: its relative sprite, glyphs and tiles resolve against the URL.
        let deep = try await CommandRunner.run(["validate", "--deep", "--no-cache", "--engine", "maplibre-native", base + "sample/style.json"])
        #expect(deep.status == 0 && deep.standardOutput.isEmpty, "\(deep.standardOutput)")
        #expect(server.received.contains { $0.path.hasPrefix("/sample/tiles/") }, "the tiles were asked of the style's server")
        let missing = try await CommandRunner.run(["validate", base + "none.json"])
        #expect(missing.status == 2 && missing.standardError.contains("cannot read \(base)none.json: HTTP 404"), "\(missing.standardError)")
        // mapbox:// on the Styles API: the token is sent, never shown; none at all is refused before any request.
        let mapbox = try await CommandRunner.run(["validate", "--engine", "mapbox", "mapbox://styles/acme/bad", "--mapbox-api-url", base, "--access-token", "sk.secret"])
        #expect(mapbox.status == 1 && mapbox.standardOutput == "mapbox://styles/acme/bad:3: pitch: number expected, string found\n", "\(mapbox.standardOutput)")
        let gone = try await CommandRunner.run(["validate", "mapbox://styles/acme/none", "--mapbox-api-url", base, "--access-token", "sk.secret"])
        #expect(gone.status == 2 && gone.standardError.contains("HTTP 404") && !gone.standardError.contains("sk.secret"), "\(gone.standardError)")
        let asked = server.received.count
        let tokenless = try await CommandRunner.run(["validate", "mapbox://styles/acme/bad", "--mapbox-api-url", base, "--access-token", ""])
        #expect(tokenless.status != 0 && tokenless.standardError.contains("MAPBOX_ACCESS_TOKEN") && server.received.count == asked)
        await server.stop()
    }

    @Test func severalFilesAsJSONLinesOneObjectEachWithItsName() async throws {
        let result = try await CommandRunner.run(["validate", "--format", "jsonl", "styles/sample/style.json", "styles/failing/malformed.json", "/nonexistent.json"])
        #expect(result.status == 2)
        let objects = try result.standardOutput.split(separator: "\n").map { try JSONParser.parse(String($0)) }
        #expect(objects.map { $0["file"]?.stringValue } == ["styles/sample/style.json", "styles/failing/malformed.json", "/nonexistent.json"])
        #expect(objects[0]["diagnostics"] == .array([]))
        #expect(objects[1]["diagnostics"]?.arrayValue?.first?["line"] == .number(6))
        #expect(objects[2]["error"] == .string("cannot read /nonexistent.json: there is no such file"))
    }

    @Test func helpExamplesAreWholeCommandsThatFitTheScreen() async throws {
        // Every command and subcommand.
        func paths(_ command: ParsableCommand.Type, _ prefix: [String]) -> [[String]] {
            [prefix] + command.configuration.subcommands.flatMap { paths($0, prefix + [$0._commandName]) }
        }
        for command in paths(MapSimCommand.self, []) {
            let help = try await CommandRunner.run(command + ["--help"], environment: ["COLUMNS": "80"]).standardOutput
            let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let start = lines.firstIndex(of: "Examples:") else { continue }
            for (index, line) in lines.enumerated() where index > start && !line.isEmpty {
                if line.hasPrefix("USAGE:") { break }
                // A line the screen wrapped would start anywhere: every line is a command or goes on with one.
                let continued = lines[index - 1].hasSuffix(" \\")
                #expect(line.hasPrefix(continued ? "      " : "  mapsim "), "\(command): \(line)")
                #expect(line.count <= 80, "\(command): \(line)")
            }
        }
    }
}
