import MapSim

/// A region download's loads: `BackendLoads` whose answers, taken as they arrive, are packed for
/// storage on their own tasks (`PackedBodies`) before the download's loop sees them. Answers taken
/// in order (a simulated network) are packed by the loop itself.
struct PackingLoads: LoadPerformer {
    /// The loads themselves.
    let loads: BackendLoads
    /// Where the packed bodies wait for the loop.
    let packed: PackedBodies

    func start(_ order: LoadOrder) -> BackendLoads.Handle {
        loads.start(order)
    }

    func start(_ order: LoadOrder, delivering deliver: @escaping @Sendable (Response) -> Void) -> BackendLoads.Handle {
        let packed = packed
        return loads.start(order) { response in
            packed.pack(response, to: order.resource)
            deliver(response)
        }
    }

    func finish(_ handle: BackendLoads.Handle) async -> (response: Response, measured: SimTime) {
        await loads.finish(handle)
    }

    func finish(_ handle: BackendLoads.Handle,
                by deadline: ContinuousClock.Instant) async -> (response: Response, measured: SimTime)? {
        await loads.finish(handle, by: deadline)
    }

    func cancel(_ handle: BackendLoads.Handle) {
        loads.cancel(handle)
    }
}
