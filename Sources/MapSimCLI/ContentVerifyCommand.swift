import ArgumentParser
import MapSimKit

/// `mapsim content verify PKG --public-key KEY`: is the package whole and signed with that key?
struct ContentVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        // Parsed as a root by `mapsim content verify` (MapSimCommand.leafCommand): "mapsim content" is its super-command.
        _superCommandName: "mapsim content",
        abstract: "Check a content package: its signature, and every item against the manifest.",
        discussion: """
        Checks the Ed25519 signature of the manifest with the public key given (never one from \
        the package), then each item's size and SHA-256, and that the package holds nothing the \
        manifest does not list. Says valid, or which item or the signature fails.

        \(ExitStatus.section([(ExitStatus.success, "the package is valid"), (ExitStatus.unreadableInput, "the package or key cannot be read"), (ExitStatus.invalidData, "the package is not valid"), (ExitStatus.cannotWrite, "the temporary folder (TMPDIR) cannot be used to open it")]))

        Example:
          mapsim content verify city.mapsimpkg --public-key site-key.pub
        """
    )

    @Argument(help: ArgumentHelp("The package.", valueName: "PKG"))
    var package: String

    @Option(help: ArgumentHelp("The public key to check the signature with.", valueName: "KEY"))
    var publicKey: String

    func run() throws {
        let bytes: [UInt8]
        let keyText: [UInt8]
        do {
            keyText = try InputFile.read(publicKey, limit: 4096)
            bytes = try InputFile.read(package, limit: 4 << 30)
        } catch {
            throw ExitStatus.fail(error)
        }
        do {
            let key = try ContentSigningKey.publicKey(String(decoding: keyText, as: UTF8.self))
            let opened = try ContentPackage(bytes, key: key)
            print("\(package): valid — \(opened.manifest.site) version \(opened.manifest.version), \(opened.items.count) items, signed with \(publicKey)")
        } catch where error.code == .cannotWrite {
            throw ExitStatus.fail(ExitStatus.status(for: error), "\(package): cannot be checked here: \(error)")
        } catch {
            throw ExitStatus.fail(ExitStatus.status(for: error), "\(package): not valid: \(error)")
        }
    }
}
