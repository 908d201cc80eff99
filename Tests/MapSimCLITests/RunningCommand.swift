import Foundation
import Synchronization
import MapSimTesting

/// `mapsim` started and left running, for tests of what it does while it runs and when it is
/// signalled: its standard output is read line by line as it comes.
final class RunningCommand: Sendable {
    private let process: Process
    private let output = EventFeed<String>()
    private let errorPipe: Pipe
    /// The lines the test has read so far.
    private let read = Mutex<[String]>([])
    /// When the process exited, as the thread that waited for it saw it.
    private let exit = Mutex<ContinuousClock.Instant?>(nil)

    /// Lets a reader paused by `readingFirstLineOnly` read on.
    private let reading = DispatchSemaphore(value: 0)

    /// Starts `mapsim` with `arguments` in the repository's folder; `fileSizeLimit` as
    /// `CommandRunner.run` takes it. `readingFirstLineOnly` reads its standard output up to its
    /// first line, then stops reading until `readOn()`, as a harness that wanted only that line.
    init(_ arguments: [String], fileSizeLimit: Int? = nil, readingFirstLineOnly: Bool = false) throws {
        process = Process()
        if let fileSizeLimit {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["--default-signal=XFSZ", "prlimit", "--fsize=\(fileSizeLimit)", "--", CommandRunner.executable.path] + arguments
        } else {
            process.executableURL = CommandRunner.executable
            process.arguments = arguments
        }
        process.currentDirectoryURL = URL(fileURLWithPath: SampleStyle.stylesFolder + "/..")
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        process.environment = environment
        let output = Pipe()
        errorPipe = Pipe()
        process.standardOutput = output
        process.standardError = errorPipe
        let continuation = self.output.continuation
        try process.run()
        let reading = self.reading
        Thread.detachNewThread {
            var pending: [UInt8] = []
            var pausesAfterThisLine = readingFirstLineOnly
            while case let data = output.fileHandleForReading.availableData, !data.isEmpty {
                pending += data
                while let newline = pending.firstIndex(of: 0x0A) {
                    continuation.yield(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                    if pausesAfterThisLine {
                        pausesAfterThisLine = false
                        reading.wait()
                    }
                }
            }
            continuation.finish()
        }
    }

    /// Reads standard output on, after `readingFirstLineOnly` stopped at the first line.
    func readOn() {
        reading.signal()
    }

    /// Waits until the lines printed so far satisfy `done` (20 s at most; then it throws).
    func waitForLines(until done: @escaping @Sendable ([String]) -> Bool) async throws {
        let before = read.withLock { $0 }
        if done(before) { return }
        let more = try await self.output.events { done(before + $0) }
        read.withLock { $0 = before + more }
    }

    /// The lines read so far.
    var lines: [String] { read.withLock { $0 } }

    /// When the process exited (once `wait()` returned): what a test bounds, free of the time its
    /// task waits for a thread of the concurrency pool after that.
    var exited: ContinuousClock.Instant? { exit.withLock { $0 } }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to end: its status and what it printed to standard error.
    func wait() async -> (status: Int32, standardError: String) {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let error = self.errorPipe.fileHandleForReading.readDataToEndOfFile()
                self.process.waitUntilExit()
                self.exit.withLock { $0 = .now }
                continuation.resume(returning: (self.process.terminationStatus, String(decoding: error, as: UTF8.self)))
            }
        }
    }
}
