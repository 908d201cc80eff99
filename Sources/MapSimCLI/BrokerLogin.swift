import ArgumentParser
import Foundation
import MapSimKit

/// The broker login options shared by the live commands.
struct BrokerLogin: ParsableArguments {
    @Option(help: "The user name to log in with.")
    var username: String?

    @Option(help: ArgumentHelp("Read the password from FILE (a trailing newline is ignored).", valueName: "FILE"))
    var passwordFile: String?

    @Option(help: ArgumentHelp("The MQTT client id (default: mapsim-PID-RANDOM, unique, so that two runs do not log each other out).", valueName: "ID"))
    var clientID: String?

    func validate() throws {
        if passwordFile != nil && username == nil { throw ValidationError("--password-file needs --username") }
        if let clientID, clientID.isEmpty || clientID.utf8.count > 65_535 || clientID.contains("\0") {
            throw ValidationError("--client-id must be 1 to 65535 bytes of UTF-8 without NUL")
        }
    }

    /// The endpoint of `broker` with these credentials; an unreadable password file is an error naming it.
    func endpoint(_ broker: BrokerArgument) throws -> MQTTLiveSession.Endpoint {
        var password: String?
        if let passwordFile {
            let bytes: [UInt8]
            do {
                bytes = try InputFile.read(passwordFile, limit: 64 * 1024)
            } catch {
                throw ValidationError("cannot read the password file: \(error.reason)")
            }
            var text = String(decoding: bytes, as: UTF8.self)
            // "\r\n" is one Character in Swift: either ending goes with one removeLast.
            if text.hasSuffix("\r\n") || text.hasSuffix("\n") { text.removeLast() }
            password = text
        }
        return MQTTLiveSession.Endpoint(host: broker.host, port: broker.port, username: username, password: password,
                                        clientID: clientID ?? "mapsim-\(ProcessInfo.processInfo.processIdentifier)-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))")
    }
}
