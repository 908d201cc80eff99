#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import MapSimKit

/// What the standard output is: a terminal gets colours, anything else plain text.
struct Terminal: Sendable {
    var usesColor: Bool

    /// Colours when standard output is a terminal, `NO_COLOR` is unset and `TERM` is not `dumb`.
    static func standardOutput() -> Terminal {
        let colour = isatty(STDOUT_FILENO) == 1 && ProcessEnvironment.value("NO_COLOR") == nil && ProcessEnvironment.value("TERM") != "dumb"
        return Terminal(usesColor: colour)
    }

    enum Style: String {
        case red = "31", green = "32", yellow = "33", cyan = "36", dim = "2", bold = "1"
    }

    func paint(_ text: String, _ style: Style) -> String {
        usesColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }
}

/// Writes a line to standard error, after whatever standard output has buffered.
func printError(_ line: String) {
    fflush(nil)
    writeText(line + "\n", to: STDERR_FILENO)
}

/// Writes `text` to `descriptor` unbuffered, as much of it as the descriptor takes: a standard error or
/// terminal that cannot be written (a full disk, a file size limit, a closed terminal) loses the text,
/// not the process, as FileHandle's `write(_:)` would, trapping.
func writeText(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written >= 0 else {
            if errno == EINTR { continue }
            return
        }
        bytes = bytes.dropFirst(written)
    }
}
