import Foundation
import Synchronization
import MapSimTesting

/// Runs the built `mapsim` executable and captures what it prints.
struct CommandRunner {
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
        /// How long the process went on after it last printed (to either stream): a command must end
        /// when its work ends, not wait on a connection, a timer or a server's max-age.
        var lingered: Duration = .zero
        /// How long the process ran, from its start to its exit, measured on the thread that waited
        /// for it: what a test bounds, free of the time its task then waits for a thread of the pool.
        var ran: Duration = .zero
        /// The signal that ended the process, when one did (its `status` is then the signal's number).
        var signal: Int32?
    }

    /// The `mapsim` binary beside the test bundle, as `swift build` and `swift test` leave it.
    static let executable: URL = {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("mapsim").path), folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("mapsim")
    }()

    /// A copy of the binary that `nobody` can run wherever the clone is (its folders may be
    /// private), made once per test run in one fixed place, so nothing piles up.
    private static let unprivilegedCopy: Swift.Result<URL, any Error> = Swift.Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapsim-cli-tests-bin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let copy = folder.appendingPathComponent("mapsim")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: executable, to: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copy.path)
        return copy
    }

    private static func unprivilegedExecutable() throws -> URL {
        try unprivilegedCopy.get()
    }

    private static let scratchCacheHome = FileManager.default.temporaryDirectory.appendingPathComponent("mapsim-cli-tests-cache").path

    /// Runs `mapsim` with `arguments` in `directory`; `environment` adds to (or, with nil, removes
    /// from) the test's own; `unprivileged` runs it as the user `nobody` when the tests run as root
    /// (root ignores permission bits), through util-linux's `setpriv`.
    ///
    /// The process is waited for on a thread of its own: a test that blocked one of the concurrency
    /// pool's few threads could starve the loopback servers other tests run on it.
    /// `fileSizeLimit` runs it with that many bytes as the largest file it may write (`ulimit -f`),
    /// through util-linux's `prlimit`: a write past it fails as on a full disk.
    /// `started` hears the process's ID once it runs (to signal it).
    /// `readerGone` gives it, as standard output, a pipe whose reader has closed it (`mapsim … | head`
    /// once `head` has its lines): any write there finds no reader.
    static func run(_ arguments: [String], in directory: String = SampleStyle.stylesFolder + "/..", environment overrides: [String: String?] = [:],
                    unprivileged: Bool = false, fileSizeLimit: Int? = nil, readerGone: Bool = false,
                    started: @escaping @Sendable (pid_t) -> Void = { _ in }) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Swift.Result {
                    try runBlocking(arguments, in: directory, environment: overrides, unprivileged: unprivileged, fileSizeLimit: fileSizeLimit,
                                    readerGone: readerGone, started: started)
                })
            }
        }
    }

    private static func runBlocking(_ arguments: [String], in directory: String, environment overrides: [String: String?],
                                    unprivileged: Bool, fileSizeLimit: Int?, readerGone: Bool, started: @Sendable (pid_t) -> Void) throws -> Result {
        let process = Process()
        if unprivileged && getuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "--", try unprivilegedExecutable().path] + arguments
        } else if let fileSizeLimit {
            // With the default action of the signal a write past the limit raises (SIGXFSZ, which
            // kills), whatever the test runner has made of it.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["--default-signal=XFSZ", "prlimit", "--fsize=\(fileSizeLimit)", "--", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        // Never touch the user's own cache.
        environment["XDG_CACHE_HOME"] = scratchCacheHome
        for (name, value) in overrides { environment[name] = value }
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        if readerGone {
            try output.fileHandleForReading.close()
        }
        process.standardOutput = output
        process.standardError = error
        try process.run()
        if readerGone {
            try output.fileHandleForWriting.close()
        }
        let began = ContinuousClock.now
        started(process.processIdentifier)
        let lastOutput = Mutex(ContinuousClock.now)
        // Both streams are read as they come, each on a thread of its own (neither can fill its pipe
        // while the other is read), noting when the process last printed.
        func drain(_ pipe: Pipe) -> DrainedStream {
            let drained = DrainedStream()
            Thread.detachNewThread {
                var bytes = Data()
                while case let data = pipe.fileHandleForReading.availableData, !data.isEmpty {
                    bytes += data
                    lastOutput.withLock { $0 = .now }
                }
                drained.finish(bytes)
            }
            return drained
        }
        let outputData = readerGone ? nil : drain(output)
        let errorData = drain(error)
        process.waitUntilExit()
        let exited = ContinuousClock.now
        return Result(status: process.terminationStatus, standardOutput: String(decoding: outputData?.wait() ?? Data(), as: UTF8.self),
                      standardError: String(decoding: errorData.wait(), as: UTF8.self), lingered: exited - lastOutput.withLock { $0 },
                      ran: exited - began, signal: process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil)
    }
}

/// What a thread reading one of a process's streams collected, handed over once the stream ended.
private final class DrainedStream: Sendable {
    private let state = Mutex<Data?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func finish(_ data: Data) {
        state.withLock { $0 = data }
        done.signal()
    }

    func wait() -> Data {
        done.wait()
        return state.withLock { $0 ?? Data() }
    }
}
