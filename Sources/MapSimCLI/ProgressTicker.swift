#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import MapSimKit

/// Progress for logs that are no terminal (a CI job's): a line on standard error every so often —
/// every 10 s, or `MAPSIM_PROGRESS_INTERVAL` seconds — while long work runs, so a job that waits on
/// a slow server is seen to be alive. On a terminal most commands show their own progress instead;
/// one that has none of its own (`validate --deep`) ticks there too.
final class ProgressTicker: Sendable {
    private let task: Task<Void, Never>?

    /// Ticks while the work runs when `enabled` and standard output is not a terminal (or is one,
    /// with `onTerminal`); `describe` says how far the work is, given the seconds since it started.
    init(enabled: Bool, onTerminal: Bool = false, _ describe: @escaping @Sendable (Int) -> String) {
        guard enabled, onTerminal || isatty(STDOUT_FILENO) == 0 else {
            task = nil
            return
        }
        let interval = Self.interval
        task = Task {
            let clock = ContinuousClock()
            let started = clock.now
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { return }
                printError("mapsim: \(describe(Int((clock.now - started).components.seconds)))")
            }
        }
    }

    /// Stops ticking.
    func stop() {
        task?.cancel()
    }

    /// How often a line is written: `MAPSIM_PROGRESS_INTERVAL` seconds, else 10.
    static var interval: Duration {
        let seconds = ProcessEnvironment.value("MAPSIM_PROGRESS_INTERVAL").flatMap(Double.init) ?? 10
        return .milliseconds(Int64(max(0.05, seconds) * 1_000))
    }
}
