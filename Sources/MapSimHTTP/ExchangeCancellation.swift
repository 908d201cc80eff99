import Synchronization

/// How to give up a load's exchange under way — the one a redirect sent last — set as each is
/// sent; given up before one is, the next is given up as it is set.
final class ExchangeCancellation: Sendable {
    private let state = Mutex<(cancel: (@Sendable () -> Void)?, isCancelled: Bool)>((nil, false))

    /// Makes `cancel` what gives the load up; calls it at once when the load was given up already.
    func set(_ cancel: @escaping @Sendable () -> Void) {
        let cancelledAlready = state.withLock { state in
            if !state.isCancelled { state.cancel = cancel }
            return state.isCancelled
        }
        if cancelledAlready { cancel() }
    }

    /// Gives the load up.
    func cancel() {
        let cancel = state.withLock { state in
            state.isCancelled = true
            defer { state.cancel = nil }
            return state.cancel
        }
        cancel?()
    }
}
