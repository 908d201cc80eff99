import Foundation
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimJSON

/// `mapsim load` and `mapsim cache` against real and simulated networks.
@Suite("mapsim load over the network", .serialized)
struct NetworkCommandTests {
    @Test func aSignalDuringTheLoadWritesTheEventsSoFarAndExitsAsTheSignalSays() async throws {
        // The sample without its sprite, so that the style is loaded as soon as its TileJSON is —
        // before the first tile is asked for (a sprite's answer could come after that).
        let site = try FixtureDirectory()
        try FileManager.default.removeItem(atPath: site.path)
        try FileManager.default.copyItem(atPath: SampleStyle.folder, toPath: site.path)
        let styleFile = site.path + "/style.json"
        let style = try String(contentsOfFile: styleFile, encoding: .utf8)
        try style.replacingOccurrences(of: #""sprite": "sprite","#, with: "").write(toFile: styleFile, atomically: true, encoding: .utf8)
        #expect(try !String(contentsOfFile: styleFile, encoding: .utf8).contains("sprite"))
        for (signal, status) in [(SIGTERM, Int32(143)), (SIGINT, 130)] {
            // A server of its own each time: the tiles the killed load asked for are still held.
            let server = try await FixtureServer.start(serving: site.path)
            // The style and its TileJSON come at once; the tiles never do.
            server.reply(prefix: "/tiles/", with: .delay(.seconds(3_600)))
            let folder = try FixtureDirectory()
            let events = folder.path + "/events.jsonl"
            let trace = folder.path + "/load.trace.yaml"
            // Counted before the load starts: a load quicker than this test's thread has asked already.
            let asked = server.requestCount
            let load = try RunningCommand(["load", server.baseURL + "/style.json", "--no-cache", "--events", events, "--trace", trace, "--timeout", "3600"])
            // The load is in its tiles once the server is asked for one.
            for _ in 0..<2_000 where !server.received.dropFirst(asked).contains(where: { $0.path.hasPrefix("/tiles/") }) {
                try await Task.sleep(for: .milliseconds(10))
            }
            load.send(signal)
            let (exit, standardError) = await load.wait()
            #expect(exit == status, "\(standardError)")
            #expect(standardError.contains("while loading; the events so far are written"), "\(standardError)")
            let written = try String(contentsOfFile: events, encoding: .utf8)
            #expect(written.contains(#""type":"style-loaded""#) && !written.contains("map-loaded"))
            #expect(try String(contentsOfFile: trace, encoding: .utf8).contains("type: style-loaded"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["events.jsonl", "load.trace.yaml"], "no temporary file left behind")
            await server.stop()
        }
    }

    @Test func loadsFromAStaticServerTwiceTheSecondTimeFromTheCache() async throws {
        let server = try await FixtureServer.start(serving: SampleStyle.folder)
        let fixture = try FixtureDirectory()
        let cache = fixture.path + "/cache.db"
        let first = try await CommandRunner.run(["load", server.baseURL + "/style.json", "--cache", cache, "-q"])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("answered by    network 11"))
        let firstRequests = server.requestCount
        let second = try await CommandRunner.run(["load", server.baseURL + "/style.json", "--cache", cache, "-q"])
        #expect(second.status == 0)
        // Every resource comes from the cache at once; its revalidations go out at low priority and
        // the load ends at map-idle, so how many of them have come back by then depends on the
        // real network's speed: each that did was a 304.
        let answered = second.standardOutput.split(separator: "\n").first { $0.hasPrefix("answered by") }.map(String.init) ?? ""
        let revalidated = Int(answered.split(separator: "network ").last?.prefix { $0.isNumber } ?? "") ?? 0
        #expect(answered.hasPrefix("answered by    database 11") && (revalidated == 0 || answered.hasSuffix("network \(revalidated) (\(revalidated) revalidated, not modified)")),
                "\(answered)")
        #expect(server.received.dropFirst(firstRequests).allSatisfy { $0.headers["if-none-match"] != nil })
        let before = server.requestCount
        let offline = try await CommandRunner.run(["load", server.baseURL + "/style.json", "--cache", cache, "--offline", "-q"])
        #expect(offline.status == 0 && offline.standardOutput.contains("answered by    database 11"))
        #expect(server.requestCount == before)
        let stats = try await CommandRunner.run(["cache", "stats", "--cache", cache, "--json"])
        let json = try JSONParser.parse(stats.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(json["tiles"] == .number(5) && json["resources"] == .number(6))
        await server.stop()
    }

    /// A server whose dates and ages are past what any clock counts: the load, its cache and its
    /// events hold them at the end of time (or drop a date that is none), and the offline load reads
    /// the cache as usual.
    @Test func aServerWithDatesPastTheEndOfTimeLoadsCachesAndGoesOffline() async throws {
        let server = try await FixtureServer.start(serving: SampleStyle.folder)
        server.reply(prefix: "/", with: .headers([("Cache-Control", "max-age=9223372036854775807"),
                                                  ("Last-Modified", "Sun, 06 Nov 99999999999999 08:49:37 GMT")]))
        let fixture = try FixtureDirectory()
        let cache = fixture.path + "/cache.db", events = fixture.path + "/events.jsonl"
        let online = try await CommandRunner.run(["load", server.baseURL + "/style.json", "--cache", cache, "--events", events, "-q"])
        #expect(online.status == 0 && online.standardOutput.contains("errors         none"), "\(online.standardError)")
        let written = try String(contentsOfFile: events, encoding: .utf8)
        #expect(written.contains(#""expires":"Sun, 04 Dec 292277026596 15:30:07 GMT""#) && !written.contains("99999999999999"))
        let before = server.requestCount
        let offline = try await CommandRunner.run(["load", server.baseURL + "/style.json", "--cache", cache, "--offline", "-q"])
        #expect(offline.status == 0 && offline.standardOutput.contains("answered by    database 11"), "\(offline.standardOutput)")
        #expect(server.requestCount == before)
        await server.stop()
    }

    @Test func simulatesAThreeGLoadDeterministically() async throws {
        let fixture = try FixtureDirectory()
        var outputs: [Data] = []
        for name in ["a", "b"] {
            let result = try await CommandRunner.run(["load", "https://maps.test/style.json", "--network", "3g", "--seed", "4",
                                                "--mirror", "https://maps.test/=styles/sample", "--no-cache", "-q", "--events", fixture.path + "/\(name).jsonl"])
            #expect(result.status == 0)
            #expect(result.standardOutput.contains("map-idle       at 2"))
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: fixture.path + "/\(name).jsonl")))
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test func anUnopenableCacheIsAClearError() async throws {
        let result = try await CommandRunner.run(["cache", "stats", "--cache", "/nonexistent/dir/cache.db"])
        #expect(result.status == 74)
        #expect(result.standardError.contains("there is no cache at /nonexistent/dir/cache.db"))
        let bad = try await CommandRunner.run(["load", "styles/sample/style.json", "--network", "5g"])
        #expect(bad.status == 64 && bad.standardError.contains("unknown --network profile"))
    }
}
