#if canImport(Glibc)
@preconcurrency import Glibc
private let posixWrite = Glibc.write
#elseif canImport(Darwin)
@preconcurrency import Darwin
private let posixWrite = Darwin.write
#endif
import CClosedPipe
import Dispatch
import Synchronization

/// Lines for standard output, written by a queue of their own, so that a reader that stops reading
/// never stops what prints them: `mapsim serve` under a test harness that read the first line (the
/// URL) and no more went on answering until 64 KB of lines filled the pipe, then answered nothing,
/// and a SIGTERM could not stop it. At most `limit` bytes wait: a line past that is not printed but
/// counted, and once the reader takes lines again one line says how many it missed. A closed pipe
/// ends the process as SIGPIPE does (`CClosedPipe`), as standard output's other writes do.
final class LinePrinter: Sendable {
    private struct State {
        var lines: [String] = []
        var waitingBytes = 0
        var dropped = 0
        /// Lines written so far: what `finish` watches for progress.
        var written = 0
        var writing = false
        /// `finish` waits: the queue signals `drained` each time it has written everything.
        var finishing = false
        /// Why standard output could not be written, once a write failed (a full disk).
        var failure: Int32?
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "mapsim.standard-output")
    private let drained = DispatchSemaphore(value: 0)
    private let limit: Int

    /// A printer that lets at most `limit` bytes of lines wait for the reader.
    init(limit: Int = 1 << 20) {
        self.limit = limit
    }

    /// Prints `line` once the lines before it are written, or counts it as missed when too many wait.
    func print(_ line: String) {
        add(line, always: false)
    }

    /// Prints `lines` (the closing summary, always kept), then waits until every line is written
    /// or the reader has taken nothing for `patience`, and returns why standard output could not be
    /// written, if it could not: the process may then exit, and an unread pipe does not keep it.
    func finish(with lines: [String], patience: DispatchTimeInterval = .seconds(1)) -> String? {
        state.withLock { $0.finishing = true }
        for line in lines { add(line, always: true) }
        var written = state.withLock { $0.written }
        while state.withLock({ $0.writing || !$0.lines.isEmpty }) {
            if drained.wait(timeout: .now() + patience) == .success { continue }
            let now = state.withLock { $0.written }
            if now == written { break }
            written = now
        }
        return state.withLock { $0.failure }.map { String(cString: strerror($0)) }
    }

    private func add(_ line: String, always: Bool) {
        let starts = state.withLock { state -> Bool in
            guard always || state.waitingBytes + line.utf8.count < limit else {
                state.dropped += 1
                return false
            }
            state.lines.append(line)
            state.waitingBytes += line.utf8.count + 1
            guard !state.writing else { return false }
            state.writing = true
            return true
        }
        if starts { queue.async { [self] in writeWaitingLines() } }
    }

    /// Writes what waits, a batch at a time, until nothing does.
    private func writeWaitingLines() {
        while true {
            let (lines, dropped, finishing) = state.withLock { state -> ([String], Int, Bool) in
                let taken = (state.lines, state.dropped, state.finishing)
                state.lines = []
                state.dropped = 0
                state.waitingBytes = 0
                if taken.0.isEmpty && taken.1 == 0 { state.writing = false }
                return taken
            }
            guard !lines.isEmpty || dropped > 0 else {
                if finishing { drained.signal() }
                return
            }
            let note = dropped > 0 ? ["... \(dropped) line\(dropped == 1 ? "" : "s") not printed: standard output was not read for a while"] : []
            let failure = Self.write((note + lines).joined(separator: "\n") + "\n")
            state.withLock { state in
                state.written += lines.count
                if state.failure == nil { state.failure = failure }
            }
        }
    }

    /// Writes `text` to standard output whole; the error number of a failed write, if one failed.
    private static func write(_ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { bytes -> Int32? in
            var offset = 0
            while offset < bytes.count {
                let count = posixWrite(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    if errno == EPIPE { mapsim_end_as_a_closed_pipe_does() }
                    return errno
                }
                offset += count
            }
            return nil
        }
    }
}
