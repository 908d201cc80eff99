/// What carries out a drive loop's loads: real backends as tasks (`BackendLoads`), or canned
/// answers in a test — as NIOEmbedded runs NIOCore's code with nothing real underneath.
public protocol LoadPerformer: Sendable {
    /// A load under way.
    associatedtype Handle: Sendable

    /// Starts `order`.
    func start(_ order: LoadOrder) -> Handle

    /// Waits for the load to finish: its response, and how long it really took.
    func finish(_ handle: Handle) async -> (response: Response, measured: SimTime)

    /// Waits for the load to finish until `deadline` on the wall clock: nil when it has not by then,
    /// and the load goes on (`finish` may be called for it later).
    func finish(_ handle: Handle, by deadline: ContinuousClock.Instant) async -> (response: Response, measured: SimTime)?

    /// Gives the load up; `finish` is not called for it afterwards.
    func cancel(_ handle: Handle)

    /// Starts `order` for a loop that takes answers as they arrive: its response goes to `deliver`
    /// as soon as it is there (also when the load was given up), and `finish` is not called for it.
    func start(_ order: LoadOrder, delivering deliver: @escaping @Sendable (Response) -> Void) -> Handle
}

extension LoadPerformer {
    /// Starts the load, and a task that waits for it and delivers its response.
    public func start(_ order: LoadOrder, delivering deliver: @escaping @Sendable (Response) -> Void) -> Handle {
        let handle = start(order)
        Task { deliver(await finish(handle).response) }
        return handle
    }

    /// Canned answers are there at once: waits for the load whatever the deadline.
    public func finish(_ handle: Handle, by deadline: ContinuousClock.Instant) async -> (response: Response, measured: SimTime)? {
        await finish(handle)
    }
}
