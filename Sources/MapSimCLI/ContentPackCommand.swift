import ArgumentParser
import Foundation
import MapSimKit

/// `mapsim content pack MANIFEST_OR_DIR -o site.mapsimpkg --key PRIVATE_KEY`: a signed package.
struct ContentPackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack",
        // Parsed as a root by `mapsim content pack` (MapSimCommand.leafCommand): "mapsim content" is its super-command.
        _superCommandName: "mapsim content",
        abstract: "Make a signed content package of a site for a first run offline.",
        discussion: """
        With a manifest (manifest.json), packs the items it lists, read from beside it and checked \
        against their sizes and hashes. With a folder, packs every file in it, and the manifest \
        made of them — site --site (default: the folder's name), version --version (default 1) — \
        is also written to the folder as manifest.json unless one is there. The manifest is \
        signed with the Ed25519 private key from --key (`mapsim content keygen`), which only its \
        owner may read (a key file others can read, or named .pub, is refused: it is likely the \
        public key).

        \(ExitStatus.section([(ExitStatus.success, "the package is written"), (ExitStatus.unreadableInput, "the manifest, an item or the key cannot be read"), (ExitStatus.invalidData, "an item is not what the manifest says, or the manifest or key is malformed"), (ExitStatus.cannotWrite, "the package cannot be written")]))

        Examples:
          mapsim content pack styles/sample -o city.mapsimpkg --key site-key \\
              --site city
          mapsim content pack site/manifest.json -o site.mapsimpkg --key site-key
        """
    )

    @Argument(help: ArgumentHelp("A manifest.json, or a folder to pack whole.", valueName: "MANIFEST_OR_DIR"))
    var source: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The package to write.", valueName: "FILE"))
    var output: String

    @Option(help: ArgumentHelp("The private key to sign with.", valueName: "PRIVATE_KEY"))
    var key: String

    @Option(help: "With a folder: the site id (default: the folder's name).")
    var site: String?

    @Option(help: "With a folder: the content version.")
    var version = 1

    func validate() throws {
        guard version >= 0 else { throw ValidationError("--version cannot be negative") }
        if let site, site.allSatisfy(\.isWhitespace) {
            throw ValidationError("--site cannot be empty: a manifest names its site")
        }
        if key.hasSuffix(".pub") {
            throw ValidationError("--key \(key) is a public key: sign with the private key, the file without .pub")
        }
    }

    /// Refuses a key file others can read, as ssh refuses an unprotected private key: a public key
    /// (the same 32 bytes of base64) given by mistake is refused before anything is signed with it.
    private func checkPrivate(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        guard info.st_mode & 0o077 == 0 else {
            throw ExitStatus.fail(ExitStatus.invalidData, "\(path) can be read by others (mode \(String(info.st_mode & 0o777, radix: 8))): "
                                  + "a private key is its owner's only, as `mapsim content keygen` writes it. Is it the public key? "
                                  + "If it really is the private key, chmod 600 it")
        }
    }

    func run() throws {
        let signingKey: String
        let manifest: ContentManifest
        let root: String
        try checkPrivate(key)
        do {
            signingKey = String(decoding: try InputFile.read(key, limit: 4096), as: UTF8.self)
        } catch {
            throw ExitStatus.fail(error)
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isFolder) else {
            throw ExitStatus.fail(ExitStatus.unreadableInput, "cannot read \(source): no such file or folder")
        }
        do {
            if isFolder.boolValue {
                root = source
                let name = URL(fileURLWithPath: source).standardizedFileURL.lastPathComponent
                manifest = try ContentManifest.make(directory: source, site: site ?? name, version: version)
            } else {
                root = URL(fileURLWithPath: source).deletingLastPathComponent().path
                let bytes: [UInt8]
                do {
                    bytes = try InputFile.read(source, limit: 64 << 20)
                } catch {
                    throw ExitStatus.fail(error)
                }
                manifest = try ContentManifest(json: bytes)
            }
            let package = try ContentPackage.pack(manifest, root: root, key: try ContentSigningKey.privateKey(signingKey))
            do {
                let file = try OutputFile(path: output, format: .contentPackage)
                try file.write(package)
                try file.close()
                if isFolder.boolValue && !FileManager.default.fileExists(atPath: root + "/manifest.json") {
                    try OutputFile.write(String(decoding: manifest.json, as: UTF8.self), to: root + "/manifest.json", format: .contentManifest)
                }
            } catch {
                throw ExitStatus.fail(error)
            }
            let bytes = manifest.items.reduce(0) { $0 + $1.size }
            print("packed \(manifest.items.count) items (\(ByteCount.format(bytes))) of \(manifest.site) version \(manifest.version) into \(output)")
        } catch let error as ContentError {
            throw ExitStatus.fail(error)
        }
    }
}
