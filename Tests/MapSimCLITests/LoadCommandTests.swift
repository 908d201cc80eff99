import Foundation
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimJSON
@testable import MapSimStyle

@Suite("mapsim load")
struct LoadCommandTests {
    @Test func loadsTheSampleStyleToIdle() async throws {
        let result = try await CommandRunner.run(["load", "styles/sample/style.json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("map-idle       at 333.333 ms"))
        #expect(result.standardOutput.contains("style-data-loaded"))
        #expect(result.standardOutput.contains("errors         none"))
        #expect(!result.standardOutput.contains("\u{1B}["), "no colours when not on a terminal")
        #expect(result.standardError.isEmpty)
    }

    @Test func writesByteIdenticalEventFilesRunAfterRun() async throws {
        let fixture = try FixtureDirectory()
        for name in ["a", "b"] {
            let result = try await CommandRunner.run(["load", "styles/sample/style.json", "--size", "1920x1080", "--quiet", "--events", fixture.path + "/\(name).jsonl"])
            #expect(result.status == 0)
        }
        let a = try Data(contentsOf: URL(fileURLWithPath: fixture.path + "/a.jsonl"))
        let b = try Data(contentsOf: URL(fileURLWithPath: fixture.path + "/b.jsonl"))
        #expect(a == b && !a.isEmpty)
        let lines = String(decoding: a, as: UTF8.self).split(separator: "\n")
        for line in lines {
            let object = try #require(JSONParser.parse(String(line)).objectValue)
            #expect(object.keys == ["type", "begin", "end", "data"])
            #expect(MapEventType(rawValue: object["type"]?.stringValue ?? "") != nil)
        }
        #expect(lines.last?.contains("\"type\":\"map-idle\"") == true)
    }

    @Test func aStyleOnStandardInputLoadsAsItsJSONWithItsURLsInTheCurrentFolder() async throws {
        let fixture = try FixtureDirectory()
        try FileManager.default.copyItem(atPath: SampleStyle.stylesFolder + "/sample", toPath: fixture.path + "/sample")
        let folder = fixture.path + "/sample"
        let bin = CommandRunner.executable.deletingLastPathComponent().path
        let piped = try await ShellRunner.run("mapsim load - --no-cache --quiet --events - < style.json", in: folder, path: bin)
        let file = try await CommandRunner.run(["load", "style.json", "--no-cache", "--quiet", "--events", "-"], in: folder)
        #expect(piped.status == 0 && file.status == 0, "\(piped.output)")
        // The same events as the file's load but its style request: the map is given the JSON, as
        // setStyleJSON gives it, and its sprite, glyphs and tiles are the files beside it.
        let fileEvents = file.standardOutput.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(fileEvents.first?.contains(#""kind":"style""#) == true)
        #expect(Array(piped.output.split(separator: "\n").filter { $0.hasPrefix("{") }) == Array(fileEvents.dropFirst()), "\(piped.output.prefix(2_000))")
        #expect(fileEvents.filter { $0.contains(#""type":"resource-request""#) }.count > 5)
        // Its critical path names the files by their paths below the folder, as the file's does.
        #expect(piped.output.contains("\n  source       tiles.json ") && file.standardOutput.contains("\n  source       tiles.json "), "\(piped.output)")

        let broken = try await ShellRunner.run("echo '{\"version\": 8,' | mapsim load -", in: folder, path: bin)
        #expect(broken.status == 1 && broken.output.contains("failed to parse the style JSON: the style is not valid JSON: line 2"), "\(broken.output)")
        let directory = try await ShellRunner.run("mapsim load - < .", in: folder, path: bin)
        #expect(directory.status == 2 && directory.output.contains("mapsim: cannot read standard input: it is a directory"), "\(directory.output)")
    }

    /// `mapsim … | head`: once the reader has gone, the next write ends the process as SIGPIPE's
    /// default action does, without a word, whether or not the network has started (SwiftNIO
    /// ignores SIGPIPE for the whole process, which made these exit 74 saying "Broken pipe").
    @Test func aClosedPipeEndsTheProcessAsSIGPIPEDoesWhetherOrNotTheNetworkStarted() async throws {
        let server = try await FixtureServer.start(serving: SampleStyle.folder)
        defer { Task { await server.stop() } }
        let fixture = try FixtureDirectory()
        let style = server.baseURL + "/style.json"
        let runs = [
            ["load", "styles/sample/style.json"],
            ["load", style, "--no-cache"],
            ["load", style, "--no-cache", "--quiet", "--events", "-"],
            ["region", "download", style, "--bounds", "-122.62,37.70,-122.28,37.90", "--min-zoom", "0", "--max-zoom", "11", "--cache", fixture.path + "/r.db", "--events", "-", "-q"],
        ]
        for arguments in runs {
            let result = try await CommandRunner.run(arguments, readerGone: true)
            #expect(result.signal == SIGPIPE && result.standardError.isEmpty, "\(arguments): \(result.status) \(result.standardError)")
        }
    }

    @Test func stopsAtTheRequestedState() async throws {
        let result = try await CommandRunner.run(["load", "styles/sample/style.json", "--until", "style-loaded", "--quiet"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("map-loaded     not reached"))
    }

    @Test func aBrokenStyleExitsOneWithTheReason() async throws {
        let result = try await CommandRunner.run(["load", "styles/failing/malformed.json", "--quiet"])
        #expect(result.status == 1)
        let reason = result.standardError.split(separator: "\n")
        #expect(reason.count == 1)
        #expect(reason.first?.contains("line 7, column 3: expected ',' or '}' in an object") == true)
        let missing = try await CommandRunner.run(["load", "no/such/style.json", "-q"])
        #expect(missing.status == 1 && missing.standardError.contains("no file at"))
    }

    @Test func aStyleThatNeverLoadsExitsTwoAfterTheTimeout() async throws {
        let result = try await CommandRunner.run(["load", "styles/failing/broken-tilejson.json", "--quiet", "--timeout", "5"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("map-idle never reached: source \"city\" failed to load, and maplibre-native waits for every source"))
        #expect(result.standardError.contains("invalid TileJSON"))
        // GL JS reports the source and goes idle without it.
        let browser = try await CommandRunner.run(["load", "styles/failing/broken-tilejson.json", "--quiet", "--engine", "maplibre-gl-js"])
        #expect(browser.status == 0 && browser.standardOutput.contains("invalid TileJSON"), "\(browser.standardOutput)\(browser.standardError)")
    }

    @Test func nonFatalProblemsStillReachIdle() async throws {
        let sprite = try await CommandRunner.run(["load", "styles/failing/missing-sprite.json", "--quiet"])
        #expect(sprite.status == 0 && sprite.standardOutput.contains("sprite: failed to load the sprite JSON"))
        let icon = try await CommandRunner.run(["load", "styles/failing/missing-icon.json", "--quiet"])
        #expect(icon.status == 0 && icon.standardOutput.contains("style-image-missing: no-such-icon"))
    }

    @Test(arguments: [["--zoom", "40"], ["--size", "10"], ["--pitch", "70"], ["--center", "200,0"], ["--until", "idle"], ["--pixel-ratio", "0"],
                      ["--pitch", "86", "--max-pitch", "85"], ["--max-pitch", "90"]])
    func badArgumentsExitWithUsageErrors(arguments: [String]) async throws {
        let result = try await CommandRunner.run(["load", "styles/sample/style.json"] + arguments)
        #expect(result.status == 64)
        #expect(result.standardError.contains("Error:"))
    }

    @Test func aPitchAboveSixtyNeedsMaxPitchAndChangesGLJSsCover() async throws {
        let refused = try await CommandRunner.run(["load", "styles/sample/style.json", "--pitch", "75"])
        #expect(refused.status == 64)
        #expect(refused.standardError.contains("--pitch must be between 0 and 60 degrees (--max-pitch), not 75 (--max-pitch 75 allows it)"), "\(refused.standardError)")
        var tiles: [Int] = []
        for pitch in ["60", "80"] {
            let result = try await CommandRunner.run(["load", "styles/features/terrain/style.json", "--engine", "maplibre-gl-js", "--center", "8.54,47.37",
                                                      "--zoom", "11.5", "--pitch", pitch, "--max-pitch", "85", "--quiet"])
            #expect(result.status == 0, "\(result.standardError)")
            // The summary's line of tile requests: "  tile         67   28.1 KB (13 failed)".
            let line = result.standardOutput.components(separatedBy: "\n").first { $0.hasPrefix("  tile ") } ?? ""
            tiles.append(Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0)
        }
        #expect(tiles[0] > 0 && tiles[1] > tiles[0], "tiles asked at pitch 60 and 80: \(tiles)")
    }

    @Test func theMapboxEnginesTakePitchesUpTo85AsTheirMaxPitchDoes() async throws {
        for engine in ["mapbox", "mapbox-gl-js"] {
            let steep = try await CommandRunner.run(["load", "styles/sample/style.json", "--engine", engine, "--pitch", "75", "--quiet"])
            #expect(steep.status == 0, "\(engine): \(steep.standardError)")
            let lowered = try await CommandRunner.run(["load", "styles/sample/style.json", "--engine", engine, "--pitch", "75", "--max-pitch", "60"])
            #expect(lowered.status == 64 && lowered.standardError.contains("--pitch must be between 0 and 60 degrees"), "\(engine): \(lowered.standardError)")
        }
    }

    @Test func helpTeachesUsage() async throws {
        let result = try await CommandRunner.run(["load", "--help"])
        #expect(result.status == 0)
        for text in ["Exit status", "--events", "--until", "Examples:"] { #expect(result.standardOutput.contains(text)) }
    }
}

@Suite("mapsim tiles")
struct TilesCommandTests {
    @Test func printsTheReferenceCover() async throws {
        let result = try await CommandRunner.run(["tiles", "--center", "-122.5,37.8", "--zoom", "10", "--size", "512x512"])
        #expect(result.status == 0)
        #expect(result.standardOutput == "10/163/395\n10/163/396\n10/164/395\n10/164/396\n")
    }

    @Test func handlesSmallRasterTilesAndTheAntimeridian() async throws {
        let raster = try await CommandRunner.run(["tiles", "--center", "-122.5,37.8", "--zoom", "10.6", "--tile-size", "256", "--source-type", "raster"])
        #expect(raster.standardOutput.hasPrefix("12/"))
        let wrapped = try await CommandRunner.run(["tiles", "--center", "180,0", "--zoom", "2"])
        #expect(wrapped.standardOutput == "2/3/1\n2/3/2\n2/0/1\n2/0/2\n")
    }

    @Test func negativeNumbersNeedNoEqualsSignAndOutOfRangeValuesNameTheRange() async throws {
        let negative = try await CommandRunner.run(["load", "styles/sample/style.json", "--center", "-122.4,37.8", "--bearing", "-30", "--quiet"])
        #expect(negative.status == 0, "\(negative.standardError)")
        let tooFar = try await CommandRunner.run(["load", "styles/sample/style.json", "--zoom", "99"])
        #expect(tooFar.status == 64 && tooFar.standardError.contains("--zoom must be between 0 and 25.5"))
    }

    @Test func aStyleCameraOutOfRangeLoadsWithAWarning() async throws {
        let fixture = try sampleFolderCopy()
        let path = fixture.path + "/sample/style.json"
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(of: #""zoom": 10"#, with: #""zoom": 1000"#)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await CommandRunner.run(["load", path, "--quiet"])
        #expect(result.status == 0)
        #expect(result.standardError.contains("warning: the style's zoom: 1000.0 is outside 0...25.5; the map clamps it"), "\(result.standardError)")
    }

    @Test func aSymbolicLinkLoopIsNamedAsOne() async throws {
        let folder = try FixtureDirectory()
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/a.json", withDestinationPath: folder.path + "/b.json")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/b.json", withDestinationPath: folder.path + "/a.json")
        let result = try await CommandRunner.run(["load", folder.path + "/a.json", "--quiet"])
        #expect(result.status == 1 && result.standardError.contains("Too many levels of symbolic links"), "\(result.standardError)")
    }
}

/// A copy of the sample style's folder, to change.
func sampleFolderCopy() throws -> FixtureDirectory {
    let fixture = try FixtureDirectory()
    try fixture.copy(folder: SampleStyle.folder, to: "sample")
    return fixture
}
