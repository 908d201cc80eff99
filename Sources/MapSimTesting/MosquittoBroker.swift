import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real Mosquitto broker for tests, started on 127.0.0.1 on a free port with a generated
/// configuration (anonymous clients allowed, nothing persisted), stopped with `stop()`. Mosquitto
/// comes from the Debian package `mosquitto`, which the README's set-up and `.ci/run` install.
public final class MosquittoBroker: @unchecked Sendable {
    public let port: Int
    private var process = Process()
    private let folder: FixtureDirectory
    private let binary: String
    private let configurationPath: String

    /// Starts a broker and waits until it accepts connections. Subscriptions to `deniedSubscriptions`
    /// (topic filters, wildcards allowed) are refused with SUBACK `0x80`, through Mosquitto's
    /// dynamic-security plugin: its `acl_file` never refuses a SUBSCRIBE, it grants it and delivers
    /// nothing. With `users` (name → password), only they may connect. `settings` are more lines
    /// of `mosquitto.conf` (`max_queued_messages 0`).
    public init(deniedSubscriptions: [String] = [], users: [String: String] = [:], settings: [String] = []) throws {
        guard let binary = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto", "/usr/local/sbin/mosquitto", "/opt/homebrew/sbin/mosquitto"].first(where: FileManager.default.isExecutableFile) else {
            throw TestSupportError(.notInstalled, "mosquitto is not installed (Debian: apt-get install mosquitto; the README's set-up and .ci/run do it)")
        }
        folder = try FixtureDirectory()
        port = try LoopbackPort.free()
        var configuration = ["listener \(port) 127.0.0.1", "allow_anonymous \(users.isEmpty)", "persistence false", "log_dest stderr"] + settings
        if !users.isEmpty {
            let passwords = try folder.write("passwords", "")
            for (name, password) in users.sorted(by: { $0.key < $1.key }) {
                let tool = Process()
                tool.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_passwd")
                tool.arguments = ["-b", passwords, name, password]
                tool.standardOutput = FileHandle.nullDevice
                tool.standardError = FileHandle.nullDevice
                try tool.run()
                tool.waitUntilExit()
                guard tool.terminationStatus == 0 else { throw TestSupportError(.cannotStart, "mosquitto_passwd could not add \(name)") }
            }
            configuration.append("password_file \(passwords)")
        }
        if !deniedSubscriptions.isEmpty {
            let plugins = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib", "/usr/local/lib", "/opt/homebrew/lib"]
                .map { $0 + "/mosquitto_dynamic_security.so" }
            guard let plugin = plugins.first(where: FileManager.default.fileExists) else {
                throw TestSupportError(.notInstalled, "mosquitto's dynamic-security plugin is not installed (it comes with the mosquitto package)")
            }
            let acls = deniedSubscriptions.map { #"{"acltype": "subscribePattern", "topic": "\#($0)", "allow": false}"# }
            let security = #"{"defaultACLAccess": {"publishClientSend": true, "publishClientReceive": true, "subscribe": true, "unsubscribe": true}, "#
                + #""clients": [], "groups": [{"groupname": "anonymous", "roles": [{"rolename": "limited"}]}], "anonymousGroup": "anonymous", "#
                + #""roles": [{"rolename": "limited", "acls": ["# + acls.joined(separator: ", ") + "]}]}\n"
            let securityPath = try folder.write("dynamic-security.json", security)
            configuration += ["plugin \(plugin)", "plugin_opt_config_file \(securityPath)"]
        }
        configurationPath = try folder.write("mosquitto.conf", configuration.joined(separator: "\n") + "\n")
        self.binary = binary
        try start()
    }

    /// Starts the broker (again, after `stop()`) on the same port with the same configuration, and
    /// waits until it accepts connections.
    public func start() throws {
        guard !process.isRunning else { return }
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-c", configurationPath]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard LoopbackPort.waitUntilListening(port) else {
            stop()
            throw TestSupportError(.cannotStart, "mosquitto did not start listening on port \(port)")
        }
    }

    /// Stops the broker at once, as a crash would, and waits for it to exit. (SIGKILL: the broker
    /// inherits the signal mask of the thread that started it, which may block SIGTERM.)
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        stop()
    }
}
