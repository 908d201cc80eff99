import Foundation
import Testing
import MapSimTesting
@testable import MapSimJSON

/// `mapsim load` as a CI gate: errors and budgets in the exit status, JUnit, the critical path,
/// request timeouts and progress; `diff`'s lines and JSON; `export --allow-truncated`.
@Suite("mapsim load as a gate", .serialized)
struct GateCommandTests {
    @Test func aLoadWhoseTilesFailGoesIdleButFailsTheGateWithFailOnError() async throws {
        let server = try await FixtureServer.start(serving: SampleStyle.folder)
        defer { Task { await server.stop() } }
        server.reply(prefix: "/tiles/", with: .status(503))
        let style = server.baseURL + "/style.json"
        let plain = try await CommandRunner.run(["load", style, "--no-cache", "-q"])
        #expect(plain.status == 0, "the map goes idle, as the SDKs do: \(plain.standardError)")
        // Every tile fails: five at first, more when a retry's answer comes before map-idle (the
        // network's real timing decides); each failure is an error.
        let failed = plain.standardOutput.firstMatch(of: /tile +(\d+) +0 B \((\d+) failed\)/)
        let errors = plain.standardOutput.firstMatch(of: /errors +(\d+)/)
        #expect(failed.map { $0.1 == $0.2 && Int($0.1)! >= 5 } == true && errors?.1 == failed?.1, "\(plain.standardOutput)")
        let folder = try FixtureDirectory()
        let gated = try await CommandRunner.run(["load", style, "--no-cache", "-q", "--fail-on-error", "--junit", folder.path + "/load.xml"])
        #expect(gated.status == 1)
        let count = try #require(gated.standardError.firstMatch(of: /(\d+) map-loading-errors \(--fail-on-error\); first: tile: HTTP 503 server error/)?.1,
                                 "\(gated.standardError)")
        let junit = try String(contentsOfFile: folder.path + "/load.xml", encoding: .utf8)
        #expect(junit.contains(#"<testsuite name="mapsim load" tests="2" failures="1">"#))
        #expect(junit.contains(#"name="reaches map-idle"/>"#) && junit.contains(#"<failure message="\#(count) map-loading-errors">"#), "\(junit)")
    }

    @Test func budgetsAreListedMetOrExceededAndAnExceededOneFailsNamingItsLimit() async throws {
        let met = try await CommandRunner.run(["load", "styles/sample/style.json", "-q", "--budget", "map-idle=2s", "--budget", "requests.tile=5",
                                               "--budget=bytes=500KB", "--budget", "errors=0"])
        #expect(met.status == 0 && met.standardError.isEmpty, "\(met.standardError)")
        #expect(met.standardOutput.contains("budgets        4 met\n  budget map-idle: 333.3 ms ≤ 2 s\n  budget requests.tile: 5 ≤ 5\n  budget bytes: 157.2 KB ≤ 500.0 KB\n  budget errors: 0 ≤ 0"),
                "\(met.standardOutput)")
        let folder = try FixtureDirectory()
        let exceeded = try await CommandRunner.run(["load", "styles/sample/style.json", "-q", "--budget", "map-idle=100ms", "--budget", "requests.glyphs=1",
                                                    "--budget", "requests=40", "--junit", folder.path + "/budgets.xml"])
        #expect(exceeded.status == 1)
        #expect(exceeded.standardError == "mapsim: budget map-idle: 333.3 ms > 100 ms\nmapsim: budget requests.glyphs: 2 > 1\n", "\(exceeded.standardError)")
        #expect(exceeded.standardOutput.contains("budgets        1 met, 2 exceeded"))
        let junit = try String(contentsOfFile: folder.path + "/budgets.xml", encoding: .utf8)
        #expect(junit.contains(#"<testsuite name="mapsim load" tests="5" failures="2">"#) && junit.contains(#"name="budget map-idle=100ms">"#)
                && junit.contains(#"<failure message="budget map-idle: 333.3 ms &gt; 100 ms">"#), "\(junit)")
        let unknown = try await CommandRunner.run(["load", "styles/sample/style.json", "--budget", "requests.tiles=4"])
        #expect(unknown.status == 64 && unknown.standardError.contains(#"unknown resource kind "tiles""#))
    }

    @Test func theSummaryNamesTheCriticalPathToMapIdleInTextAndJSON() async throws {
        let folder = try FixtureDirectory()
        let result = try await CommandRunner.run(["load", "https://maps.test/style.json", "--network", "3g", "--mirror", "https://maps.test/=styles/sample",
                                                  "--no-cache", "-q", "--summary", folder.path + "/summary.json"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("critical path  to map-idle at ") })
        let chain = lines[(start + 1)...].prefix { $0.hasPrefix("  ") && !$0.hasPrefix("  then") }.map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(chain == ["style", "sprite-image", "tile", "glyphs"], "\(lines[start...])")
        #expect(lines[start + 1].contains("style.json") && lines[start + 1].contains("0.000 → 327.203 ms"))
        let summary = try #require(try JSONParser.parse(try InputFile.read(folder.path + "/summary.json", limit: 1 << 20)).objectValue)
        let path = try #require(summary["critical-path"]?["requests"]?.arrayValue)
        #expect(path.compactMap { $0["kind"]?.stringValue } == chain)
        #expect(path.first?["path"] == .string("style.json") && path.first?["end"] == .number(327_203))
        #expect(summary["map-idle"]?.numberValue == summary["critical-path"]?["at"]?.numberValue)
        #expect(summary["kinds"]?["tile"]?["requests"] == .number(5), "four tiles and the one MapLibre Native prefetches")
    }

    @Test func aRequestWithNoAnswerFailsAfterTheRequestTimeoutNamingItsURLWithProgressInTheLog() async throws {
        let server = try await FixtureServer.start(serving: SampleStyle.folder)
        defer { Task { await server.stop() } }
        server.reply("/tiles/10/163/396.pbf", with: .delay(.seconds(3_600)))
        let result = try await CommandRunner.run(["load", server.baseURL + "/style.json", "--no-cache", "--request-timeout", "4s", "--fail-on-error"],
                                                 environment: ["MAPSIM_PROGRESS_INTERVAL": "0.1"])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("tile: no answer from \(server.baseURL)/tiles/10/163/396.pbf within 4 s"), "\(result.standardError)")
        #expect(result.standardOutput.contains("map-idle       at "), "the rest of the map is there")
        // Not on a terminal: progress lines on standard error while it waits.
        #expect(result.standardError.contains("mapsim: loading for ") && result.standardError.contains(" answered ("), "\(result.standardError)")
        // Four seconds: long enough for a machine loaded by the whole suite to answer the rest.
        let quiet = try await CommandRunner.run(["load", server.baseURL + "/style.json", "--no-cache", "--request-timeout", "4s", "-q"],
                                                environment: ["MAPSIM_PROGRESS_INTERVAL": "0.05"])
        #expect(quiet.status == 0 && !quiet.standardError.contains("loading for"), "-q silences progress: \(quiet.standardError)")
        let bad = try await CommandRunner.run(["load", "styles/sample/style.json", "--request-timeout", "soon"])
        #expect(bad.status == 64)
    }

    @Test func diffPrintsOneLinePerDifferenceAndJSONLinesForScripts() async throws {
        let folder = try FixtureDirectory()
        let site = folder.path + "/site"
        try FileManager.default.copyItem(atPath: SampleStyle.folder, toPath: site)
        for (name, path) in [("a", SampleStyle.folder + "/style.json"), ("b", site + "/style.json")] {
            #expect(try await CommandRunner.run(["load", path, "-q", "--no-cache", "--events", folder.path + "/\(name).jsonl"]).status == 0)
        }
        // The same style from another folder: the same when relaxed, every URL different when strict.
        let relaxed = try await CommandRunner.run(["diff", folder.path + "/a.jsonl", folder.path + "/b.jsonl", "--relaxed"])
        #expect(relaxed.status == 0 && relaxed.standardOutput.contains("the traces agree"), "\(relaxed.standardOutput)")
        try FileManager.default.removeItem(atPath: site + "/tiles/10/164/395.pbf")
        #expect(try await CommandRunner.run(["load", site + "/style.json", "-q", "--no-cache", "--events", folder.path + "/c.jsonl"]).status == 0)
        let text = try await CommandRunner.run(["diff", folder.path + "/a.jsonl", folder.path + "/c.jsonl", "--relaxed"])
        #expect(text.status == 1)
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("- tile tiles/10/164/395.pbf: ok 485 B in A, no-content in B"), "\(lines)")
        #expect(lines.allSatisfy { $0.count <= 202 })
        #expect(lines.last?.hasPrefix("1 difference: tile 1 (A: ") == true, "\(lines)")
        let json = try await CommandRunner.run(["diff", folder.path + "/a.jsonl", folder.path + "/c.jsonl", "--relaxed", "--format", "json"])
        #expect(json.status == 1)
        let objects = try json.standardOutput.split(separator: "\n").map { try JSONParser.parse(String($0)) }
        #expect(objects.count == lines.count - 1)
        #expect(objects.contains { $0["group"] == .string("tile") && $0["subject"] == .string("tiles/10/164/395.pbf") && $0["a"] == .string("ok 485 B")
            && $0["b"] == .string("no-content") })
        let agreeing = try await CommandRunner.run(["diff", folder.path + "/a.jsonl", folder.path + "/a.jsonl", "--format", "json"])
        #expect(agreeing.status == 0 && agreeing.standardOutput.isEmpty)
        let based = try await CommandRunner.run(["diff", folder.path + "/a.jsonl", folder.path + "/c.jsonl", "--relaxed", "--base", "file://" + SampleStyle.folder + "/tiles/",
                                                 "--base", "file://" + site + "/tiles/"])
        #expect(based.standardOutput.contains("- tile 10/164/395.pbf: ok 485 B in A, no-content in B"), "\(based.standardOutput)")
        #expect(try await CommandRunner.run(["diff", folder.path + "/a.jsonl", folder.path + "/c.jsonl", "--base", "file:///"]).status == 64, "--base goes with --relaxed")
    }

    @Test func exportReadsACutTraceWhenAllowedAndCountsWhatItWrote() async throws {
        let folder = try FixtureDirectory()
        let trace = folder.path + "/run.jsonl"
        #expect(try await CommandRunner.run(["load", "styles/sample/style.json", "-q", "--trace", trace]).status == 0)
        var text = try String(contentsOfFile: trace, encoding: .utf8)
        text.removeLast(20)
        try text.write(toFile: trace, atomically: true, encoding: .utf8)
        let refused = try await CommandRunner.run(["export", "--perfetto", trace, "-o", folder.path + "/p.json"])
        #expect(refused.status == 2 && refused.standardError.contains("--allow-truncated"))
        let exported = try await CommandRunner.run(["export", "--perfetto", trace, "-o", folder.path + "/p.json", "--allow-truncated"])
        #expect(exported.status == 0, "\(exported.standardError)")
        let written = try #require(try JSONParser.parse(try InputFile.read(folder.path + "/p.json", limit: 1 << 24))["traceEvents"]?.arrayValue)
        #expect(exported.standardOutput == "wrote \(folder.path)/p.json: \(written.count) trace events from 65 map events\n", "\(exported.standardOutput)")
    }
}
