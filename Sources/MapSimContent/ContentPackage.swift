import Crypto
import Foundation
import MapSimJSON
import ZIPFoundation

/// A signed content package, a zip: `manifest.json`, `manifest.sig` (the Ed25519 signature of the
/// manifest's exact bytes, in base64) and every item under `items/`. The signature covers the
/// manifest and the manifest's SHA-256 hashes cover every item, so one key checks all of it; the key
/// is always one the user gives, never one the package carries.
public struct ContentPackage: Sendable {
    /// The package's manifest, checked.
    public let manifest: ContentManifest
    /// Each item's bytes, in the manifest's order.
    public let items: [(item: ContentItem, bytes: [UInt8])]

    private static let manifestPath = "manifest.json"
    private static let signaturePath = "manifest.sig"
    private static let itemsFolder = "items/"

    /// The package of `manifest`'s items, read from below `root` and checked against it, signed with `key`.
    public static func pack(_ manifest: ContentManifest, root: String, key: Curve25519.Signing.PrivateKey) throws(ContentError) -> [UInt8] {
        let manifestBytes = manifest.json
        let signature: Data
        do {
            signature = try key.signature(for: manifestBytes)
        } catch {
            throw ContentError(.cannotPack, "cannot sign the manifest: \(error)", underlying: error)
        }
        var entries: [(String, [UInt8])] = [(manifestPath, manifestBytes), (signaturePath, Array((signature.base64EncodedString() + "\n").utf8))]
        for item in manifest.items {
            let bytes: [UInt8]
            do {
                bytes = try InputFile.read(root + "/" + item.url, limit: 1 << 30)
            } catch {
                throw ContentError(.cannotPack, "item \(item.url): \(error)", underlying: error)
            }
            guard bytes.count == item.size, ContentManifest.sha256(bytes) == item.sha256 else {
                throw ContentError(.cannotPack, "item \(item.url): the file is not what the manifest says (size \(bytes.count), SHA-256 \(ContentManifest.sha256(bytes)))")
            }
            entries.append((itemsFolder + item.url, bytes))
        }
        return try archive(entries)
    }

    /// The zip of `entries`, in order, stored (not deflated: the bytes must not depend on the zlib at
    /// hand), dated 1970: the same entries give the same bytes everywhere.
    private static func archive(_ entries: [(String, [UInt8])]) throws(ContentError) -> [UInt8] {
        do {
            let archive = try Archive(accessMode: .create)
            for (path, bytes) in entries {
                let data = Data(bytes)
                try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), modificationDate: Date(timeIntervalSince1970: 0),
                                     compressionMethod: .none) { position, size in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
            guard let data = archive.data else { throw ContentError(.cannotPack, "the package could not be made") }
            return Array(data)
        } catch let error as ContentError {
            throw error
        } catch {
            throw ContentError(.cannotPack, "the package could not be made: \(error)", underlying: error)
        }
    }

    /// The most entries a package may hold, checked before any is read.
    static let maximumEntries = 1_000_000

    /// Refuses, before anything is inflated, a zip that `pack` cannot have made and that could
    /// exhaust the machine: too many entries, a compressed entry (`pack` stores every entry, so a
    /// deflated one — a zip bomb among them — is refused unread), or an entry declaring more bytes
    /// than the whole package has.
    private static func checkBounds(of archive: Archive, packageSize: Int) throws(ContentError) {
        var count = 0
        for entry in archive {
            count += 1
            guard count <= maximumEntries else {
                throw ContentError(.invalidPackage, "the package holds more than \(maximumEntries) entries; refused unread")
            }
            guard entry.type == .file else { continue }
            guard !entry.isCompressed else {
                throw ContentError(.invalidPackage, "\(entry.path) is compressed (\(entry.compressedSize) bytes declaring \(entry.uncompressedSize)); "
                                   + "`mapsim content pack` stores every entry, so it is refused unread")
            }
            guard entry.uncompressedSize == entry.compressedSize, entry.uncompressedSize <= UInt64(packageSize) else {
                throw ContentError(.invalidPackage, "\(entry.path) declares \(entry.uncompressedSize) bytes in a package of \(packageSize); refused unread")
            }
        }
    }

    /// Opens a package and checks all of it against `key`: the signature of the manifest, then each
    /// item's size and SHA-256, and that it holds nothing the manifest does not list. Anything wrong is
    /// an error naming the signature or the item.
    public init(_ bytes: [UInt8], key: Curve25519.Signing.PublicKey) throws(ContentError) {
        // Read from a file: ZIPFoundation's in-memory reader traps on some malformed archives, its
        // file reader reports them. The file is mapsim's own and already out of its folder, so an
        // interrupted or killed import leaves no copy of the package behind.
        let folder = FileManager.default.temporaryDirectory.path
        let copy: ScratchFile
        do {
            copy = try ScratchFile(in: folder, prefix: "mapsim-package-")
            try copy.write(bytes)
        } catch {
            throw ContentError(.cannotWrite, "cannot use the temporary folder \(folder) (TMPDIR) to open the package: \(error.reason)", underlying: error)
        }
        let archive: Archive
        do {
            // The copy stays open until the archive has opened it again.
            archive = try withExtendedLifetime(copy) { try Archive(url: URL(fileURLWithPath: copy.reopeningPath), accessMode: .read) }
        } catch {
            throw ContentError(.invalidPackage, "not a content package (a zip): \(error)", underlying: error)
        }
        try Self.checkBounds(of: archive, packageSize: bytes.count)
        func read(_ path: String) throws(ContentError) -> [UInt8]? {
            guard let entry = archive[path] else { return nil }
            guard entry.type == .file else { throw ContentError(.invalidPackage, "\(path) is not a file of the package") }
            let declared = Int(entry.uncompressedSize)
            var data = [UInt8]()
            data.reserveCapacity(declared)
            do {
                _ = try archive.extract(entry) { chunk in
                    guard data.count + chunk.count <= declared else { throw ContentError(.invalidPackage, "\(path) holds more than the \(declared) bytes it declares") }
                    data += chunk
                }
            } catch let error as ContentError {
                throw error
            } catch {
                throw ContentError(.invalidPackage, "\(path) is damaged: \(error)", underlying: error)
            }
            guard data.count == declared else { throw ContentError(.invalidPackage, "\(path) holds \(data.count) bytes, not the \(declared) it declares") }
            return data
        }
        guard let manifestBytes = try read(Self.manifestPath) else { throw ContentError(.invalidPackage, "the package has no manifest.json") }
        guard let signatureText = try read(Self.signaturePath) else { throw ContentError(.invalidPackage, "the package has no signature (manifest.sig)") }
        guard let signature = Data(base64Encoded: String(decoding: signatureText, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
              key.isValidSignature(signature, for: manifestBytes) else {
            throw ContentError(.invalidPackage, "the signature does not match the manifest: the package was changed, or signed with another key")
        }
        let manifest = try ContentManifest(json: manifestBytes)
        var items: [(ContentItem, [UInt8])] = []
        for item in manifest.items {
            guard let bytes = try read(Self.itemsFolder + item.url) else { throw ContentError(.invalidPackage, "item \(item.url) is missing from the package") }
            let hash = ContentManifest.sha256(bytes)
            guard bytes.count == item.size, hash == item.sha256 else {
                throw ContentError(.invalidPackage, "item \(item.url) was changed: its SHA-256 is \(hash), the manifest says \(item.sha256)")
            }
            items.append((item, bytes))
        }
        let listed = Set([Self.manifestPath, Self.signaturePath] + manifest.items.map { Self.itemsFolder + $0.url })
        if let stray = archive.first(where: { !listed.contains($0.path) && $0.type == .file }) {
            throw ContentError(.invalidPackage, "\(stray.path) is in the package but not in its manifest")
        }
        // The zip itself must be as `pack` makes it, so that no byte of it goes unchecked.
        let canonical = try Self.archive([(Self.manifestPath, manifestBytes), (Self.signaturePath, signatureText)]
                                         + items.map { (Self.itemsFolder + $0.0.url, $0.1) })
        if canonical != bytes {
            let offset = zip(canonical, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(canonical.count, bytes.count)
            throw ContentError(.invalidPackage, "the package's zip was changed (at byte \(offset)), though its manifest and items check: it is not as `mapsim content pack` made it")
        }
        self.manifest = manifest
        self.items = items
    }
}
