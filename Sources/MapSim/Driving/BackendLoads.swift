import Synchronization

/// Loads through a map's backends, each as a task of its own, timed on the continuous clock.
public struct BackendLoads: LoadPerformer {
    /// The backends the loads go to.
    public let backends: ResourceBackends

    /// Loads through `backends`.
    public init(_ backends: ResourceBackends) {
        self.backends = backends
    }

    public func start(_ order: LoadOrder) -> Task<(response: Response, measured: SimTime), Never> {
        start(order) { _ in }
    }

    /// Starts the load in a task that hands its response to `deliver` itself: one task a load, not
    /// a second one to wait for the first.
    public func start(_ order: LoadOrder, delivering deliver: @escaping @Sendable (Response) -> Void) -> Task<(response: Response, measured: SimTime), Never> {
        let load = backends.loader(for: order.backend, resource: order.resource)
        return Task {
            let clock = ContinuousClock()
            let started = clock.now
            let response = await load()
            deliver(response)
            return (response, SimTime(clock.now - started))
        }
    }

    /// Waits for the load; when the waiting task is cancelled (Ctrl-C on a download), so is the load.
    public func finish(_ handle: Task<(response: Response, measured: SimTime), Never>) async -> (response: Response, measured: SimTime) {
        await withTaskCancellationHandler {
            await handle.value
        } onCancel: {
            handle.cancel()
        }
    }

    /// Waits for the load until `deadline`; the load goes on when the deadline comes first (and is
    /// cancelled, as with `finish(_:)`, when the waiting task is).
    public func finish(_ handle: Task<(response: Response, measured: SimTime), Never>,
                       by deadline: ContinuousClock.Instant) async -> (response: Response, measured: SimTime)? {
        let first = FirstAnswer<(response: Response, measured: SimTime)?>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                first.set(continuation)
                // Two racers; the loser's answer is dropped. Awaiting the load's value does not end it.
                Task { first.resume(await handle.value) }
                Task {
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    first.resume(nil)
                }
            }
        } onCancel: {
            handle.cancel()
        }
    }

    public func cancel(_ handle: Task<(response: Response, measured: SimTime), Never>) {
        handle.cancel()
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
