import Dispatch
import Foundation
import MapSimKit

/// Ends a command that reads a stream — on Ctrl-C (SIGINT) or when its time is up — by calling
/// `handler`, so that files are closed and a summary printed instead of the process dying;
/// `cancel()` stops both and restores Ctrl-C's default.
final class StreamStop {
    private let source: any DispatchSourceSignal
    private let deadline: Task<Void, Never>?

    init(after duration: SimTime?, _ handler: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler(handler: handler)
        source.resume()
        deadline = duration.map { duration in
            Task {
                try? await Task.sleep(for: .microseconds(duration.microseconds))
                if !Task.isCancelled { handler() }
            }
        }
    }

    func cancel() {
        deadline?.cancel()
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
