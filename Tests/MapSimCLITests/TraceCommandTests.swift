import Foundation
import Testing
import MapSimTesting
@testable import MapSim

@Suite("mapsim traces")
struct TraceCommandTests {
    @Test func noSecretReachesAnyOutput() async throws {
        let fixture = try FixtureDirectory()
        try fixture.copy(folder: SampleStyle.folder, to: "api/styles/v1/someone")
        try FileManager.default.copyItem(atPath: fixture.path + "/api/styles/v1/someone/style.json", toPath: fixture.path + "/api/styles/v1/someone/city")
        let secret = "pk.SECRET-123"
        let run = try await CommandRunner.run([
            "load", "mapbox://styles/someone/city", "--access-token", secret, "--mapbox-api-url", "https://api.test",
            "--network", "lan", "--mirror", "https://api.test/=\(fixture.path)/api", "--no-cache",
            "--events", fixture.path + "/events.jsonl", "--trace", fixture.path + "/trace.yaml",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        let jsonl = try await CommandRunner.run(["load", "mapbox://styles/someone/city", "--access-token", secret, "--mapbox-api-url", "https://api.test",
                                           "--network", "lan", "--mirror", "https://api.test/=\(fixture.path)/api", "--no-cache", "-q",
                                           "--trace", fixture.path + "/trace.jsonl"])
        let export = try await CommandRunner.run(["export", "--perfetto", fixture.path + "/trace.yaml", "-o", fixture.path + "/perfetto.json"])
        #expect(jsonl.status == 0 && export.status == 0)
        var outputs = [run.standardOutput, run.standardError, jsonl.standardOutput]
        for file in ["events.jsonl", "trace.yaml", "trace.jsonl", "perfetto.json"] {
            outputs.append(try String(contentsOfFile: fixture.path + "/" + file, encoding: .utf8))
        }
        #expect(outputs.allSatisfy { !$0.contains(secret) })
        #expect(outputs[3].contains("access_token=REDACTED"), "the URL shows where the secret was")
    }

    @Test func recordsReadsDiffsAndExports() async throws {
        let fixture = try FixtureDirectory()
        for name in ["a", "b"] {
            #expect(try await CommandRunner.run(["load", "styles/sample/style.json", "-q", "--trace", fixture.path + "/\(name).trace.yaml"]).status == 0)
        }
        #expect(try await CommandRunner.run(["load", "styles/failing/missing-icon.json", "-q", "--trace", fixture.path + "/c.trace.yaml"]).status == 0)
        let same = try await CommandRunner.run(["diff", fixture.path + "/a.trace.yaml", fixture.path + "/b.trace.yaml"])
        #expect(same.status == 0 && same.standardOutput.contains("the traces agree"))
        let different = try await CommandRunner.run(["diff", fixture.path + "/a.trace.yaml", fixture.path + "/c.trace.yaml"])
        #expect(different.status == 1)
        #expect(different.standardOutput.contains("- style-image-missing event ") && different.standardOutput.contains(" of B at "), "\(different.standardOutput)")
        #expect(different.standardOutput.contains(": only in B"))
        let unreadable = try await CommandRunner.run(["diff", fixture.path + "/a.trace.yaml", fixture.path + "/none.yaml"])
        #expect(unreadable.status == 2 && unreadable.standardError.contains("cannot read"))
        let yaml = try String(contentsOfFile: fixture.path + "/a.trace.yaml", encoding: .utf8)
        #expect(yaml.hasPrefix("# mapsim trace") && yaml.contains("\n  - {type: map-idle, begin: 333333, end: 333333, data: {}}\n"))
    }

    @Test func identicalEventFilesDiffCleanAndACutOneIsNamed() async throws {
        let fixture = try FixtureDirectory()
        let first = fixture.path + "/first.jsonl"
        let second = fixture.path + "/second.jsonl"
        #expect(try await CommandRunner.run(["load", "styles/sample/style.json", "--quiet", "--events", first]).status == 0)
        try FileManager.default.copyItem(atPath: first, toPath: second)
        let same = try await CommandRunner.run(["diff", first, second])
        #expect(same.status == 0 && same.standardOutput.hasPrefix("the traces agree"), "\(same.standardOutput)")
        #expect(try await CommandRunner.run(["diff", first, second, "--headers"]).status == 1, "the headers name the files")
        let text = try String(contentsOfFile: first, encoding: .utf8)
        try String(text.dropLast(20)).write(toFile: second, atomically: true, encoding: .utf8)
        let cut = try await CommandRunner.run(["diff", first, second])
        #expect(cut.status == 2 && cut.standardError.contains("the last line is incomplete"), "\(cut.standardError)")
        let allowed = try await CommandRunner.run(["diff", first, second, "--allow-truncated"])
        #expect(allowed.status == 1 && allowed.standardOutput.contains("- map-idle event ") && allowed.standardOutput.contains(": only in A"), "\(allowed.standardOutput)")
    }

    @Test func anEmptyFileIsNoTraceForDiffOrExport() async throws {
        let folder = try FixtureDirectory()
        let empty = try folder.write("empty.jsonl", "")
        let blank = try folder.write("blank.yaml", "\n  \n")
        let diff = try await CommandRunner.run(["diff", empty, blank])
        #expect(diff.status == 2 && diff.standardError.contains("is empty"), "\(diff.standardError)")
        let export = try await CommandRunner.run(["export", "--perfetto", empty, "--output", folder.path + "/out.json"])
        #expect(export.status == 2 && export.standardError.contains("is empty"), "\(export.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out.json"))
    }
}
