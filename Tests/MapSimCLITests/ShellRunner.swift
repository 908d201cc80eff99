import Foundation

/// Runs a command line through `/bin/sh`, as a reader of the documentation would type it.
enum ShellRunner {
    struct Result {
        var status: Int32
        /// Standard output and standard error, interleaved.
        var output: String
    }

    /// Runs `line` in `directory`, with `path` (when given) first on the `PATH` and a cache home of
    /// its own; waited for on a thread of its own, as `CommandRunner` does.
    static func run(_ line: String, in directory: String, path: String?) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Swift.Result {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: "/bin/sh")
                    process.arguments = ["-c", line]
                    process.currentDirectoryURL = URL(fileURLWithPath: directory)
                    var environment = ProcessInfo.processInfo.environment
                    if let path { environment["PATH"] = path + ":" + (environment["PATH"] ?? "/usr/bin:/bin") }
                    environment["XDG_CACHE_HOME"] = directory + "/.cache"
                    process.environment = environment
                    let output = Pipe()
                    process.standardOutput = output
                    process.standardError = output
                    try process.run()
                    let data = output.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
                })
            }
        }
    }
}
