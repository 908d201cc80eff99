#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import CClosedPipe
import Foundation

/// Standard output as a Unix tool must treat it: what could not be written is an error (`cannotWrite`),
/// not a silent success.
enum StandardOutput {
    /// Makes a write to standard output that finds its reader gone (`mapsim … | head`) end the
    /// process as SIGPIPE's default action does — status 141 in a shell, nothing printed — whether
    /// or not the network, which ignores SIGPIPE, has started (`CClosedPipe`). Called first thing.
    static func endAtAClosedPipe() {
        _ = mapsim_stdout_ends_at_closed_pipe()
    }

    /// Makes standard output write each line as it is printed, also into a pipe or a file, for a
    /// command whose lines come over time (`mapsim live listen --json | jq`).
    static func writeLineByLine() {
        setvbuf(stdout, nil, _IOLBF, 0)
    }

    /// Flushes standard output and exits with `status`, or with `cannotWrite` and a message on standard error
    /// when anything written to standard output was lost (a full disk, a closed pipe, `/dev/full`).
    static func exit(_ status: Int32) -> Never {
        let flushed = fflush(stdout) == 0
        if !flushed || ferror(stdout) != 0 {
            let reason = String(cString: strerror(errno == 0 ? EIO : errno))
            printError("mapsim: cannot write to standard output: \(reason)")
            Foundation.exit(ExitStatus.cannotWrite.rawValue)
        }
        Foundation.exit(status)
    }
}
