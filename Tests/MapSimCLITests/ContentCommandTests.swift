import Foundation
import Testing
import MapSimTesting

/// `mapsim content keygen|pack|verify`.
@Suite("CLI.content")
struct ContentCommandTests {
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
}
