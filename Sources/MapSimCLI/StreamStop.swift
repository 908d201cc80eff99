import Dispatch
import Foundation
import MapSimKit

/// Ends a command that reads a stream, replays or downloads — on Ctrl-C (SIGINT), SIGTERM or SIGHUP,
/// or when its time is up — by calling `handler`, so that files are closed and a summary printed
/// instead of the process dying; `cancel()` stops all and restores the signals' defaults.
final class StreamStop {
    private let sources: [any DispatchSourceSignal]
    private let signals: [Int32]
    private let deadline: Task<Void, Never>?
    private let caught = CaughtSignal()

    /// The signals that stop a long-running command as Ctrl-C does.
    static let stopSignals = [SIGINT, SIGTERM, SIGHUP]

    convenience init(after duration: SimTime? = nil, signals: [Int32] = stopSignals, _ handler: @escaping @Sendable () -> Void) {
        self.init(after: duration, signals: signals, caught: { _ in handler() })
    }

    /// Calls `handler` with the signal caught (nil when the time is up).
    init(after duration: SimTime? = nil, signals: [Int32] = stopSignals, caught handler: @escaping @Sendable (Int32?) -> Void) {
        self.signals = signals
        var sources: [any DispatchSourceSignal] = []
        let caught = caught
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                caught.note(number)
                handler(number)
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
        deadline = duration.map { duration in
            Task {
                try? await Task.sleep(for: .microseconds(duration.microseconds))
                if !Task.isCancelled { handler(nil) }
            }
        }
    }

    /// The signal that stopped the command, if one did.
    var caughtSignal: Int32? {
        caught.first
    }

    func cancel() {
        deadline?.cancel()
        for source in sources { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
    }
}
