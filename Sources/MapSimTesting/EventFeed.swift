/// Events as they come from a component that reports them through a handler, read by a test until
/// what it waits for has happened (or 20 seconds pass: then a `TestSupportError` is thrown).
public final class EventFeed<Event: Sendable>: Sendable {
    private let stream: AsyncStream<Event>
    /// Where the handler puts events.
    public let continuation: AsyncStream<Event>.Continuation

    /// A feed with nothing in it yet.
    public init() {
        (stream, continuation) = AsyncStream<Event>.makeStream()
    }

    /// A handler that feeds this feed, for components that report with a time.
    public func handler<Time>() -> @Sendable (Time, Event) -> Void {
        { [continuation] _, event in continuation.yield(event) }
    }

    /// The events from here on until `done` says so (with every event read so far in this call).
    public func events(until done: @escaping @Sendable ([Event]) -> Bool) async throws -> [Event] {
        try await withThrowingTaskGroup(of: [Event]?.self) { group in
            group.addTask {
                var seen: [Event] = []
                for await event in self.stream {
                    seen.append(event)
                    if done(seen) { return seen }
                }
                return seen
            }
            group.addTask {
                try await Task.sleep(for: .seconds(20))
                return nil
            }
            defer { group.cancelAll() }
            guard let seen = try await group.next() ?? nil else { throw TestSupportError(.timedOut, "what the test waited for did not happen within 20 s") }
            return seen
        }
    }

    /// Ends the feed and returns what is left in it.
    public func finish() async -> [Event] {
        continuation.finish()
        var rest: [Event] = []
        for await event in stream { rest.append(event) }
        return rest
    }
}
