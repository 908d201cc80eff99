import Foundation
import Testing
import MapSimTesting

/// The cache file is the user's: found where they said, created only when something is cached, never
/// set aside unless SQLite says it is not a database, and served read-only when it cannot be written.
@Suite("mapsim cache files", .serialized)
struct CacheFileTests {
    /// A load of the sample through the simulated network into `cache` (the default cache when nil).
    private func remoteLoad(cache: String?, in directory: String, offline: Bool = false, unprivileged: Bool = false,
                            mirroring folder: String = SampleStyle.folder, environment: [String: String?] = [:]) async throws -> CommandRunner.Result {
        try await CommandRunner.run(["load", "https://maps.test/style.json", "--network", "lan", "--mirror", "https://maps.test/=\(folder)", "--quiet"]
                                    + (cache.map { ["--cache", $0] } ?? []) + (offline ? ["--offline"] : []),
                                    in: directory, environment: environment, unprivileged: unprivileged)
    }

    @Test func aRelativeCacheNameIsInTheCurrentFolderAndWarmOnTheSecondRun() async throws {
        let fixture = try FixtureDirectory()
        let first = try await remoteLoad(cache: "X.db", in: fixture.path)
        #expect(first.status == 0 && first.standardError.isEmpty, "\(first.standardError)")
        #expect(FileManager.default.fileExists(atPath: fixture.path + "/X.db"))
        let second = try await remoteLoad(cache: "X.db", in: fixture.path, offline: true)
        #expect(second.status == 0 && second.standardError.isEmpty, "\(second.standardError)")
        #expect(second.standardOutput.contains("answered by    database 11"), "\(second.standardOutput)")
        let files = try FileManager.default.contentsOfDirectory(atPath: fixture.path)
        #expect(!files.contains { $0.contains(".corrupt") }, "\(files)")
    }

    @Test func aLoadThatTouchesNoNetworkWritesNoCache() async throws {
        let home = try FixtureDirectory()
        let result = try await CommandRunner.run(["load", "styles/sample/style.json", "--quiet"], environment: ["XDG_CACHE_HOME": home.path])
        #expect(result.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty, "the default cache was created by a local load")
        let noCache = try await CommandRunner.run(["load", "https://maps.test/style.json", "--network", "lan", "--mirror",
                                             "https://maps.test/=\(SampleStyle.folder)", "--no-cache", "--quiet"], environment: ["XDG_CACHE_HOME": home.path])
        #expect(noCache.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty, "--no-cache wrote to disk")
    }

    /// `~` is `$HOME`, as in the shell: a CI job that gives itself a home gets its cache there, not in
    /// the account's. A relative `XDG_CACHE_HOME` is ignored, as the XDG specification says.
    @Test func theDefaultCacheIsInHOMEAndARelativeXDGCacheHomeIsIgnored() async throws {
        let home = try FixtureDirectory()
        let work = try FixtureDirectory()
        let result = try await remoteLoad(cache: nil, in: work.path, environment: ["HOME": home.path, "XDG_CACHE_HOME": "relative/cache"])
        #expect(result.status == 0 && result.standardError.isEmpty, "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: home.path + "/.cache/mapsim/cache.db"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty, "nothing made in the current folder")
    }

    @Test func aFileInAFolderThatDoesNotExistIsRefusedAlikeForTheCacheAndTheEvents() async throws {
        let fixture = try FixtureDirectory()
        let cache = try await CommandRunner.run(["load", "styles/sample/style.json", "-q", "--cache", fixture.path + "/no/such/cache.db"])
        let events = try await CommandRunner.run(["load", "styles/sample/style.json", "-q", "--events", fixture.path + "/no/such/events.jsonl"])
        #expect(cache.status == 74 && cache.standardError.contains("the folder \(fixture.path)/no/such does not exist"), "\(cache.standardError)")
        #expect(events.status == 74 && events.standardError.contains("the folder \(fixture.path)/no/such does not exist"), "\(events.standardError)")
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/no"), "nothing made")
    }

    @Test func negativeNumbersAreValuesNamedOutOfRange() async throws {
        for (arguments, message) in [(["--size", "-512x512"], "--size must be WIDTHxHEIGHT with each side from 1 to 16384 pixels, not -512x512"),
                                     (["--size", "100000x100000"], "from 1 to 16384 pixels, not 100000x100000"),
                                     (["--timeout", "-1"], "The value '-1' is invalid for '--timeout <DURATION>'"),
                                     (["--timeout", "2days"], "The value '2days' is invalid for '--timeout <DURATION>'"),
                                     (["--timeout", "25h"], "--timeout must be above 0 and at most a day (86400 s), not 90000 s"),
                                     (["--pixel-ratio", "-1"], "--pixel-ratio must be above 0 and at most 8"),
                                     (["--zoom", "-3"], "--zoom must be between 0 and 25.5, not -3.0")] {
            let result = try await CommandRunner.run(["load", "styles/sample/style.json", "-q"] + arguments)
            #expect(result.status == 64 && result.standardError.contains(message) && !result.standardError.contains("Missing value"), "\(arguments): \(result.standardError)")
        }
    }

    @Test func aUsersFileGivenAsTheCacheIsRefusedUntouched() async throws {
        let fixture = try FixtureDirectory()
        let text = String(repeating: "not a database ", count: 400)
        try fixture.write("garbage.db", text)
        let garbage = try await remoteLoad(cache: "garbage.db", in: fixture.path)
        #expect(garbage.status == 74 && garbage.standardError.contains("garbage.db is not a cache") && garbage.standardError.contains("left as it is"),
                "\(garbage.standardError)")
        #expect(try String(contentsOfFile: fixture.path + "/garbage.db", encoding: .utf8) == text)
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/garbage.db.corrupt"))
        // The style itself, given as the cache by mistake.
        let style = try String(contentsOfFile: SampleStyle.stylesFolder + "/sample/style.json", encoding: .utf8)
        try fixture.write("style.json", style)
        for command in [["load", "style.json", "-q", "--cache", "style.json"], ["region", "list", "--cache", "style.json"],
                        ["region", "download", "style.json", "--bounds", "-122.5,37.7,-122.3,37.9", "--min-zoom", "10", "--max-zoom", "10", "--cache", "style.json"]] {
            let result = try await CommandRunner.run(command, in: fixture.path)
            #expect(result.status == 74 && result.standardError.contains("style.json is not a cache"), "\(command): \(result.standardError)")
            #expect(try String(contentsOfFile: fixture.path + "/style.json", encoding: .utf8) == style)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.path).sorted() == ["garbage.db", "style.json"], "nothing moved aside or made")
        // A folder where the cache should be is an error of the user's, not a corrupt cache: kept as it
        // is, and the command fails as it fails for any file it cannot write.
        try FileManager.default.createDirectory(atPath: fixture.path + "/folder.db", withIntermediateDirectories: true)
        let folder = try await remoteLoad(cache: "folder.db", in: fixture.path)
        #expect(folder.status == 74 && folder.standardError.contains("folder.db is a folder, not a cache"), "\(folder.standardError)")
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/folder.db.corrupt"))
    }

    @Test func aReadOnlyCacheServesAndWarnsOnceAsAnUnprivilegedUser() async throws {
        let fixture = try FixtureDirectory()
        // The user `nobody` must reach the style wherever the clone is (a private folder too): a copy
        // of the sample in a folder everyone may read.
        let sample = fixture.path + "/sample"
        try FileManager.default.copyItem(atPath: SampleStyle.folder, toPath: sample)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fixture.path)
        let folder = fixture.path + "/ro"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let warm = try await remoteLoad(cache: folder + "/cache.db", in: fixture.path, mirroring: sample)
        #expect(warm.status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/cache.db"))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: folder + "/cache.db")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
        let offline = try await remoteLoad(cache: folder + "/cache.db", in: fixture.path, offline: true, unprivileged: true, mirroring: sample)
        #expect(offline.status == 0, "\(offline.standardError)")
        #expect(offline.standardOutput.contains("answered by    database 11"), "\(offline.standardOutput)")
        #expect(offline.standardError.components(separatedBy: "nothing will be written").count == 2, "\(offline.standardError)")
        let stats = try await CommandRunner.run(["cache", "stats", "--json", "--cache", folder + "/cache.db"], in: fixture.path, unprivileged: true)
        #expect(stats.status == 0 && stats.standardOutput.contains("\"tiles\":5"), "\(stats.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/cache.db")) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["cache.db"])
    }
}

/// Output goes where the user said, and a failed write is never a success.
@Suite("mapsim output")
struct OutputTests {
    @Test func aFailedWriteToStandardOutputIsExit74() async throws {
        // Waited for on a thread of its own, as `CommandRunner` does: never one of the concurrency pool's.
        let (status, message) = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Swift.Result {
                    let process = Process()
                    process.executableURL = CommandRunner.executable
                    process.arguments = ["load", "styles/sample/style.json"]
                    process.currentDirectoryURL = URL(fileURLWithPath: SampleStyle.stylesFolder + "/..")
                    process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
                    let error = Pipe()
                    process.standardError = error
                    try process.run()
                    let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    process.waitUntilExit()
                    return (process.terminationStatus, message)
                })
            }
        }
        #expect(status == 74)
        #expect(message.contains("cannot write to standard output: No space left on device"), "\(message)")
    }

    /// Two options that would write one file are refused before anything runs (and nothing is made):
    /// each would write over the other, and what one wrote would be lost.
    @Test func twoOptionsNamingOneFileAreRefusedBeforeAnythingRuns() async throws {
        let fixture = try FixtureDirectory()
        let out = fixture.path + "/out.jsonl"
        try FileManager.default.createSymbolicLink(atPath: fixture.path + "/link.jsonl", withDestinationPath: out)
        for (arguments, options) in [(["load", "styles/sample/style.json", "-q", "--events", out, "--trace", out], "--events and --trace"),
                                     (["load", "styles/sample/style.json", "-q", "--summary", out, "--junit", fixture.path + "/./out.jsonl"], "--summary and --junit"),
                                     (["load", "styles/sample/style.json", "-q", "--events", fixture.path + "/link.jsonl", "--trace", out], "--events and --trace"),
                                     (["region", "download", "styles/sample/style.json", "--bounds", "0,0,1,1", "--min-zoom", "0", "--max-zoom", "1",
                                       "--cache", out, "--events", out], "--cache and --events"),
                                     (["serve", "styles/sample/style.json", "--events", out, "--trace", out], "--events and --trace")] {
            let result = try await CommandRunner.run(arguments)
            #expect(result.status == 64 && result.standardError.contains("\(options) both name "), "\(arguments): \(result.standardError)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.path) == ["link.jsonl"], "\(arguments)")
        }
        // Standard output twice is not one file.
        let both = try await CommandRunner.run(["load", "styles/sample/style.json", "-q", "--events", "-", "--summary", fixture.path + "/summary.json"])
        #expect(both.status == 0, "\(both.standardError)")
    }

    @Test func dashIsStandardOutputAndEventsKeepTheirLink() async throws {
        let export = try await CommandRunner.run(["export", "--perfetto", "traces/cold-load.trace.yaml", "-o", "-"])
        #expect(export.status == 0 && export.standardOutput.hasPrefix("{\"traceEvents\":"))
        let fixture = try FixtureDirectory()
        try FileManager.default.createSymbolicLink(atPath: fixture.path + "/events.jsonl", withDestinationPath: fixture.path + "/kept.jsonl")
        let load = try await CommandRunner.run(["load", "styles/sample/style.json", "--quiet", "--events", fixture.path + "/events.jsonl"])
        #expect(load.status == 0)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: fixture.path + "/events.jsonl")) == fixture.path + "/kept.jsonl")
        #expect(try String(contentsOfFile: fixture.path + "/kept.jsonl", encoding: .utf8).hasPrefix("{\"type\":"))
        let missing = try await CommandRunner.run(["load", "styles/sample/style.json", "--quiet", "--trace", "/nonexistent/x.yaml"])
        #expect(missing.status == 74 && missing.standardError.contains("the folder /nonexistent does not exist"))
    }
}
