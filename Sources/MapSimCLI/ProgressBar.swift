#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import MapSimCache

/// A one-line progress bar, redrawn in place on a terminal and silent elsewhere.
final class ProgressBar: Sendable {
    private let terminal: Terminal
    private let interactive: Bool

    init(terminal: Terminal) {
        self.terminal = terminal
        interactive = isatty(STDOUT_FILENO) == 1
    }

    func show(_ progress: RegionProgress) {
        guard interactive, progress.requiredResources > 0 else { return }
        let width = 30
        let fraction = Double(progress.completedResources + progress.failures.count) / Double(progress.requiredResources)
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let failed = progress.failures.isEmpty ? "" : terminal.paint(" \(progress.failures.count) failed", .red)
        FileHandle.standardOutput.write(Data("\r\u{1B}[K[\(bar)] \(Int(fraction * 100))% \(progress.completedResources)/\(progress.requiredResources) resources \(ByteCount.format(progress.completedBytes))\(failed)".utf8))
    }

    func finish() {
        if interactive { FileHandle.standardOutput.write(Data("\n".utf8)) }
    }
}
