import Foundation
import GRDB
import Testing
import MapSimTesting

/// A disk that fills while mapsim writes — made real by a file size limit (`prlimit --fsize`), under
/// which every write past the limit fails as it does on a full disk: a download stops at the first
/// writes it loses and resumes once it can write, a cache the disk has no room for is not made and
/// the load goes on without it, and an output file that cannot grow is an error, not a signal.
@Suite("mapsim on a full disk")
struct FullDiskTests {
    /// The sample's region: 165 resources, of which 29 tiles, in a database of 116 KB.
    private static let sampleArea = ["--bounds", "-122.62,37.70,-122.28,37.90", "--min-zoom", "0", "--max-zoom", "11"]
    /// Room for the cache's schema (64 KB) and not for the sample's region.
    private static let roomForSomeOfTheRegion = 100_000

    private func integrity(_ path: String) throws -> String {
        try DatabaseQueue(path: path).read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ") }
    }

    @Test func aDownloadWhoseWritesAreLostStopsThereAndTheSameCommandResumesIt() async throws {
        let server = try await FixtureServer.start(serving: SampleStyle.folder)
        defer { Task { await server.stop() } }
        let fixture = try FixtureDirectory()
        let cache = fixture.path + "/offline.db"
        let arguments = ["region", "download", server.baseURL + "/style.json"] + Self.sampleArea + ["--cache", cache, "-q"]
        let full = try await CommandRunner.run(arguments, fileSizeLimit: Self.roomForSomeOfTheRegion)
        #expect(full.status == 74, "\(full.standardOutput)\(full.standardError)")
        #expect(full.standardError.contains("writes to the cache \(cache) were lost")
                && full.standardError.contains("The download stopped; what was stored before is kept, and the same command resumes it"), "\(full.standardError)")
        // Said once, as the error: not again as warnings.
        #expect(!full.standardError.contains("warning:"), "\(full.standardError)")
        #expect(try integrity(cache) == "ok")
        let resumed = try await CommandRunner.run(arguments)
        #expect(resumed.status == 0, "\(resumed.standardError)")
        #expect(resumed.standardError.contains("resuming region 1"), "\(resumed.standardError)")
        #expect(resumed.standardOutput.contains("complete: 165 of 165 resources"), "\(resumed.standardOutput)")
    }

    @Test func aDownloadStopsAtItsFirstLostWritesNotAtTheEndOfItsRegion() async throws {
        let server = try await FixtureServer.start(serving: SampleStyle.folder)
        defer { Task { await server.stop() } }
        let fixture = try FixtureDirectory()
        // 87,977 tiles, nearly all of which the server does not have (a 404 is stored too).
        let area = ["--bounds", "-125,35,-120,40", "--min-zoom", "0", "--max-zoom", "14"]
        let full = try await CommandRunner.run(["region", "download", server.baseURL + "/style.json"] + area + ["--cache", fixture.path + "/offline.db", "-q"],
                                               fileSizeLimit: 300_000)
        #expect(full.status == 74, "\(full.standardError)")
        #expect(full.standardError.contains("The download stopped"), "\(full.standardError)")
        // MapLibre Native would go on requesting all of them, keeping none.
        #expect(server.requestCount < 10_000, "\(server.requestCount) requests")
    }

    @Test func aCacheTheDiskHasNoRoomForIsNotMadeAndTheLoadGoesOnWithoutIt() async throws {
        let fixture = try FixtureDirectory()
        let load = ["load", "https://maps.test/style.json", "--network", "lan", "--mirror", "https://maps.test/=\(SampleStyle.folder)", "-q"]
        // Twice: a first run must leave nothing that makes the second fail.
        for _ in 1...2 {
            let result = try await CommandRunner.run(load + ["--cache", fixture.path + "/new.db"], fileSizeLimit: 20_000)
            #expect(result.status == 0 && result.standardOutput.contains("errors         none"), "\(result.standardError)")
            #expect(result.standardError.contains("warning: nothing was cached: cannot create the cache \(fixture.path)/new.db"), "\(result.standardError)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.path).isEmpty)
        }
        // An empty file of the user's is a cache to be: it stays as it is.
        try fixture.write("empty.db", "")
        let empty = try await CommandRunner.run(load + ["--cache", fixture.path + "/empty.db"], fileSizeLimit: 20_000)
        #expect(empty.status == 0 && empty.standardError.contains("nothing was cached"), "\(empty.standardError)")
        #expect(try FileManager.default.attributesOfItem(atPath: fixture.path + "/empty.db")[.size] as? Int == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.path) == ["empty.db"])
        // With room, it becomes one.
        let warm = try await CommandRunner.run(load + ["--cache", fixture.path + "/empty.db"])
        #expect(warm.status == 0 && warm.standardError.isEmpty, "\(warm.standardError)")
        #expect(try integrity(fixture.path + "/empty.db") == "ok")
    }

    @Test func aProxyWhoseCacheCannotGrowServesOnAndSaysSoOnceWhenItStops() async throws {
        let origin = try await FixtureServer.start(serving: SampleStyle.folder)
        defer { Task { await origin.stop() } }
        let fixture = try FixtureDirectory()
        // Room for the cache's schema (64 KB), not for what the origin gives.
        let serve = try RunningCommand(["serve", origin.baseURL + "/style.json", "--proxy", "--cache", fixture.path + "/proxy.db", "--port", "0", "--quiet"],
                                       fileSizeLimit: 66_000)
        try await serve.waitForLines { $0.contains { $0.hasPrefix("serving ") } }
        let line = try #require(serve.lines.first { $0.hasPrefix("serving ") })
        let url = String(line[try #require(line.range(of: " at http://")).lowerBound...].dropFirst(4).prefix { $0 != " " })
        // A region's worth of answers through the proxy: more than the room left in the schema's pages.
        let download = try await CommandRunner.run(["region", "download", url] + Self.sampleArea + ["--cache", fixture.path + "/client.db", "-q"])
        #expect(download.status == 0 && download.standardOutput.contains("complete: 165 of 165 resources"), "\(download.standardOutput)")
        serve.send(SIGTERM)
        let (status, standardError) = await serve.wait()
        #expect(status == 0, "\(standardError)")
        let lost = standardError.split(separator: "\n").filter { $0.contains("were lost") }
        #expect(lost.count == 1 && lost.first?.hasPrefix("mapsim: warning: writes to the cache \(fixture.path)/proxy.db were lost: ") == true
                && lost.first?.hasSuffix(" times)") == true, "\(standardError)")
    }

    @Test func aWritePastTheFileSizeLimitIsAnErrorNotASignal() async throws {
        let fixture = try FixtureDirectory()
        let result = try await CommandRunner.run(["load", "styles/sample/style.json", "-q", "--events", fixture.path + "/events.jsonl"], fileSizeLimit: 1_000)
        #expect(result.status == 74, "\(result.status): \(result.standardError)")
        #expect(result.standardError.contains("events.jsonl: cannot write: File too large"), "\(result.standardError)")
    }

    @Test(arguments: [["load", "styles/sample/style.json"], ["--help"]])
    func outputAndErrorsThatCannotBeWrittenAreExit74NotACrash(_ arguments: [String]) async throws {
        let fixture = try FixtureDirectory()
        // Standard error is a file already at the limit: what mapsim says there is lost, and it must
        // still exit as it says it does. (`--help` prints on the main thread, where the signal of a
        // write past the limit, SIGXFSZ, is not blocked.)
        try fixture.write("errors.txt", String(repeating: "x", count: 200))
        try fixture.write("output.txt", "")
        let status = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Swift.Result {
                    let process = Process()
                    // With the signal's default action, whatever the test runner has made of it.
                    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                    process.arguments = ["--default-signal=XFSZ", "prlimit", "--fsize=100", "--", CommandRunner.executable.path] + arguments
                    process.currentDirectoryURL = URL(fileURLWithPath: SampleStyle.stylesFolder + "/..")
                    process.standardOutput = FileHandle(forWritingAtPath: fixture.path + "/output.txt")
                    let errors = FileHandle(forWritingAtPath: fixture.path + "/errors.txt")
                    _ = try errors?.seekToEnd()
                    process.standardError = errors
                    try process.run()
                    process.waitUntilExit()
                    return process.terminationReason == .exit ? process.terminationStatus : -process.terminationStatus
                })
            }
        }
        #expect(status == 74, "\(arguments): killed by signal \(-status)")
        #expect(try FileManager.default.attributesOfItem(atPath: fixture.path + "/output.txt")[.size] as? Int == 100)
    }
}
