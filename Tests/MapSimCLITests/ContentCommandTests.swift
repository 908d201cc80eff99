import Foundation
import Testing
import MapSimJSON
import MapSimTesting

/// `mapsim content keygen|pack|verify`.
@Suite("CLI.content")
struct ContentCommandTests {
    /// A copy of the sample style as a site, a key `k`, its version 1 packed as `v1.mapsimpkg`, and a
    /// server of the site on loopback.
    private func signedSite() async throws -> (folder: FixtureDirectory, site: String, server: FixtureServer) {
        let folder = try FixtureDirectory()
        let site = folder.path + "/site"
        try FileManager.default.copyItem(atPath: SampleStyle.folder, toPath: site)
        #expect(try await CommandRunner.run(["content", "keygen", "-o", "k"], in: folder.path).status == 0)
        #expect(try await CommandRunner.run(["content", "pack", site, "-o", "v1.mapsimpkg", "--key", "k", "--site", "city"], in: folder.path).status == 0)
        return (folder, site, try await FixtureServer.start(serving: site))
    }

    @Test func keysPackAndVerifyAndATamperedPackageIsRefused() async throws {
        let folder = try FixtureDirectory()
        let keygen = try await CommandRunner.run(["content", "keygen", "-o", "k"], in: folder.path)
        #expect(keygen.status == 0, "\(keygen.standardError)")
        let permissions = try FileManager.default.attributesOfItem(atPath: folder.path + "/k")[.posixPermissions] as? Int
        #expect(permissions == 0o600, "the private key is the owner's only")
        #expect(try await CommandRunner.run(["content", "keygen", "-o", "k"], in: folder.path).status == 64, "no silent overwrite")
        let site = SampleStyle.folder
        let pack = try await CommandRunner.run(["content", "pack", site + "/style.json", "-o", folder.path + "/bad.mapsimpkg", "--key", folder.path + "/k"])
        #expect(pack.status == 65, "a style is not a manifest: \(pack.standardError)")
        let copy = folder.path + "/site"
        try FileManager.default.copyItem(atPath: site, toPath: copy)
        let packed = try await CommandRunner.run(["content", "pack", copy, "-o", folder.path + "/s.mapsimpkg", "--key", folder.path + "/k", "--site", "city", "--version", "2"])
        #expect(packed.status == 0 && packed.standardOutput.contains("city version 2"), "\(packed.standardError)")
        #expect(FileManager.default.fileExists(atPath: copy + "/manifest.json"))
        let valid = try await CommandRunner.run(["content", "verify", folder.path + "/s.mapsimpkg", "--public-key", folder.path + "/k.pub"])
        #expect(valid.status == 0 && valid.standardOutput.contains("valid"))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/s.mapsimpkg"))
        bytes[bytes.count / 3] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: folder.path + "/t.mapsimpkg"))
        let tampered = try await CommandRunner.run(["content", "verify", folder.path + "/t.mapsimpkg", "--public-key", folder.path + "/k.pub"])
        #expect(tampered.status == 65 && tampered.standardError.contains("not valid"), "\(tampered.standardError)")
        let wrongKey = try await CommandRunner.run(["content", "verify", folder.path + "/s.mapsimpkg", "--public-key", folder.path + "/k"])
        #expect(wrongKey.status == 65, "a private key is not the public one")
    }

    @Test func aPackageLetsAFirstRunLoadOfflineAndATamperedOneWritesNothing() async throws {
        let folder = try FixtureDirectory()
        let site = folder.path + "/site"
        try FileManager.default.copyItem(atPath: SampleStyle.folder, toPath: site)
        #expect(try await CommandRunner.run(["content", "keygen", "-o", "k"], in: folder.path).status == 0)
        #expect(try await CommandRunner.run(["content", "pack", site, "-o", "city.mapsimpkg", "--key", "k"], in: folder.path).status == 0)
        let server = try await FixtureServer.start(serving: site)
        defer { Task { await server.stop() } }
        let style = server.baseURL + "/style.json"
        let without = try await CommandRunner.run(["load", style, "--offline", "--cache", "without.db", "-q"], in: folder.path)
        #expect(without.standardOutput.contains("not reached") || without.status != 0, "offline with an empty cache, nothing loads")
        let first = try await CommandRunner.run(["load", style, "--offline", "--cache", "first.db", "-q", "--content", "city.mapsimpkg", "--public-key", "k.pub"],
                                                in: folder.path)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("errors         none") && first.standardOutput.contains("answered by    database"), "\(first.standardOutput)")
        #expect(first.standardError.contains("imported site version 1"))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/city.mapsimpkg"))
        bytes[bytes.count / 2] ^= 0x04
        try bytes.write(to: URL(fileURLWithPath: folder.path + "/tampered.mapsimpkg"))
        let tampered = try await CommandRunner.run(["load", style, "--offline", "--cache", "tampered.db", "-q", "--content", "tampered.mapsimpkg",
                                                    "--public-key", "k.pub"], in: folder.path)
        #expect(tampered.status == 65 && tampered.standardError.contains("nothing was imported"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/tampered.db"), "the cache is not even created")
    }

    @Test func aCheckRespectsTheMaximumAgeDownloadsOnlyWhatChangedAndAFailedOneKeepsTheOldVersion() async throws {
        let (folder, site, server) = try await signedSite()
        defer { Task { await server.stop() } }
        let style = server.baseURL + "/style.json"
        func check(_ extra: [String] = []) async throws -> CommandRunner.Result {
            try await CommandRunner.run(["content", "check", style, "--cache", "c.db"] + extra, in: folder.path)
        }
        let first = try await check()
        #expect(first.status == 0 && first.standardOutput.contains("version none → 1: 291 items"), "\(first.standardOutput)\(first.standardError)")
        let before = server.requestCount
        #expect(try await check().standardOutput.contains("nothing requested"))
        let skipped = try JSONParser.parse(Array(try await check(["--json"]).standardOutput.utf8))
        #expect(skipped["skipped"] == .bool(true) && skipped["version"] == .number(1) && skipped["site"] == .string("city"))
        #expect(server.requestCount == before, "under the maximum age no request is made")
        let forced = try await check(["--force"])
        #expect(forced.standardOutput.contains("version 1 is the newest") && server.requestCount == before + 1, "forced: exactly the manifest")
        #expect(server.received.last?.headers["if-none-match"] != nil, "a conditional request")
        #expect(try await check(["--max-age", "0"]).status == 0 && server.requestCount == before + 2, "past the maximum age: the manifest again")

        // Version 2 changes the style and one tile; the tile's download fails once.
        var style2 = try String(contentsOfFile: site + "/style.json", encoding: .utf8)
        style2 = style2.replacingOccurrences(of: "Mapsim City", with: "Mapsim City 2")
        try style2.write(toFile: site + "/style.json", atomically: true, encoding: .utf8)
        try Data([0x1A, 0x00]).write(to: URL(fileURLWithPath: site + "/tiles/0/0/0.pbf"))
        try FileManager.default.removeItem(atPath: site + "/manifest.json")
        #expect(try await CommandRunner.run(["content", "pack", site, "-o", "v2.mapsimpkg", "--key", "k", "--site", "city", "--version", "2"],
                                            in: folder.path).status == 0)
        server.reply("/tiles/0/0/0.pbf", with: .status(500), times: 1)
        let failed = try await check(["--force"])
        #expect(failed.status == 1 && failed.standardError.contains("item tiles/0/0/0.pbf") && failed.standardError.contains("kept whole"),
                "\(failed.standardError)")
        // A lying server: the tile cut in half, sent as a whole answer.
        let tile = try [UInt8](Data(contentsOf: URL(fileURLWithPath: site + "/tiles/0/0/0.pbf")))
        server.reply("/tiles/0/0/0.pbf", with: .status(200, body: Array(tile.prefix(1))), times: 1)
        let cut = try await check(["--force", "--json"])
        let cutReport = try JSONParser.parse(Array(cut.standardOutput.utf8))
        #expect(cut.status == 1 && cutReport["errors"]?["tiles/0/0/0.pbf"]?.stringValue?.contains("SHA-256") == true, "\(cut.standardOutput)")
        #expect(cutReport["version"] == .number(1), "version 1 is still the one installed")
        let offline = try await CommandRunner.run(["load", style, "--offline", "--cache", "c.db", "-q"], in: folder.path)
        #expect(offline.status == 0 && offline.standardOutput.contains("errors         none"), "version 1 still loads whole offline: \(offline.standardOutput)")
        let updated = try await check(["--force", "--events", "check.jsonl"])
        #expect(updated.standardOutput.contains("version 1 → 2: 2 items") && updated.standardOutput.contains("style style.json")
                && updated.standardOutput.contains("tile tiles/0/0/0.pbf"), "\(updated.standardOutput)")
        let lines = try String(contentsOfFile: folder.path + "/check.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.filter { $0.contains(#""type":"resource-request""#) }.count == 3, "the manifest and the two changed items")
        #expect(lines.last?.contains(#""type":"content-complete-all""#) == true && lines.last?.contains(#""is-successful":true,"is-online-data":true"#) == true)
    }

    @Test func theFirstOnlineCheckIsMandatoryWhenAskedAndItsEventsAreInTheStream() async throws {
        let (folder, _, server) = try await signedSite()
        defer { Task { await server.stop() } }
        let style = server.baseURL + "/style.json"
        let package = ["--content", "v1.mapsimpkg", "--public-key", "k.pub"]
        let offline = try await CommandRunner.run(["load", style, "--offline", "--cache", "a.db", "-q", "--require-first-online-check"] + package, in: folder.path)
        #expect(offline.status == 69 && offline.standardError.contains("first online check is mandatory"), "\(offline.standardError)")
        let online = try await CommandRunner.run(["load", style, "--cache", "b.db", "--events", "-", "-q", "--require-first-online-check"] + package, in: folder.path)
        #expect(online.status == 0, "\(online.standardError)")
        // The times are those of the real requests: compare the types and the data.
        let content = online.standardOutput.split(separator: "\n").filter { $0.contains(#""type":"content-"#) }
            .map { $0.replacing(/"begin":\d+,"end":\d+,/, with: "") }
        #expect(content == [
            #"{"type":"content-ready","data":{"site":"city","is-online-data":false}}"#,
            #"{"type":"content-start","data":{"site":"city","is-online-data":true}}"#,
            #"{"type":"content-ready","data":{"site":"city","is-online-data":true}}"#,
            #"{"type":"content-complete-all","data":{"site":"city","is-successful":true,"is-online-data":true,"errors":{}}}"#,
        ])
        let manifestRequests = online.standardOutput.split(separator: "\n").filter { $0.contains(#""type":"resource-request""#) && $0.contains("manifest.json") }
        #expect(manifestRequests.count == 1, "the manifest request goes through the map's pipeline, its event in the stream")
        let later = try await CommandRunner.run(["load", style, "--offline", "--cache", "b.db", "-q", "--require-first-online-check"], in: folder.path)
        #expect(later.status == 0 && later.standardOutput.contains("errors         none"), "once checked online, offline runs go on")
        let recheck = try await CommandRunner.run(["load", style, "--cache", "b.db", "--events", "-", "-q", "--check-content"], in: folder.path)
        #expect(recheck.standardOutput.contains(#""type":"content-complete-all","begin":0,"end":0,"data":{"site":"city","is-successful":true,"is-online-data":false"#),
                "--check-content under the maximum age: no request, the installed content: \(recheck.standardOutput.prefix(600))")
    }

    @Test func anUnusableTemporaryFolderIsAnEnvironmentErrorNamingItNotAnInvalidPackage() async throws {
        let result = try await CommandRunner.run(["content", "verify", "styles/content/city-v1.mapsimpkg", "--public-key", "styles/content/city.pub"],
                                                 environment: ["TMPDIR": "/nonexistent"])
        #expect(result.status == 74 && result.standardError.contains("/nonexistent") && !result.standardError.contains("not valid"), "\(result.standardError)")
    }

    @Test func anOlderPackageIsRefusedOverANewerInstalledVersionUnlessADowngradeIsAllowed() async throws {
        let (folder, site, server) = try await signedSite()
        defer { Task { await server.stop() } }
        #expect(try await CommandRunner.run(["content", "pack", site, "-o", "v2.mapsimpkg", "--key", "k", "--site", "city", "--version", "2"], in: folder.path).status == 0)
        let style = server.baseURL + "/style.json"
        func load(_ package: String, _ extra: [String] = []) async throws -> CommandRunner.Result {
            try await CommandRunner.run(["load", style, "--offline", "--cache", "c.db", "-q", "--content", package, "--public-key", "k.pub"] + extra, in: folder.path)
        }
        #expect(try await load("v2.mapsimpkg").status == 0)
        let older = try await load("v1.mapsimpkg")
        #expect(older.status == 65 && older.standardError.contains("city version 1 is older than version 2 installed"), "\(older.standardError)")
        // Keyed by the site, not by where its style is: the same site served elsewhere, or a file copy.
        let copy = folder.path + "/copy"
        try FileManager.default.copyItem(atPath: site, toPath: copy)
        let elsewhere = try await CommandRunner.run(["load", "copy/style.json", "--offline", "--cache", "c.db", "-q", "--content", "v1.mapsimpkg",
                                                     "--public-key", "k.pub"], in: folder.path)
        #expect(elsewhere.status == 65 && elsewhere.standardError.contains("a downgrade is refused"), "\(elsewhere.standardError)")
        let check = try await CommandRunner.run(["content", "check", style, "--cache", "c.db", "--force"], in: folder.path)
        #expect(check.standardOutput.contains("version 2 is the newest"), "version 2 is still the one installed: \(check.standardOutput)")
        let allowed = try await load("v1.mapsimpkg", ["--allow-downgrade"])
        #expect(allowed.status == 0 && allowed.standardError.contains("imported city version 1"), "\(allowed.standardError)")
    }

    @Test func packRefusesAPublicKeyAndAnEmptySite() async throws {
        let folder = try FixtureDirectory()
        #expect(try await CommandRunner.run(["content", "keygen", "-o", "k"], in: folder.path).status == 0)
        let site = SampleStyle.folder
        let publicKey = try await CommandRunner.run(["content", "pack", site, "-o", "p.mapsimpkg", "--key", "k.pub"], in: folder.path)
        #expect(publicKey.status == 64 && publicKey.standardError.contains("public key"), "\(publicKey.standardError)")
        try FileManager.default.copyItem(atPath: folder.path + "/k.pub", toPath: folder.path + "/renamed")
        let renamed = try await CommandRunner.run(["content", "pack", site, "-o", "p.mapsimpkg", "--key", "renamed"], in: folder.path)
        #expect(renamed.status == 65 && renamed.standardError.contains("can be read by others"), "\(renamed.standardError)")
        let empty = try await CommandRunner.run(["content", "pack", site, "-o", "p.mapsimpkg", "--key", "k", "--site", ""], in: folder.path)
        #expect(empty.status == 64 && empty.standardError.contains("--site"), "\(empty.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/p.mapsimpkg"), "nothing written")
    }
}
