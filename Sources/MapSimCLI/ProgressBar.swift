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

    init(terminal: Terminal) {
        self.terminal = terminal
        interactive = isatty(STDOUT_FILENO) == 1
    }

    func show(_ progress: RegionProgress) {
        guard interactive, progress.requiredResources > 0 else { return }
        let width = 30
        let fraction = advance(to: progress)
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let failed = progress.failures.isEmpty ? "" : terminal.paint(" \(progress.failures.count) failed", .red)
        FileHandle.standardOutput.write(Data("\r\u{1B}[K[\(bar)] \(Int(fraction * 100))% \(progress.completedResources)/\(progress.requiredResources) resources \(ByteCount.format(progress.completedBytes))\(failed)".utf8))
    }

    func finish() {
        if interactive { FileHandle.standardOutput.write(Data("\n".utf8)) }
    }

    /// The fraction to show for `progress`: never less than one shown before.
    func advance(to progress: RegionProgress) -> Double {
        shown.withLock { shown in
            shown = max(shown, Self.fraction(of: progress))
            return shown
        }
    }

    /// How much of the work known so far is done.
    static func fraction(of progress: RegionProgress) -> Double {
        guard progress.requiredResources > 0 else { return 0 }
        return min(1, Double(progress.completedResources + progress.failures.count) / Double(progress.requiredResources))
    }
}
