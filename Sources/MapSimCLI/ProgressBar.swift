#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import MapSimKit

/// A one-line progress bar, redrawn in place on a terminal and silent elsewhere.
final class ProgressBar: Sendable {
    private let terminal: Terminal
    private let interactive: Bool
    /// The largest fraction shown: the work grows as TileJSONs arrive, the bar never goes back.
    private let shown = Mutex(0.0)
    /// The tenth of a percent last drawn.
    private let drawn = Mutex(-1)
    /// Resources that failed so far.
    private let failures = Mutex(0)
    /// Failed attempts that were tried again, so far.
    private let retries = Mutex(0)

    /// A bar on `terminal`, drawn when `enabled` and standard output is a terminal.
    init(terminal: Terminal, enabled: Bool = true) {
        self.terminal = terminal
        interactive = enabled && isatty(STDOUT_FILENO) == 1
    }

    /// Counts a resource that failed.
    func noteFailure() {
        failures.withLock { $0 += 1 }
    }

    /// Counts a failed attempt that will be tried again, and shows `status` with it at once: a
    /// download that waits on a retry says so, though no resource arrived.
    func noteRetry(_ status: OfflineRegionStatus) {
        retries.withLock { $0 += 1 }
        show(status, redraw: true)
    }

    /// Shows a download's status, with the numbers of resources that failed and of attempts
    /// retried so far; drawn again at once when `redraw`, else when the tenth of a percent changes.
    func show(_ status: OfflineRegionStatus, redraw: Bool = false) {
        // Nothing is made for a bar that is not drawn: a download shows every resource.
        guard interactive else { return }
        let failed = failures.withLock { $0 }
        let retried = retries.withLock { $0 }
        let more = status.requiredResourceCountIsPrecise ? "" : "+"
        let failures = failed == 0 ? "" : terminal.paint(" \(failed) failed", .red)
        let retries = retried == 0 ? "" : terminal.paint(" \(retried) retried", .yellow)
        draw(fraction: Self.fraction(of: status), redraw: redraw,
             "\(status.completedResourceCount)/\(status.requiredResourceCount)\(more) resources \(ByteCount.format(status.completedResourceSize))\(failures)\(retries)")
    }

    /// Shows `done` of `total` things, named by `what`.
    func show(_ done: Int, of total: Int, _ what: String) {
        guard total > 0 else { return }
        draw(fraction: min(1, Double(done) / Double(total)), "\(done)/\(total) \(what)")
    }

    private func draw(fraction: Double, redraw: Bool = false, _ text: String) {
        guard interactive else { return }
        let width = 30
        let shown = advance(to: fraction)
        // Redrawn when the tenth of a percent changes: a terminal is not written 20,000 times.
        guard drawn.withLock({ drawn in
            defer { drawn = Int(shown * 1000) }
            return redraw || drawn != Int(shown * 1000)
        }) else { return }
        let filled = Int(shown * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        writeText("\r\u{1B}[K[\(bar)] \(Int(shown * 100))% \(text)", to: STDOUT_FILENO)
    }

    func finish() {
        if interactive { writeText("\n", to: STDOUT_FILENO) }
    }

    /// The fraction to show for `fraction` done: never less than one shown before.
    func advance(to fraction: Double) -> Double {
        shown.withLock { shown in
            shown = max(shown, fraction)
            return shown
        }
    }

    /// How much of the work known so far is done.
    static func fraction(of status: OfflineRegionStatus) -> Double {
        guard status.requiredResourceCount > 0 else { return 0 }
        return min(1, Double(status.completedResourceCount) / Double(status.requiredResourceCount))
    }
}
