/// A backend that answers resource requests: files, the cache, the network or a simulated network.
///
/// Loads are async and cancellable: a cancelled task may return early with any response, which the
/// caller discards. Failures are answered as a `Response` with an `error`, never thrown.
public protocol ResourceLoader: Sendable {
    /// Answers `resource`.
    func load(_ resource: Resource) async -> Response

    /// Whether this loader answers `url` at all (for composition).
    func handles(_ url: String) -> Bool

    /// Starts answering `resource` and hands the response to `answer` once, from whatever thread
    /// has it (perhaps before returning): for a loop that takes answers as they arrive, with no
    /// task of its own per load. Returns what gives the load up; its answer comes all the same.
    func start(_ resource: Resource, answering answer: @escaping @Sendable (Response) -> Void) -> @Sendable () -> Void
}

extension ResourceLoader {
    /// `load(_:)` in a task of its own.
    public func start(_ resource: Resource, answering answer: @escaping @Sendable (Response) -> Void) -> @Sendable () -> Void {
        let task = Task { answer(await load(resource)) }
        return { task.cancel() }
    }
}
