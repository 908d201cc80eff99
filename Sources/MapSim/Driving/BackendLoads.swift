import Synchronization

/// Loads through a map's backends, each as a task of its own timed on the continuous clock, or,
/// for a loop that takes answers as they arrive, started as the backend starts them.
public struct BackendLoads: LoadPerformer {
    /// A load under way: a task to wait for, or one whose answer is handed on as it arrives.
    public enum Handle: Sendable {
        /// A load whose response and time `finish` waits for.
        case task(LoadTask)
        /// A load that hands its response on itself, and how to give it up.
        case delivering(cancel: @Sendable () -> Void)
    }

    /// The backends the loads go to.
    public let backends: ResourceBackends

    /// Loads through `backends`.
    public init(_ backends: ResourceBackends) {
        self.backends = backends
    }

    public func start(_ order: LoadOrder) -> Handle {
        .task(LoadTask(backends.loader(for: order.backend, resource: order.resource)))
    }

    /// Starts the load as its backend starts one, with no task of its own: a network answer goes
    /// to `deliver` from the HTTP client's event loop, with no hop through another thread.
    public func start(_ order: LoadOrder, delivering deliver: @escaping @Sendable (Response) -> Void) -> Handle {
        .delivering(cancel: backends.start(order.backend, resource: order.resource, answering: deliver))
    }

    /// Waits for the load; when the waiting task is cancelled (Ctrl-C on a download), so is the load.
    /// A load that delivers its answer itself is never waited for.
    public func finish(_ handle: Handle) async -> (response: Response, measured: SimTime) {
        guard case .task(let task) = handle else { preconditionFailure("a load that delivers its answer is not waited for") }
        return await task.answer()
    }

    /// Waits for the load until `deadline`; the load goes on when the deadline comes first (and is
    /// cancelled, as with `finish(_:)`, when the waiting task is).
    public func finish(_ handle: Handle, by deadline: ContinuousClock.Instant) async -> (response: Response, measured: SimTime)? {
        guard case .task(let task) = handle else { preconditionFailure("a load that delivers its answer is not waited for") }
        return await task.answer(by: deadline)
    }

    public func cancel(_ handle: Handle) {
        switch handle {
        case .task(let task): task.cancel()
        case .delivering(let cancel): cancel()
        }
    }
}
