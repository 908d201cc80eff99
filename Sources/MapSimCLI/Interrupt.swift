import Dispatch
import Foundation

/// Turns Ctrl-C (SIGINT) into a call of `handler`, so that a long command can end cleanly (files
/// closed, a summary printed) instead of dying; `cancel()` restores the default.
final class Interrupt {
    private let source: any DispatchSourceSignal

    init(_ handler: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler(handler: handler)
        source.resume()
    }

    func cancel() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
