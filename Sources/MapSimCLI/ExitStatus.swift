import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import MapSimKit

/// Every exit status of mapsim, decided here and nowhere else: `table` says what each means, each
/// command's help shows its own (`section`), and the manual pages are generated from that help. They
/// follow the BSD `sysexits` convention where one applies, so scripts can tell a failed check from
/// bad input and from a service that is down.
enum ExitStatus {
    /// One exit status and what it means for every command.
    struct Entry {
        let status: ExitCode
        let meaning: String
    }

    /// 0: the work was done, and found nothing wrong.
    static let success = ExitCode(0)
    /// 1: the work failed or found a problem.
    static let failure = ExitCode(1)
    /// 2: `load` did not reach its state within the timeout.
    static let notReached = ExitCode(2)
    /// 2: an input file (a style, a trace, a scenario, a feed, a package, a key) cannot be read.
    static let unreadableInput = ExitCode(2)
    /// 64 (`EX_USAGE`): bad arguments.
    static let usage = ExitCode(64)
    /// 65 (`EX_DATAERR`): input that is not valid: damaged, malformed or refused.
    static let invalidData = ExitCode(65)
    /// 69 (`EX_UNAVAILABLE`): a service cannot be reached: a broker, a feed, the content server.
    static let unavailable = ExitCode(69)
    /// 74 (`EX_IOERR`): a file cannot be written (standard output included), or a cache cannot be opened.
    static let cannotWrite = ExitCode(74)
    /// 129: stopped by SIGHUP (the terminal went away) after saving what was done.
    static let hungUp = ExitCode(129)
    /// 130: stopped by Ctrl-C (SIGINT) after saving what was done, as shells report it.
    static let interrupted = ExitCode(130)
    /// 141: ended by SIGPIPE at a write to standard output once its reader had gone (`mapsim … |
    /// head`), as a Unix tool ends and shells report it; nothing is printed (`StandardOutput`).
    static let readerGone = ExitCode(141)
    /// 143: stopped by SIGTERM after saving what was done.
    static let terminated = ExitCode(143)

    /// Every status, with what it means whatever the command.
    static let table: [Entry] = [
        Entry(status: success, meaning: "the work was done and found nothing wrong"),
        Entry(status: failure, meaning: "the work failed or found a problem (a failed check, an invalid style, traces that differ)"),
        Entry(status: unreadableInput, meaning: "an input cannot be read, or load did not reach its state within the timeout"),
        Entry(status: usage, meaning: "bad arguments"),
        Entry(status: invalidData, meaning: "input that is not valid: damaged, malformed or refused"),
        Entry(status: unavailable, meaning: "a service cannot be reached (a broker, a feed, a content server, an address to listen on)"),
        Entry(status: cannotWrite, meaning: "an output cannot be written, standard output included, or a cache cannot be opened"),
        Entry(status: hungUp, meaning: "stopped by SIGHUP, after saving what was done"),
        Entry(status: interrupted, meaning: "stopped by Ctrl-C (SIGINT), after saving what was done"),
        Entry(status: readerGone, meaning: "standard output's reader went away (a pipe into head): ended by SIGPIPE at the next write, as Unix tools end"),
        Entry(status: terminated, meaning: "stopped by SIGTERM, after saving what was done"),
    ]

    /// The `Exit status` section of a command's help: each status it exits with (every one in
    /// `table`) and what it means for the command, in the order given.
    static func section(_ statuses: [(ExitCode, String)]) -> String {
        var lines = ["Exit status:"]
        for (status, meaning) in statuses {
            precondition(table.contains { $0.status == status }, "exit status \(status.rawValue) is not in ExitStatus.table")
            let number = String(status.rawValue)
            lines += wrap(meaning, first: "  " + number + String(repeating: " ", count: 5 - number.count), rest: String(repeating: " ", count: 7))
        }
        return lines.joined(separator: "\n")
    }

    /// `text` in lines of at most 70 characters, the first after `first`, the others after `rest`
    /// (help, and a manual page in its indent, would wrap a longer line without the indent).
    private static func wrap(_ text: String, first: String, rest: String) -> [String] {
        // Lengths kept as the line grows: every command's help is built at start-up.
        var lines: [String] = []
        var line = first
        var length = first.count
        var isBare = true
        let restLength = rest.count
        for word in text.split(separator: " ") {
            let wordLength = word.count
            if length + 1 + wordLength > 70 && length > restLength {
                lines.append(line)
                line = rest + word
                length = restLength + wordLength
                isBare = false
            } else {
                if !isBare { line += " " }
                line += word
                length += (isBare ? 0 : 1) + wordLength
                isBare = false
            }
        }
        return lines + [line]
    }

    /// The section of the root command: every status, as `table` says.
    static var tableSection: String {
        section(table.map { ($0.status, $0.meaning) })
    }

    /// The status of a command stopped by `signal` after saving what was done: 128 + the signal's
    /// number, as shells report a process the signal killed.
    static func stopped(by signal: Int32) -> ExitCode {
        switch signal {
        case SIGHUP: hungUp
        case SIGTERM: terminated
        default: interrupted
        }
    }

    /// The status for `error`.
    static func status(for error: any Error) -> ExitCode {
        switch error {
        case let error as CacheError: [.downloadFailed, .tileLimitExceeded, .noSuchRegion].contains(error.code) ? failure : cannotWrite
        case let error as TraceError: error.code == .cannotWrite ? cannotWrite : unreadableInput
        case let error as ScenarioError: error.code == .cannotRun ? failure : unreadableInput
        case let error as ContentError: status(for: error)
        case let error as LiveFeedError: error.code == .unreachable ? unavailable : failure
        case let error as FeedError: error.code == .unreadable ? unreadableInput : invalidData
        case is InputFileError: unreadableInput
        case let error as MBTilesError: error.code == .cannotWrite ? cannotWrite : error.code == .invalid ? invalidData : unreadableInput
        // A damaged archive is bad input; one that cannot be written, an unwritable output.
        case let error as PMTilesError: error.code == .cannotWrite ? cannotWrite : invalidData
        case let error as ServeError: error.code == .unavailable ? unavailable : error.code == .invalid ? invalidData : unreadableInput
        case is ZlibError, is GeoJSONGeometryError, is OfflineRegionDefinitionError: invalidData
        case is MQTTError: unavailable
        case let error as WebSocketFeedError: error.code == .invalidURL ? usage : unavailable
        case is ExpressionCompilationError: invalidData
        default: failure
        }
    }

    private static func status(for error: ContentError) -> ExitCode {
        switch error.code {
        case .cannotWrite: cannotWrite
        case .cannotRead: unreadableInput
        default: invalidData
        }
    }

    /// Prints `error` to standard error and returns the exit that reports it.
    static func fail(_ error: any Error) -> ExitCode {
        printError("mapsim: \(error)")
        return status(for: error)
    }

    /// Prints `message` to standard error and returns `status`, to throw.
    static func fail(_ status: ExitCode, _ message: String) -> ExitCode {
        printError("mapsim: \(message)")
        return status
    }
}
