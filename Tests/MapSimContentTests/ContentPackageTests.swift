import Foundation
import Testing
import MapSim
import MapSimJSON
import MapSimTesting
@testable import MapSimContent
import ZIPFoundation

/// Signed packages: made from the content site's style, checked, and refused when anything in them changed.
@Suite("ContentPackage")
struct ContentPackageTests {
    private static let keys = ContentSigningKey.generate()
    private static let site = SampleStyle.stylesFolder + "/content/site"

    private func pack() throws -> (manifest: ContentManifest, package: [UInt8]) {
        let manifest = try ContentManifest.make(directory: Self.site, site: "city", version: 4)
        return (manifest, try ContentPackage.pack(manifest, root: Self.site, key: try ContentSigningKey.privateKey(Self.keys.privateKey)))
    }

    @Test func aPackageOpensWithItsPublicKeyAndHoldsEveryItem() throws {
        let (manifest, package) = try pack()
        #expect(manifest.items.contains { $0.url == "style.json" && $0.kind == .style })
        #expect(manifest.items.contains { $0.kind == .tile } && manifest.items.contains { $0.kind == .glyphs } && manifest.items.contains { $0.kind == .sprite })
        let opened = try ContentPackage(package, key: try ContentSigningKey.publicKey(Self.keys.publicKey))
        #expect(opened.manifest == manifest)
        let style = try #require(opened.items.first { $0.item.url == "style.json" })
        #expect(style.bytes == (try InputFile.read(Self.site + "/style.json", limit: 1 << 20)))
        #expect(try ContentManifest(json: manifest.json) == manifest, "the manifest reads back")
    }

    @Test func anotherKeyIsRefused() throws {
        let (_, package) = try pack()
        let other = try ContentSigningKey.publicKey(ContentSigningKey.generate().publicKey)
        #expect(throws: ContentError(.invalidPackage, "the signature does not match the manifest: the package was changed, or signed with another key")) {
            try ContentPackage(package, key: other)
        }
    }

    @Test func oneFlippedByteAnywhereIsRefused() throws {
        let (_, package) = try pack()
        let key = try ContentSigningKey.publicKey(Self.keys.publicKey)
        var random = SplitMix64(seed: 3)
        var refused = 0
        // Every 199th byte, and some at random: in items, the manifest, the signature, the zip's structure.
        let positions = Array(stride(from: 0, to: package.count, by: 199)) + (0..<50).map { _ in Int.random(in: 0..<package.count, using: &random) }
        for position in positions {
            var tampered = package
            tampered[position] ^= 0x20
            do {
                _ = try ContentPackage(tampered, key: key)
            } catch {
                refused += 1
            }
        }
        #expect(refused == positions.count, "every change is caught")
    }

    @Test func aChangedItemOrAStrayFileIsNamed() throws {
        let folder = try FixtureDirectory()
        _ = try folder.write("style.json", #"{"version": 8}"#)
        _ = try folder.write("tiles/0/0/0.pbf", [1, 2, 3])
        let manifest = try ContentManifest.make(directory: folder.path, site: "s", version: 1)
        let privateKey = try ContentSigningKey.privateKey(Self.keys.privateKey)
        // A manifest whose hash of the tile is wrong is signed as it is, and the tile is refused when opened.
        var lying = manifest
        lying.items[1].sha256 = String(repeating: "0", count: 64)
        #expect(throws: ContentError.self) { try ContentPackage.pack(lying, root: folder.path, key: privateKey) }
        #expect(throws: ContentError.self) { try ContentManifest(json: Array(#"{"site": "s", "version": 1, "items": [{"url": "../etc/passwd", "kind": "other", "size": 1, "sha256": "00"}]}"#.utf8)) }
        let package = try ContentPackage.pack(manifest, root: folder.path, key: privateKey)
        #expect(throws: Never.self) { try ContentPackage(package, key: try ContentSigningKey.publicKey(Self.keys.publicKey)) }
    }

    @Test func aZipBombIsRefusedUnreadWithTheEntryNamed() throws {
        let key = try ContentSigningKey.publicKey(Self.keys.publicKey)
        let archive = try Archive(accessMode: .create)
        let spaces = Data(repeating: 0x20, count: 32 << 20)
        try archive.addEntry(with: "manifest.json", type: .file, uncompressedSize: Int64(spaces.count), compressionMethod: .deflate) { position, size in
            spaces.subdata(in: Int(position)..<Int(position) + size)
        }
        let bomb = Array(try #require(archive.data))
        #expect(bomb.count < 1 << 20)
        let error = try #require(throws: ContentError.self) { try ContentPackage(bomb, key: key) }
        #expect(error.code == .invalidPackage && error.message.hasPrefix("manifest.json is compressed") && error.message.contains("refused unread"))
    }

    @Test func anEntryDeclaringMoreBytesThanThePackageIsRefusedUnread() throws {
        let (_, package) = try pack()
        var lying = package
        // The central directory's record of manifest.json (the first): its sizes claim 2 GB.
        let record = try #require((0..<lying.count - 4).first { lying[$0..<$0 + 4] == [0x50, 0x4B, 0x01, 0x02] })
        for offset in [record + 20, record + 24] { lying.replaceSubrange(offset..<offset + 4, with: [0xFF, 0xFF, 0xFF, 0x7F]) }
        let error = try #require(throws: ContentError.self) { try ContentPackage(lying, key: try ContentSigningKey.publicKey(Self.keys.publicKey)) }
        #expect(error.message.hasPrefix("manifest.json declares 2147483647 bytes") && error.message.contains("refused unread"), "\(error)")
    }
}
