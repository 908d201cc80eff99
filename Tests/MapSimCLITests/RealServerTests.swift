import Foundation
import GRDB
import MapSim
import Testing
import MapSimJSON
import MapSimTesting

/// The servers users point mapsim at — a real nginx with keep-alive and `Cache-Control: max-age`,
/// `mapsim serve` itself, one that accepts and never answers — and the rule that every wait is
/// bounded by what the user set: a command ends when its work ends (within seconds of its last line),
/// whatever the server's max-age or keep-alive, and `--timeout` is the whole budget of a load.
@Suite("CLI against real servers", .serialized)
struct RealServerTests {
    /// The longest a finished command may go on after its last line: a hang waits for a keep-alive
    /// or a max-age (300 s and 60 s or more here; nginx's default keep-alive is 75 s), which this
    /// stays well short of, while a process that merely exits late on a loaded CI machine is not a
    /// hang (2 s and then 10 s were once too short: 4.03 s and 12.0 s measured under a full test run).
    static let ending = Duration.seconds(40)

    /// The sample's folder, copied where a server serves it.
    private func sampleFolder() throws -> FixtureDirectory {
        let folder = try FixtureDirectory()
        try folder.copy(folder: SampleStyle.stylesFolder + "/sample", to: "site")
        return folder
    }

    /// `mapsim serve` of the sample on a free port, and its style's URL.
    private func serveSample() async throws -> (RunningCommand, String) {
        let serve = try RunningCommand(["serve", "styles/sample/style.json", "--port", "0", "--quiet", "--max-age", "90s"])
        try await serve.waitForLines { $0.contains { $0.hasPrefix("serving ") } }
        let line = try #require(serve.lines.first { $0.hasPrefix("serving ") })
        return (serve, String(line[try #require(line.range(of: "http://")).lowerBound...].prefix { $0 != " " }))
    }

    private let area = ["--bounds", "-122.46,37.76,-122.38,37.82", "--min-zoom", "10", "--max-zoom", "12"]

    @Test(arguments: [60, 3600])
    func aRegionDownloadFromNginxEndsWhenItIsCompleteWhateverTheMaxAge(maxAge: Int) async throws {
        let folder = try sampleFolder()
        let nginx = try NginxServer(serving: folder.path + "/site", maxAge: maxAge, keepAlive: 300)
        defer { nginx.stop() }
        let cache = folder.path + "/fresh.db"
        let fresh = try await CommandRunner.run(["region", "download", nginx.baseURL + "/style.json"] + area + ["--cache", cache])
        #expect(fresh.status == 0 && fresh.standardOutput.contains("region 1 complete"), "\(fresh.standardOutput)\(fresh.standardError)")
        #expect(fresh.lingered < Self.ending, "it went on \(fresh.lingered) after its last line")
        // Resumed, with nothing left to fetch.
        let resumed = try await CommandRunner.run(["region", "download", "1", "--cache", cache])
        #expect(resumed.status == 0 && resumed.lingered < Self.ending, "\(resumed.standardError) \(resumed.lingered)")
    }

    /// Tiles sent gzipped (nginx's `gzip_static`, as tile servers send them) are stored in the
    /// server's own deflate stream, rewrapped as zlib — not deflated again — and read back offline.
    @Test func tilesSentGzippedAreStoredAsTheServerDeflatedThemAndLoadOffline() async throws {
        let folder = try sampleFolder()
        let tiles = folder.path + "/site/tiles"
        // gzip(1) at its fastest level, keeping each file and writing its name in the header: a stream
        // of its own, which no deflating here would make again.
        let paths = FileManager.default.enumerator(atPath: tiles)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".pbf") }
        let gzip = try Process.run(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["gzip", "-1", "-k"] + paths.map { tiles + "/" + $0 })
        gzip.waitUntilExit()
        #expect(gzip.terminationStatus == 0)
        var gzipped: [String: [UInt8]] = [:]
        for path in paths {
            gzipped[String(path.dropLast(4))] = try #require(FileManager.default.contents(atPath: tiles + "/" + path + ".gz")).map { $0 }
        }
        let nginx = try NginxServer(serving: folder.path + "/site", maxAge: 600, keepAlive: 300, precompressed: true)
        defer { nginx.stop() }
        let cache = folder.path + "/gzip.db"
        // The sample's whole extent, at each of its zooms: every tile it has.
        let extent = ["--bounds", "-122.62,37.7,-122.28,37.9", "--min-zoom", "0", "--max-zoom", "11"]
        let download = try await CommandRunner.run(["region", "download", nginx.baseURL + "/style.json"] + extent + ["--cache", cache])
        #expect(download.status == 0 && download.standardOutput.contains("complete"), "\(download.standardOutput)\(download.standardError)")
        let rows = try DatabaseQueue(path: cache).read { db in
            try Row.fetchAll(db, sql: "SELECT z, x, y, data, compressed FROM tiles WHERE data IS NOT NULL")
        }
        #expect(rows.count == gzipped.count, "every tile of the sample")
        for row in rows {
            let name = "\(row["z"] as Int)/\(row["x"] as Int)/\(row["y"] as Int)"
            let gzip = try #require(gzipped[name], "\(name)")
            let tile = try ZlibCodec.inflate(gzip)
            let data = [UInt8](row["data"] as Data)
            if row["compressed"] as Bool {
                #expect(Array(data.prefix(2)) == [0x78, 0x9C], "\(name)")
                let stream = gzip[(gzip[10...].firstIndex(of: 0)! + 1)..<(gzip.count - 8)]  // after the name
                #expect(Array(data.dropFirst(2).dropLast(4)) == Array(stream), "\(name): the server's deflate stream")
                #expect(try ZlibCodec.inflate(data) == tile, "\(name)")
            } else {
                // A tile that deflates to no less is stored as it is, as MapLibre stores it.
                #expect(data == tile, "\(name)")
            }
        }
        #expect(rows.filter { $0["compressed"] as Bool }.count > rows.count / 2)
        nginx.stop()
        let offline = try await CommandRunner.run(["load", nginx.baseURL + "/style.json", "--cache", cache, "--offline"])
        #expect(offline.status == 0 && offline.standardOutput.contains("errors         none") && offline.standardOutput.contains("answered by    database"), "\(offline.standardOutput)\(offline.standardError)")
    }

    @Test func aDownloadKilledMidWayResumesAndEnds() async throws {
        let folder = try sampleFolder()
        let nginx = try NginxServer(serving: folder.path + "/site", maxAge: 600, keepAlive: 300)
        defer { nginx.stop() }
        let cache = folder.path + "/killed.db"
        let events = folder.path + "/download.jsonl"
        let download = try RunningCommand(["region", "download", nginx.baseURL + "/style.json"] + area + ["--cache", cache, "--events", events])
        // Killed once the first resources are stored.
        for _ in 0..<2_000 where ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").split(separator: "\n").count < 20 {
            try await Task.sleep(for: .milliseconds(5))
        }
        download.send(SIGKILL)
        _ = await download.wait()
        let resumed = try await CommandRunner.run(["region", "download", "1", "--cache", cache])
        #expect(resumed.status == 0 && resumed.standardOutput.contains("complete"), "\(resumed.standardOutput)\(resumed.standardError)")
        #expect(resumed.lingered < Self.ending, "\(resumed.lingered)")
    }

    @Test func aLoadFromNginxAndFromMapsimServeEndsAtIdle() async throws {
        let folder = try sampleFolder()
        let nginx = try NginxServer(serving: folder.path + "/site", maxAge: 120, keepAlive: 300)
        defer { nginx.stop() }
        let (serve, served) = try await serveSample()
        defer { serve.send(SIGTERM) }
        for url in [nginx.baseURL + "/style.json", served] {
            let load = try await CommandRunner.run(["load", url, "--quiet", "--cache", folder.path + "/load.db"])
            #expect(load.status == 0 && load.standardOutput.contains("map-idle       at"), "\(url): \(load.standardError)")
            #expect(load.lingered < Self.ending, "\(url): \(load.lingered)")
            // A region from the same server, and a scenario run, end as promptly.
            let download = try await CommandRunner.run(["region", "download", url] + area + ["--cache", folder.path + "/\(url.hashValue).db"])
            #expect(download.status == 0 && download.lingered < Self.ending, "\(url): \(download.standardError) \(download.lingered)")
        }
        let run = try await CommandRunner.run(["run", "traces/cold-load.scenario.yaml"])
        #expect(run.status == 0 && run.lingered < Self.ending, "\(run.standardOutput) \(run.lingered)")
    }

    @Test func serveProxyingNginxStopsAtOnceWhenTold() async throws {
        let folder = try sampleFolder()
        let nginx = try NginxServer(serving: folder.path + "/site", maxAge: 600, keepAlive: 600)
        defer { nginx.stop() }
        let proxy = try RunningCommand(["serve", nginx.baseURL + "/style.json", "--proxy", "--port", "0"])
        try await proxy.waitForLines { $0.contains { $0.hasPrefix("serving ") } }
        let line = try #require(proxy.lines.first { $0.hasPrefix("serving ") })
        let url = String(line[try #require(line.range(of: "http://")).lowerBound...].prefix { $0 != " " })
        let load = try await CommandRunner.run(["load", url, "--quiet", "--no-cache"])
        #expect(load.status == 0, "\(load.standardError)")
        let stopped = ContinuousClock.now
        proxy.send(SIGINT)
        let (status, standardError) = await proxy.wait()
        #expect(status == 0, "\(standardError)")
        #expect((proxy.exited ?? .now) - stopped < Self.ending, "serve --proxy kept going after Ctrl-C")
    }

    @Test func aServerThatNeverAnswersHoldsALoadNoLongerThanItsTimeoutAndIsNamed() async throws {
        let silent = try DroppingServer(.hold)
        defer { silent.stop() }
        let folder = try FixtureDirectory()
        let url = "http://127.0.0.1:\(silent.port)/style.json"
        let load = try await CommandRunner.run(["load", url, "--no-cache", "--timeout", "2s", "--events", folder.path + "/events.jsonl", "--quiet"])
        #expect(load.ran < .seconds(2) + Self.ending, "the 2 s --timeout is the whole budget")
        #expect(load.status == 2, "\(load.standardError)")
        #expect(load.standardError.contains("map-idle not reached within the 2 s --timeout; 1 request had no answer, first: \(url)"), "\(load.standardError)")
        #expect(load.standardOutput.contains("timed out      1, no answer when the time was over") && load.standardOutput.contains("  \(url)"))
        let events = try String(contentsOfFile: folder.path + "/events.jsonl", encoding: .utf8).split(separator: "\n")
        let given = try #require(events.compactMap { try? JSONParser.parse(Array($0.utf8)) }.first { $0["data"]?["cancelled"] == .bool(true) })
        #expect(given["data"]?["request"]?["url"] == .string(url))
        #expect(given["data"]?["response"]?["error"]?["message"] == .string("no answer within the 2 s --timeout: \(url)"))
        #expect(given["end"] == .number(2_000_000), "given up at the timeout")
    }

    @Test func aDeepValidationWaitsForASilentServerNoLongerThanItsTimeoutAndNamesWhatHadNoAnswer() async throws {
        let silent = try DroppingServer(.hold)
        defer { silent.stop() }
        let folder = try FixtureDirectory()
        let tiles = "http://127.0.0.1:\(silent.port)/tiles"
        let style = #"{"version": 8, "center": [0, 0], "zoom": 1, "sources": {"s": {"type": "vector", "maxzoom": 2, "tiles": [""#
            + tiles + #"/{z}/{x}/{y}.pbf"]}}, "layers": [{"id": "l", "type": "fill", "source": "s", "source-layer": "x"}]}"#
        let file = try folder.write("style.json", style)
        let validate = try await CommandRunner.run(["validate", "--deep", "--engine", "maplibre-native", "--no-cache", "--timeout", "1s", file],
                                                   environment: ["MAPSIM_PROGRESS_INTERVAL": "0.2"])
        #expect(validate.ran < .seconds(1) + Self.ending, "the 1 s --timeout bounds the load")
        #expect(validate.status == 1, "\(validate.standardError)")
        // Four tiles of the view and the parent MapLibre Native loads first.
        #expect(validate.standardOutput.contains("style.json: the load did not reach map-idle within the 1 s --timeout: 5 requests had no answer, first: \(tiles)/"),
                "\(validate.standardOutput)")
        let progress = validate.standardError.split(separator: "\n").filter { $0.hasPrefix("mapsim: validate --deep: \(folder.path)/style.json as maplibre-native: loading for ") }
        #expect(!progress.isEmpty && progress.allSatisfy { $0.contains("map-idle not yet") }, "\(validate.standardError)")
        let alone = try await CommandRunner.run(["validate", "--timeout", "1s", file])
        #expect(alone.status == 64 && alone.standardError.contains("--timeout limits the load --deep makes, or the reading of a style URL: add --deep"), "\(alone.standardError)")
        // A style given by URL whose server never answers: unreadable once the --timeout is over.
        let url = "http://127.0.0.1:\(silent.port)/style.json"
        let unanswered = try await CommandRunner.run(["validate", "--timeout", "1s", url])
        #expect(unanswered.ran < .seconds(1) + Self.ending, "the 1 s --timeout bounds the reading")
        #expect(unanswered.status == 2 && unanswered.standardError.contains("cannot read \(url): \(url) timed out"), "\(unanswered.standardError)")
    }

    @Test func aDownloadWaitingOnASilentServerSaysOnEachProgressLineWhatItWaitsFor() async throws {
        let silent = try DroppingServer(.hold)
        defer { silent.stop() }
        let folder = try FixtureDirectory()
        let url = "http://127.0.0.1:\(silent.port)/style.json"
        let download = try await CommandRunner.run(["region", "download", url, "--cache", folder.path + "/offline.db", "--request-timeout", "300ms",
                                                    "--retries", "2"] + area, environment: ["MAPSIM_PROGRESS_INTERVAL": "0.1"])
        #expect(download.status == 1, "\(download.standardError)")
        let lines = download.standardError.split(separator: "\n").map(String.init).filter { $0.hasPrefix("mapsim: downloading for ") }
        // The first retry comes 1 s after the first attempt's 300 ms, the second 2 s after the next:
        // a line every 0.1 s names each while it waits (the second, waited on longest, is asserted),
        // and how long is left of the wait.
        #expect(lines.contains { $0.contains("; nothing has arrived for ") }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("; 2 attempts failed and are tried again, the last: \(url) timed out (attempt 2 of 3; trying again)") }, "\(lines)")
        // While more than a second of the wait is left, the line says how long.
        #expect(lines.contains { $0.hasSuffix("the last: \(url) timed out (attempt 2 of 3; trying again in 1 s)") }, "\(lines)")
        #expect(!lines.contains { $0.contains("attempt 3 of 3") }, "the last attempt is no retry: it is the failure")
        #expect(download.standardOutput.contains("stopped: cannot download the style \(url): \(url) timed out"), "\(download.standardOutput)")
    }

    @Test func aDownloadEndsAtItsTimeoutKeepingWhatCameAndSaysSo() async throws {
        let silent = try DroppingServer(.hold)
        defer { silent.stop() }
        let folder = try FixtureDirectory()
        let url = "http://127.0.0.1:\(silent.port)/style.json"
        // Without --timeout the default attempts (30 s of silence each, 4 of them) would take minutes.
        let download = try await CommandRunner.run(["region", "download", url, "--cache", folder.path + "/offline.db", "--timeout", "1s", "--json"] + area)
        // Well under the two minutes its attempts would take, whatever the machine's load.
        #expect(download.ran < .seconds(30), "the 1 s --timeout is the whole budget")
        #expect(download.status == 2, "\(download.standardError)")
        let result = try JSONParser.parse(Array(download.standardOutput.utf8))
        #expect(result["stopped"] == .string("the 1 s --timeout passed"), "\(download.standardOutput)")
        let bad = try await CommandRunner.run(["region", "download", url, "--cache", folder.path + "/offline.db", "--timeout", "0s"] + area)
        #expect(bad.status == 64 && bad.standardError.contains("--timeout must be 1ms or more"), "\(bad.standardError)")
    }
}
