/// Loads through a map's backends, each as a task of its own, timed on the continuous clock.
public struct BackendLoads: LoadPerformer {
    /// The backends the loads go to.
    public let backends: ResourceBackends

    /// Loads through `backends`.
    public init(_ backends: ResourceBackends) {
        self.backends = backends
    }

    public func start(_ order: LoadOrder) -> Task<(response: Response, measured: SimTime), Never> {
        let load = backends.loader(for: order.backend, resource: order.resource)
        return Task {
            let clock = ContinuousClock()
            let started = clock.now
            let response = await load()
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

    public func cancel(_ handle: Task<(response: Response, measured: SimTime), Never>) {
        handle.cancel()
    }
}
