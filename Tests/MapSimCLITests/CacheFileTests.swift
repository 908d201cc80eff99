import Foundation
import Testing
import MapSimTesting

/// The cache file is the user's: found where they said, created only when something is cached, never
/// set aside unless SQLite says it is not a database, and served read-only when it cannot be written.
@Suite("mapsim cache files", .serialized)
struct CacheFileTests {
    private func remoteLoad(cache: String, in directory: String, offline: Bool = false, unprivileged: Bool = false) throws -> CommandRunner.Result {
        try CommandRunner.run(["load", "https://maps.test/style.json", "--network", "lan", "--mirror", "https://maps.test/=\(SampleStyle.folder)",
                               "--cache", cache, "--quiet"] + (offline ? ["--offline"] : []), in: directory, unprivileged: unprivileged)
    }

    @Test func aRelativeCacheNameIsInTheCurrentFolderAndWarmOnTheSecondRun() throws {
        let fixture = try FixtureDirectory()
        let first = try remoteLoad(cache: "X.db", in: fixture.path)
        #expect(first.status == 0 && first.standardError.isEmpty, "\(first.standardError)")
        #expect(FileManager.default.fileExists(atPath: fixture.path + "/X.db"))
        let second = try remoteLoad(cache: "X.db", in: fixture.path, offline: true)
        #expect(second.status == 0 && second.standardError.isEmpty, "\(second.standardError)")
        #expect(second.standardOutput.contains("answered by    database 10"), "\(second.standardOutput)")
        let files = try FileManager.default.contentsOfDirectory(atPath: fixture.path)
        #expect(!files.contains { $0.contains(".corrupt") }, "\(files)")
    }

    @Test func aLoadThatTouchesNoNetworkWritesNoCache() throws {
        let home = try FixtureDirectory()
        let result = try CommandRunner.run(["load", "styles/sample/style.json", "--quiet"], environment: ["XDG_CACHE_HOME": home.path])
        #expect(result.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty, "the default cache was created by a local load")
        let noCache = try CommandRunner.run(["load", "https://maps.test/style.json", "--network", "lan", "--mirror",
                                             "https://maps.test/=\(SampleStyle.folder)", "--no-cache", "--quiet"], environment: ["XDG_CACHE_HOME": home.path])
        #expect(noCache.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty, "--no-cache wrote to disk")
    }

    @Test func onlyAFileThatIsNotADatabaseIsSetAside() throws {
        let fixture = try FixtureDirectory()
        try fixture.write("garbage.db", String(repeating: "not a database ", count: 400))
        let garbage = try remoteLoad(cache: "garbage.db", in: fixture.path)
        #expect(garbage.status == 0)
        #expect(garbage.standardError.contains("is not a readable mapsim cache"))
        #expect(FileManager.default.fileExists(atPath: fixture.path + "/garbage.db.corrupt"))
        // A folder where the cache should be is an error of the user's, not a corrupt cache: kept as it is.
        try FileManager.default.createDirectory(atPath: fixture.path + "/folder.db", withIntermediateDirectories: true)
        let folder = try remoteLoad(cache: "folder.db", in: fixture.path)
        #expect(folder.status == 0 && folder.standardError.contains("running without a cache"), "\(folder.standardError)")
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/folder.db.corrupt"))
    }

    @Test func aReadOnlyCacheServesAndWarnsOnceAsAnUnprivilegedUser() throws {
        let fixture = try FixtureDirectory()
        let folder = fixture.path + "/ro"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let warm = try remoteLoad(cache: folder + "/cache.db", in: fixture.path)
        #expect(warm.status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/cache.db"))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: folder + "/cache.db")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
        let offline = try remoteLoad(cache: folder + "/cache.db", in: fixture.path, offline: true, unprivileged: true)
        #expect(offline.status == 0, "\(offline.standardError)")
        #expect(offline.standardOutput.contains("answered by    database 10"), "\(offline.standardOutput)")
        #expect(offline.standardError.components(separatedBy: "nothing will be written").count == 2, "\(offline.standardError)")
        let stats = try CommandRunner.run(["cache", "stats", "--json", "--cache", folder + "/cache.db"], in: fixture.path, unprivileged: true)
        #expect(stats.status == 0 && stats.standardOutput.contains("\"tiles\":4"), "\(stats.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/cache.db")) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["cache.db"])
    }
}
