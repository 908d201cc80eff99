import Synchronization

/// Events as they come from a component that reports them through a handler, read by a test until
/// what it waits for has happened (or two minutes pass: then a `TestSupportError` is thrown — a
/// bound that a machine whose few cores the whole suite keeps busy still meets).
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

    /// The events from here on until `done` says so (with every event read so far in this call);
    /// when two minutes pass first, the error lists what did come.
    public func events(until done: @escaping @Sendable ([Event]) -> Bool) async throws -> [Event] {
        let seen = Seen()
        let finished = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await event in self.stream {
                    let all = seen.events.withLock { events in
                        events.append(event)
                        return events
                    }
                    if done(all) { return true }
                }
                return false
            }
            group.addTask {
                try await Task.sleep(for: .seconds(120))
                return false
            }
            defer { group.cancelAll() }
            return try await group.next() ?? false
        }
        let events = seen.events.withLock { $0 }
        guard finished else { throw TestSupportError(.timedOut, "what the test waited for did not happen within 2 min; what came: \(events)") }
        return events
    }

    /// The events one wait has read, shared with the task that reads them.
    private final class Seen: Sendable {
        let events = Mutex<[Event]>([])
    }

    /// Ends the feed and returns what is left in it.
    public func finish() async -> [Event] {
        continuation.finish()
        var rest: [Event] = []
        for await event in stream { rest.append(event) }
        return rest
    }
}
