import Foundation
import GRDB
import Synchronization
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimCache
@testable import MapSimJSON

/// What mapsim writes into a database survives a SIGKILL at any instant: `region download` is
/// killed at seeded points of its traffic (the Nth request to reach the server), and the database
/// must pass SQLite's integrity check, open as MapLibre's, hold what was answered, and resume with
/// exactly what is missing. A load's ambient cache is killed the same way.
@Suite("Durable writes under SIGKILL", .serialized)
struct DurableWritesTests {
    private static let area = ["--bounds", "-122.62,37.70,-122.28,37.90", "--min-zoom", "0", "--max-zoom", "11"]
    /// The sample's region: the style, its TileJSON, 4 sprite parts, 130 glyph ranges and 29 tiles.
    private static let resources = 165

    /// Answers held back until the test lets them go.
    private final class Gate: Sendable {
        private let stream: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation

        init() {
            (stream, continuation) = AsyncStream<Void>.makeStream()
        }

        func wait() async {
            for await _ in stream {}
        }

        func open() {
            continuation.finish()
        }
    }

    /// SQLite's verdict on the file, after rolling back what a killed writer left in its journal.
    private func integrity(_ path: String) throws -> String {
        try DatabaseQueue(path: path).read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ") }
    }

    /// How many resources region 1 holds, read as another process would.
    private func held(_ path: String) throws -> Int {
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        let database = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        return try database.read { db in
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name = 'region_resources'") == 1 else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM region_resources WHERE region_id = 1) + (SELECT COUNT(*) FROM region_tiles WHERE region_id = 1)") ?? 0
        }
    }

    @Test(arguments: [(1, true), (2, false), (3, true), (4, false), (5, true), (6, false)])
    func aKilledDownloadKeepsWhatWasAnsweredAndResumesWithWhatIsMissing(seed: UInt64, settled: Bool) async throws {
        var generator = SplitMix64(seed: seed)
        // The request at which the client dies: anywhere in the download, the style's own included.
        let fatal = Int.random(in: 1...Self.resources, using: &generator)
        let server = try await FixtureServer.start(serving: SampleStyle.folder)
        defer { Task { await server.stop() } }
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/app.db"
        let arguments = ["region", "download", server.baseURL + "/style.json"] + Self.area + ["--cache", path, "--events", fixture.path + "/events.jsonl", "-q"]
        let child = Mutex<pid_t>(0)
        let gate = Gate()
        server.intercept { number, _ in
            guard number >= fatal else { return }
            if number == fatal {
                // Settled: every answer sent so far has reached the database before the kill — they
                // must not wait for a batch to fill. Otherwise the kill lands wherever the client is.
                if settled {
                    let deadline = ContinuousClock.now + .seconds(30)
                    while (try? self.held(path)) != fatal - 1, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
                }
                kill(child.withLock { $0 }, SIGKILL)
            }
            await gate.wait()
        }
        let killed = try await CommandRunner.run(arguments) { pid in child.withLock { $0 = pid } }
        gate.open()
        #expect(killed.status == 128 + SIGKILL || killed.status == SIGKILL, "killed at request \(fatal): \(killed.status) \(killed.standardOutput)")

        #expect(try integrity(path) == "ok", "killed at request \(fatal)")
        let kept = try held(path)
        if settled { #expect(kept == fatal - 1, "every answer before the kill is kept (request \(fatal))") }
        // The events written before the kill are whole lines.
        let events = (try? String(contentsOfFile: fixture.path + "/events.jsonl", encoding: .utf8)) ?? ""
        #expect(events.isEmpty || events.hasSuffix("\n"))
        for line in events.split(separator: "\n") { #expect((try? JSONParser.parse(String(line))) != nil, "\(line)") }

        // The same command resumes, asking for exactly what the database lacks. Requests the dead
        // client sent may still reach the server meanwhile, but only for what was missing too: the
        // paths asked since the kill are each missing one.
        server.intercept(nil)
        let before = server.requestCount
        let resumed = try await CommandRunner.run(arguments)
        let asked = Set(server.received[before...].map(\.path)).count
        #expect(resumed.status == 0, "\(resumed.standardOutput)\(resumed.standardError)")
        #expect(resumed.standardOutput.hasPrefix("region 1 complete: \(Self.resources) of \(Self.resources) resources"), "\(resumed.standardOutput)")
        #expect(asked == Self.resources - kept, "killed at request \(fatal), \(kept) kept")
        #expect(try integrity(path) == "ok")
        // MapLibre's layout, nothing set aside.
        let opened = try OfflineDatabase(path: path, options: .init(readOnly: true))
        let region = try #require(try opened.region(1))
        let status = try opened.status(of: region)
        #expect(opened.warnings.isEmpty && status.isComplete)
    }

    @Test func aKilledContentImportLeavesOneWholeVersion() async throws {
        let fixture = try FixtureDirectory()
        let site = fixture.path + "/site"
        try FileManager.default.copyItem(atPath: SampleStyle.stylesFolder + "/content/site", toPath: site)
        #expect(try await CommandRunner.run(["content", "keygen", "-o", "k"], in: fixture.path).status == 0)
        for version in ["1", "2"] {
            #expect(try await CommandRunner.run(["content", "pack", "site", "-o", "v\(version).pkg", "--key", "k", "--site", "city", "--version", version],
                                                in: fixture.path).status == 0)
        }
        let load = ["load", "site/style.json", "--offline", "--cache", "c.db", "-q"]
        #expect(try await CommandRunner.run(load + ["--content", "v1.pkg", "--public-key", "k.pub"], in: fixture.path).status == 0)
        var generator = SplitMix64(seed: 21)
        for _ in 0..<4 {
            // The kill lands anywhere in the import of version 2: no request marks the instants here.
            let delay = Int.random(in: 0...300_000, using: &generator)
            let killed = try await CommandRunner.run(load + ["--content", "v2.pkg", "--public-key", "k.pub"], in: fixture.path) { pid in
                Thread.detachNewThread {
                    usleep(useconds_t(delay))
                    kill(pid, SIGKILL)
                }
            }
            #expect(try integrity(fixture.path + "/c.db") == "ok", "killed after \(delay) µs (status \(killed.status))")
            let database = try OfflineDatabase(path: fixture.path + "/c.db", options: .init(readOnly: true))
            let installed = try database.installedContentVersion(site: "city")
            #expect(installed == 1 || installed == 2, "one version installed: \(String(describing: installed))")
            // Whichever it is, it is whole: the site loads offline, nothing missing.
            let offline = try await CommandRunner.run(load, in: fixture.path)
            #expect(offline.status == 0 && offline.standardOutput.contains("errors         none"), "killed after \(delay) µs: \(offline.standardOutput)")
        }
    }

    @Test(arguments: [11, 12, 13])
    func aKilledLoadLeavesACacheMapLibreOpens(seed: UInt64) async throws {
        var generator = SplitMix64(seed: seed)
        let fatal = Int.random(in: 1...11, using: &generator)
        let server = try await FixtureServer.start(serving: SampleStyle.folder)
        defer { Task { await server.stop() } }
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/cache.db"
        let child = Mutex<pid_t>(0)
        let gate = Gate()
        server.intercept { number, _ in
            guard number >= fatal else { return }
            if number == fatal { kill(child.withLock { $0 }, SIGKILL) }
            await gate.wait()
        }
        let killed = try await CommandRunner.run(["load", server.baseURL + "/style.json", "--cache", path, "-q"]) { pid in child.withLock { $0 = pid } }
        gate.open()
        #expect(killed.status == 128 + SIGKILL || killed.status == SIGKILL)
        if FileManager.default.fileExists(atPath: path) {
            #expect(try integrity(path) == "ok")
            #expect(try OfflineDatabase(path: path).warnings.isEmpty)
        }
        server.intercept(nil)
        let again = try await CommandRunner.run(["load", server.baseURL + "/style.json", "--cache", path, "-q"])
        #expect(again.status == 0 && again.standardOutput.contains("errors         none"), "\(again.standardOutput)")
        #expect(try integrity(path) == "ok")
    }
}
