import Synchronization

/// Loads through a map's backends, each as a task of its own timed on the continuous clock, or,
/// for a loop that takes answers as they arrive, started as the backend starts them.
public struct BackendLoads: LoadPerformer {
    /// A load under way: a task to wait for, or one whose answer is handed on as it arrives.
    public enum Handle: Sendable {
        /// A load whose response and time `finish` waits for.
        case task(Task<(response: Response, measured: SimTime), Never>)
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
        let load = backends.loader(for: order.backend, resource: order.resource)
        return .task(Task {
            let clock = ContinuousClock()
            let started = clock.now
            let response = await load()
            return (response, SimTime(clock.now - started))
        })
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
        return await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Waits for the load until `deadline`; the load goes on when the deadline comes first (and is
    /// cancelled, as with `finish(_:)`, when the waiting task is).
    public func finish(_ handle: Handle, by deadline: ContinuousClock.Instant) async -> (response: Response, measured: SimTime)? {
        guard case .task(let task) = handle else { preconditionFailure("a load that delivers its answer is not waited for") }
        let first = FirstAnswer<(response: Response, measured: SimTime)?>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                first.set(continuation)
                // Two racers; the loser's answer is dropped. Awaiting the load's value does not end it.
                Task { first.resume(await task.value) }
                Task {
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    first.resume(nil)
                }
            }
        } onCancel: {
            task.cancel()
        }
    }

    public func cancel(_ handle: Handle) {
        switch handle {
        case .task(let task): task.cancel()
        case .delivering(let cancel): cancel()
        }
    }
}

/// The first of several racers' answers, handed to one waiting continuation; later ones are dropped.
private final class FirstAnswer<Value: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Value, Never>?, done: Bool)>((nil, false))

    func set(_ continuation: CheckedContinuation<Value, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    func resume(_ value: Value) {
        let continuation = state.withLock { state -> CheckedContinuation<Value, Never>? in
            guard !state.done else { return nil }
            state.done = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: value)
    }
}
