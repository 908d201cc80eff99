import Synchronization

/// The first signal a `StreamStop` caught, noted from the signal handler's queue.
final class CaughtSignal: Sendable {
    private let signal = Mutex<Int32?>(nil)

    /// Notes `number`, unless a signal was caught before.
    func note(_ number: Int32) {
        signal.withLock { $0 = $0 ?? number }
    }

    /// The first signal caught.
    var first: Int32? {
        signal.withLock { $0 }
    }
}
