import Synchronization

/// A subscription: `cancel()` stops it; releasing the last reference cancels it too.
public final class Cancelable: Sendable {
    private let action: Mutex<(@Sendable () -> Void)?>

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = Mutex(action)
    }

    /// Stops the subscription; later calls do nothing.
    public func cancel() {
        let action = self.action.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit {
        cancel()
    }
}
