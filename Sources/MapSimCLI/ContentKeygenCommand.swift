import ArgumentParser
import Foundation
import MapSimKit

/// `mapsim content keygen -o NAME`: a new signing key pair.
struct ContentKeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        // Parsed as a root by `mapsim content keygen` (MapSimCommand.leafCommand): "mapsim content" is its super-command.
        _superCommandName: "mapsim content",
        abstract: "Make an Ed25519 key pair for signing content packages.",
        discussion: """
        Writes the private key to NAME (readable by you only) and the public key to NAME.pub, each \
        as the base64 of its 32 bytes. Keep the private key to sign packages; give the public key \
        to whoever opens them. An existing NAME is not overwritten unless --force is given.

        \(ExitStatus.section([(ExitStatus.success, "the key pair is written"), (ExitStatus.usage, "NAME exists"), (ExitStatus.cannotWrite, "a key cannot be written")]))

        Example:
          mapsim content keygen -o site-key
        """
    )

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the private key (the public key goes to NAME.pub).", valueName: "NAME"))
    var output: String

    @Flag(help: "Overwrite existing keys.")
    var force = false

    func run() throws {
        for path in [output, output + ".pub"] where !force && FileManager.default.fileExists(atPath: path) {
            throw ExitStatus.fail(ExitStatus.usage, "\(path) exists; give --force to replace it")
        }
        let (privateKey, publicKey) = ContentSigningKey.generate()
        do {
            let secret = try OutputFile(path: output, format: .anyFile, permissions: 0o600)
            try secret.write(Array(privateKey.utf8))
            try secret.close()
            let shared = try OutputFile(path: output + ".pub", format: .anyFile)
            try shared.write(Array(publicKey.utf8))
            try shared.close()
        } catch {
            throw ExitStatus.fail(error)
        }
        print("wrote the private key to \(output) and the public key to \(output).pub")
    }
}
