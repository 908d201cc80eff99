import Foundation
import Testing
import MapSimJSON
import MapSimTesting

/// Ordinary mistakes and the answers they get: said at once, naming what to do, nothing of the
/// user's touched — and the output formats as `--help` describes them.
@Suite("CLI and ordinary mistakes")
struct UserMistakeTests {
    @Test func aCommandsMistakesAndHelpAreWordedAsFromTheRoot() async throws {
        // `load` and `report` are parsed on their own for speed; what they refuse is parsed again
        // from the root, so the usage and help name `mapsim COMMAND`, and the statuses are as ever.
        let unknown = try await CommandRunner.run(["load", "styles/sample/style.json", "--bogus"])
        #expect(unknown.status == 64 && unknown.standardError.contains("Unknown option '--bogus'")
                && unknown.standardError.contains("Usage: mapsim load [<options>] <style>"), "\(unknown.standardError)")
        let invalid = try await CommandRunner.run(["load", "styles/sample/style.json", "--pixel-ratio", "0", "-q"])
        #expect(invalid.status == 64 && invalid.standardError.contains("--pixel-ratio must be above 0"), "\(invalid.standardError)")
        let help = try await CommandRunner.run(["report", "--help"])
        let helpFromRoot = try await CommandRunner.run(["help", "report"])
        #expect(help.status == 0 && help.standardOutput.contains("USAGE: mapsim report") && help.standardOutput == helpFromRoot.standardOutput)
        let missing = try await CommandRunner.run(["report"])
        #expect(missing.status == 64 && missing.standardError.contains("Usage: mapsim report"), "\(missing.standardError)")
    }

    /// Standard input where it cannot work is refused before anything is read or written: a
    /// region's style (its URL is kept, to load it again), and two readers of one input.
    @Test func standardInputWhereItCannotWorkIsAUsageError() async throws {
        let fixture = try FixtureDirectory()
        let database = fixture.path + "/region.db"
        let region = try await CommandRunner.run(["region", "download", "-", "--bounds", "0,0,1,1", "--min-zoom", "0", "--max-zoom", "1", "--cache", database])
        #expect(region.status == 64 && region.standardError.contains("it cannot come from standard input (-)"), "\(region.standardError)")
        #expect(!FileManager.default.fileExists(atPath: database), "no region of a style it could never load again")
        let recording = try fixture.write("rooms.jsonl", "")
        let both = try await CommandRunner.run(["load", "-", "--live", "rooms=-"])
        #expect(both.status == 64 && both.standardError.contains("would both read standard input"), "\(both.standardError)")
        let one = try await CommandRunner.run(["load", "styles/live/style.json", "--live", "rooms=\(recording)", "--quiet"])
        #expect(one.status == 0, "a recording from a file with a style from a file is not refused: \(one.standardError)")
    }

    @Test func versionIsTheParsersLineWhetherAskedAloneOrOfACommand() async throws {
        // `mapsim --version` alone is answered before the parser reads every command's options;
        // asked of a command, the parser answers it: the same line.
        let alone = try await CommandRunner.run(["--version"])
        let ofCommand = try await CommandRunner.run(["validate", "--version"])
        #expect(alone.status == 0 && ofCommand.status == 0 && alone.standardError.isEmpty)
        #expect(alone.standardOutput == ofCommand.standardOutput && alone.standardOutput.hasSuffix("\n")
                && alone.standardOutput.dropLast().allSatisfy { $0.isNumber || $0 == "." }, "\(alone.standardOutput)")
        let withHelp = try await CommandRunner.run(["--version", "--help"])
        #expect(withHelp.status == 0 && withHelp.standardOutput.contains("USAGE: mapsim"), "anything more is the parser's: \(withHelp.standardOutput)")
    }

    @Test func aMirrorFolderThatDoesNotExistIsNamedNotServedAsA404() async throws {
        let load = try await CommandRunner.run(["load", "https://maps.test/style.json", "--network", "lan", "--mirror", "https://maps.test/=styles/no-such", "-q"])
        #expect(load.status == 64 && load.standardError.contains("styles/no-such does not exist"), "\(load.standardError)")
        let folder = try FixtureDirectory()
        let scenario = try folder.write("missing.scenario.yaml", """
            style: https://maps.test/style.json
            mirror: {"https://maps.test/": no-such-folder}
            steps: [load, {wait: map-idle}]
            """)
        let run = try await CommandRunner.run(["run", scenario])
        #expect(run.status == 1 && (run.standardOutput + run.standardError).contains("\(folder.path)/no-such-folder does not exist"), "\(run.standardOutput)\(run.standardError)")
    }

    @Test func aMapboxStyleWithoutATokenIsRefusedAtOnceNamingTheVariable() async throws {
        let load = try await CommandRunner.run(["load", "mapbox://styles/mapbox/streets-v12", "-q", "--no-cache"], environment: ["MAPBOX_ACCESS_TOKEN": nil])
        #expect(load.status == 64 && load.standardError.contains("set MAPBOX_ACCESS_TOKEN or give --access-token"), "\(load.standardError)")
        // A style that names mapbox:// resources fails them at once, as errors of the map, not retries.
        let folder = try FixtureDirectory()
        let style = try folder.write("style.json", #"{"version": 8, "sources": {"m": {"type": "vector", "url": "mapbox://mapbox.mapbox-streets-v8"}}, "layers": [{"id": "l", "type": "line", "source": "m", "source-layer": "road"}]}"#)
        let events = folder.path + "/nested.jsonl"
        let nested = try await CommandRunner.run(["load", style, "-q", "--no-cache", "--timeout", "120", "--events", events], environment: ["MAPBOX_ACCESS_TOKEN": nil])
        #expect(nested.standardOutput.contains("needs a Mapbox access token: set MAPBOX_ACCESS_TOKEN or give --access-token"), "\(nested.standardOutput)")
        let requests = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").filter { $0.contains("\"type\":\"resource-request\"") && $0.contains("mapbox-streets") }
        #expect(requests.count == 1 && requests[0].contains("\"end\":0,"), "one request, failed at once, never retried: \(requests)")
        // The download refuses at once too; GL JS downloads no regions.
        let download = try await CommandRunner.run(["region", "download", "mapbox://styles/mapbox/streets-v12", "--bounds", "0,0,1,1", "--min-zoom", "0", "--max-zoom", "1",
                                                    "--cache", folder.path + "/r.db"], environment: ["MAPBOX_ACCESS_TOKEN": nil])
        #expect(download.status == 64 && download.standardError.contains("MAPBOX_ACCESS_TOKEN"))
        // A style of its own whose import is on the Mapbox API: the download stops at the import,
        // naming the variable, and asks for nothing else of the API (not each of its glyph ranges).
        let imports = try await CommandRunner.run(["region", "download", SampleStyle.stylesFolder + "/mapbox-standard/style.json", "--engine", "mapbox",
                                                   "--bounds", "-122.5,37.7,-122.4,37.8", "--min-zoom", "10", "--max-zoom", "11", "--cache", folder.path + "/i.db"],
                                                  environment: ["MAPBOX_ACCESS_TOKEN": nil])
        #expect(imports.status == 1 && imports.standardOutput.hasPrefix(
            "region 1 stopped: mapbox://styles/mapsim/standard needs a Mapbox access token: set MAPBOX_ACCESS_TOKEN or give --access-token; "),
                "\(imports.standardOutput)\(imports.standardError)")
        #expect(imports.standardError.isEmpty && !imports.standardOutput.contains("again"), "nothing failed on its own, nothing to run again: \(imports.standardOutput)\(imports.standardError)")
        let glJS = try await CommandRunner.run(["region", "download", "styles/sample/style.json", "--bounds", "0,0,1,1", "--min-zoom", "0", "--max-zoom", "1",
                                                "--cache", folder.path + "/r.db", "--engine", "maplibre-gl-js"])
        #expect(glJS.status == 64 && glJS.standardError.contains("MapLibre GL JS downloads no offline regions"), "\(glJS.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/r.db"), "nothing made")
    }

    @Test func aTraceWhoseCameraIsNotANumberIsRefusedNamingTheField() async throws {
        let folder = try FixtureDirectory()
        let good = folder.path + "/good.trace.yaml"
        #expect(try await CommandRunner.run(["load", "styles/sample/style.json", "-q", "--trace", good, "--zoom", "10"]).status == 0)
        let text = try String(contentsOfFile: good, encoding: .utf8)
        for (bad, field) in [(".nan", "zoom is not a finite number"), (".inf", "zoom is not a finite number"), ("99", "zoom 99 is outside 0…25.5")] {
            let path = try folder.write("bad.trace.yaml", text.replacingOccurrences(of: "zoom: 10", with: "zoom: \(bad)"))
            let report = try await CommandRunner.run(["report", path, "-o", folder.path + "/report.html"])
            #expect(report.status == 2 && report.standardError.contains("the header's camera: \(field)"), "\(bad): \(report.standardError)")
        }
        let lines = folder.path + "/good.jsonl"
        #expect(try await CommandRunner.run(["load", "styles/sample/style.json", "-q", "--trace", lines, "--pitch", "30"]).status == 0)
        let json = try String(contentsOfFile: lines, encoding: .utf8).replacingOccurrences(of: "\"pitch\":30", with: "\"pitch\":1e999")
        let path = try folder.write("bad.jsonl", json)
        let diff = try await CommandRunner.run(["diff", lines, path])
        #expect(diff.status == 2 && diff.standardError.contains("bad.jsonl:1:") && diff.standardError.contains("1e999"), "\(diff.standardError)")
    }

    @Test func aDiffOfTwoNetworkRunsPairsRequestsByURLAndItsJSONHasOneShape() async throws {
        let folder = try FixtureDirectory()
        let (a, b) = (folder.path + "/a.jsonl", folder.path + "/b.jsonl")
        for (path, seed) in [(a, "1"), (b, "2")] {
            let load = try await CommandRunner.run(["load", "https://maps.test/style.json", "--network", "4g", "--seed", seed, "--mirror", "https://maps.test/=styles/sample",
                                                    "--no-cache", "-q", "--events", path])
            #expect(load.status == 0)
        }
        let text = try await CommandRunner.run(["diff", a, b])
        #expect(text.status == 1)
        #expect(!text.standardOutput.contains("only in A") && !text.standardOutput.contains("only in B"), "every request has its counterpart: \(text.standardOutput)")
        #expect(text.standardOutput.contains("tile tiles/") && text.standardOutput.contains(": end: "), "\(text.standardOutput)")
        let json = try await CommandRunner.run(["diff", a, b, "--format", "json"])
        let objects = json.standardOutput.split(separator: "\n").compactMap { try? JSONParser.parse(Array($0.utf8)).objectValue }
        #expect(!objects.isEmpty)
        for object in objects { #expect(object.keys == ["group", "subject", "field", "a", "b", "index", "line"], "\(object.keys)") }
        // One difference says so in the singular.
        let one = try folder.write("one.jsonl", try String(contentsOfFile: a, encoding: .utf8).split(separator: "\n").filter { !$0.contains("\"type\":\"map-idle\"") }
            .joined(separator: "\n") + "\n")
        let single = try await CommandRunner.run(["diff", a, one])
        #expect(single.standardOutput.contains("1 difference:"), "\(single.standardOutput)")
    }

    @Test func aDamagedCacheIsAnUnopenableCacheForTheCommandsThatReadIt() async throws {
        let folder = try FixtureDirectory()
        let cache = folder.path + "/cache.db"
        let download = try await CommandRunner.run(["region", "download", "styles/sample/style.json", "--bounds", "-122.5,37.7,-122.3,37.9", "--min-zoom", "10",
                                                    "--max-zoom", "10", "--cache", cache, "-q"])
        #expect(download.status == 0, "\(download.standardError)")
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: cache))
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: Data([0xFF, 0xFF, 0xFF, 0xFF]))
        try handle.close()
        for command in [["region", "status", "1"], ["region", "list"], ["region", "check", "1"], ["cache", "stats"]] {
            let result = try await CommandRunner.run(command + ["--cache", cache])
            #expect(result.status == 74 && result.standardError.contains("is damaged"), "\(command): \(result.status) \(result.standardError)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["cache.db"], "nothing set aside by a command that only reads")
    }

    @Test func aReportOfScenariosWithOneNameInTwoFoldersKeepsBothPages() async throws {
        let folder = try FixtureDirectory()
        for (path, zoom) in [("a/cold.scenario.yaml", 10), ("b/cold.scenario.yaml", 11)] {
            _ = try folder.write(path, """
                name: cold
                style: file://\(SampleStyle.stylesFolder)/sample/style.json
                camera: {zoom: \(zoom)}
                steps: [load, {wait: map-idle}]
                """)
        }
        let run = try await CommandRunner.run(["run", folder.path + "/a/cold.scenario.yaml", folder.path + "/b/cold.scenario.yaml", "--record", "--report", folder.path + "/report"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/report").sorted()
        #expect(pages == ["cold-2.html", "cold.html", "index.html"])
        let index = try String(contentsOfFile: folder.path + "/report/index.html", encoding: .utf8)
        #expect(index.contains("\"page\":\"cold.html\"") && index.contains("\"page\":\"cold-2.html\""))
    }
}
