import AsyncHTTPClient
import Foundation
import Testing
import MapSimJSON
import MapSimTesting

/// `mapsim serve`, a real process answering a real HTTP client and `mapsim load` itself.
@Suite("CLI.serve", .serialized)
struct ServeCommandTests {
    private func status(_ url: String) async throws -> Int {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
        _ = try await response.body.collect(upTo: 16 << 20)
        return Int(response.status.code)
    }

    @Test func aRealClientsRequestsAreTheSimulatedMapsAndSigtermWritesThem() async throws {
        let folder = try FixtureDirectory()
        let events = folder.path + "/served.jsonl"
        let trace = folder.path + "/served.trace.yaml"
        let serve = try RunningCommand(["serve", "styles/sample/style.json", "--port", "0", "--events", events, "--trace", trace])
        try await serve.waitForLines { $0.contains { $0.hasPrefix("serving ") } }
        let line = try #require(serve.lines.first { $0.hasPrefix("serving ") })
        let url = String(line[try #require(line.range(of: "http://")).lowerBound...].prefix { $0 != " " })
        // mapsim's own map loads the style through the server: it is a real HTTP client.
        let load = try await CommandRunner.run(["load", url, "--no-cache", "--events", "-", "--quiet"])
        #expect(load.status == 0, "\(load.standardError)")
        #expect(try await status(url.replacingOccurrences(of: "style.json", with: "../../etc/passwd")) == 404)
        try await serve.waitForLines { $0.contains { $0.contains("/etc/passwd") || $0.contains("passwd") } }
        serve.send(SIGTERM)
        let (exit, standardError) = await serve.wait()
        #expect(exit == 0, "\(standardError)")
        func requests(_ text: String) -> [(kind: String, url: String)] {
            text.split(separator: "\n").compactMap { try? JSONParser.parse(Array($0.utf8)) }.filter { $0["type"] == .string("resource-request") }
                .compactMap { event in
                    guard let kind = event["data"]?["request"]?["kind"]?.stringValue, let url = event["data"]?["request"]?["url"]?.stringValue else { return nil }
                    return (kind, url)
                }
        }
        let simulated = requests(load.standardOutput).map { "\($0.kind) \($0.url)" }.sorted()
        let served = requests(try String(contentsOfFile: events, encoding: .utf8)).map { "\($0.kind) \($0.url)" }
        #expect(simulated.count == 11 && served.count == 12, "ten resources, the prefetched tile and the refused request")
        #expect(Array(served.dropLast()).sorted() == simulated, "the server saw each request the map made, with the kind the map gave it")
        #expect(served.last?.hasPrefix("unknown ") == true)
        #expect(try String(contentsOfFile: trace, encoding: .utf8).contains("kind: style"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["served.jsonl", "served.trace.yaml"])
        // `diff --relaxed` compares the served requests with a load of the style file on the
        // simulated network: they agree but for the request of a file outside the folder.
        let simulatedEvents = folder.path + "/simulated.jsonl"
        #expect(try await CommandRunner.run(["load", "styles/sample/style.json", "--events", simulatedEvents, "--quiet"]).status == 0)
        let diff = try await CommandRunner.run(["diff", events, simulatedEvents, "--relaxed"])
        let differences = diff.standardOutput.split(separator: "\n").filter { $0.hasPrefix("- ") }
        #expect(diff.status == 1 && diff.standardOutput.contains("comparing the requests only") && differences.count == 1
                && differences[0].hasPrefix("- unknown ") && differences[0].contains("passwd") && differences[0].contains("only in A"), "\(diff.standardOutput)")
    }

    @Test func aScenarioGivesTheStyleItsMirrorsAndItsFaultsOnTheWallClock() async throws {
        let folder = try FixtureDirectory()
        let events = folder.path + "/served.jsonl"
        let serve = try RunningCommand(["serve", "--scenario", "traces/tiles-429-retry-after.scenario.yaml", "--port", "0", "--events", events, "--quiet"])
        try await serve.waitForLines { $0.contains { $0.hasPrefix("scenario ") } }
        let line = try #require(serve.lines.first { $0.hasPrefix("serving ") })
        #expect(serve.lines.first == line, "the first line names the style's URL")
        #expect(serve.lines.contains { $0.contains("network lan, 1 fault rule") && $0.contains("load, wait") })
        let url = String(line[try #require(line.range(of: "http://")).lowerBound...].prefix { $0 != " " })
        let load = try await CommandRunner.run(["load", url, "--no-cache", "--quiet"])
        #expect(load.status == 0 && load.standardOutput.contains("HTTP 429"), "\(load.standardOutput)")
        serve.send(SIGTERM)
        #expect(await serve.wait().status == 0)
        let served = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        // The mirror answered the scenario's URLs below /_remote/; each tile was refused once.
        #expect(served.filter { $0.contains("\"kind\":\"tile\"") && $0.contains("HTTP 429") }.count == 5)
        #expect(served.contains { $0.contains("/_remote/https/maps.test/tiles.json") })
        // A style on another server needs a cache or an origin; a scenario and a STYLE are two styles.
        let remote = try await CommandRunner.run(["serve", "https://maps.test/style.json", "--port", "0"])
        #expect(remote.status == 64 && remote.standardError.contains("--cache"), "\(remote.standardError)")
        let both = try await CommandRunner.run(["serve", "styles/sample/style.json", "--scenario", "traces/tiles-429-retry-after.scenario.yaml"])
        #expect(both.status == 64, "\(both.standardError)")
    }

    @Test func aStyleThatCannotBeReadIs2AndAPortInUseIs69() async throws {
        let missing = try await CommandRunner.run(["serve", "nosuch/style.json", "--port", "0"])
        #expect(missing.status == 2 && missing.standardError.contains("nosuch/style.json"), "\(missing.standardError)")
        let first = try RunningCommand(["serve", "styles/sample/style.json", "--port", "0", "--quiet"])
        try await first.waitForLines { $0.contains { $0.hasPrefix("serving ") } }
        let port = try #require(first.lines.first { $0.hasPrefix("serving ") }?.split(separator: ":").last?.split(separator: "/").first.map(String.init))
        let second = try await CommandRunner.run(["serve", "styles/sample/style.json", "--port", port])
        #expect(second.status == 69 && second.standardError.contains("mapsim: cannot listen on 127.0.0.1:\(port): the port is in use (another server listens there; --port 0 picks a free one)\n"),
                "\(second.standardError)")
        first.send(SIGINT)
        #expect(await first.wait().status == 0)
        #expect(try await CommandRunner.run(["serve", "styles/sample/style.json", "--port", "70000"]).status == 64)
    }
}
