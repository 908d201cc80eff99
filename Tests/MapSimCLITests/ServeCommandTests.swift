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

    /// A harness that reads the first line (the URL) and no more: the server answers on, past the
    /// pipe's 64 KB and the 10,000 events its recorder lets wait (where it used to stop answering
    /// for good, and no SIGTERM could stop it); once read again, it says how many lines it skipped.
    @Test func aReaderThatStopsReadingNeverStopsTheServer() async throws {
        let serve = try RunningCommand(["serve", "styles/sample/style.json", "--port", "0"], readingFirstLineOnly: true)
        try await serve.waitForLines { $0.contains { $0.hasPrefix("serving ") } }
        let port = try #require(serve.lines.first { $0.hasPrefix("serving ") }?.split(separator: ":").last?.split(separator: "/").first.flatMap { Int($0) })
        // 12,000 requests, pipelined on one connection, each printed as a line of about 280 bytes: 3 MB.
        let answered = try await Task.detached { try Self.pipelinedHEADs(12_000, port: port) }.value
        #expect(answered == 12_000)
        serve.readOn()
        try await serve.waitForLines { $0.contains { $0.contains("lines not printed: standard output was not read for a while") } }
        serve.send(SIGTERM)
        let ended = await serve.wait()
        #expect(ended.status == 0, "\(ended.standardError)")
        try await serve.waitForLines { $0.contains("requests       12000 (0 B), 12000 refused") }
    }

    /// Sends `count` HEAD requests for missing files with long names on one connection, all at
    /// once, and counts the answers (a HEAD answer has no body).
    private static func pipelinedHEADs(_ count: Int, port: Int) throws -> Int {
        let socket = try #require(LoopbackPort.connectedSocket(port))
        defer { close(socket) }
        let name = String(repeating: "n", count: 200)
        let requests = (0..<count).map { "HEAD /missing-\(name)-\($0) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }.joined()
        let sender = Thread { _ = requests.utf8CString.withUnsafeBytes { send(socket, $0.baseAddress, $0.count - 1, 0) } }
        sender.start()
        var answers = 0
        var tail: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let marker = Array("HTTP/1.1 ".utf8)
        while answers < count {
            let received = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard received > 0 else { break }
            let bytes = tail + buffer[..<received]
            var index = 0
            while index + marker.count <= bytes.count {
                if bytes[index..<index + marker.count].elementsEqual(marker) { answers += 1; index += marker.count } else { index += 1 }
            }
            tail = Array(bytes.suffix(marker.count - 1))
        }
        return answers
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
