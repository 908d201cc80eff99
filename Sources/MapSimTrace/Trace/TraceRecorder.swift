import MapSim
import Synchronization

/// An observer that records a map's events as a trace: every event redacted, kept in order, and
/// written as it comes to any JSON-lines writers (`--events`, a streamed `--trace`).
///
/// ```swift
/// let recorder = TraceRecorder(header: Trace.Header(scenario: "cold-load"))
/// let subscription = recorder.record(map)
/// _ = await map.run(until: .mapIdle, timeout: .seconds(60))
/// subscription.cancel()
/// try recorder.trace.yaml.write(...)
/// ```
public final class TraceRecorder: Sendable {
    /// What the trace says ran.
    public let header: Trace.Header
    /// What it removes from every event.
    public let redactor: URLRedactor
    private let keepsEvents: Bool
    private let writers: [EventLineWriter]
    private let recorded = Mutex<[MapEvent]>([])

    /// A recorder; `keepsEvents` false only streams to `writers` (for long runs).
    public init(header: Trace.Header, redactor: URLRedactor = URLRedactor(), keepsEvents: Bool = true, writers: [EventLineWriter] = []) {
        self.header = header
        self.redactor = redactor
        self.keepsEvents = keepsEvents
        self.writers = writers
    }

    /// Records every event of `map` from now on, handing each redacted event to `observer` too;
    /// cancel the result to stop.
    public func record(_ map: Map, observer: (@Sendable (MapEvent) -> Void)? = nil) -> Cancelable {
        map.subscribeAll { [self] event in
            let redacted = record(event)
            observer?(redacted)
        }
    }

    /// Records one event; returns it as recorded (redacted).
    @discardableResult
    public func record(_ event: MapEvent) -> MapEvent {
        let redacted = redactor.redact(event)
        for writer in writers { writer.write(redacted) }
        if keepsEvents { recorded.withLock { $0.append(redacted) } }
        return redacted
    }

    /// The events recorded so far.
    public var events: [MapEvent] { recorded.withLock { $0 } }

    /// How many events were recorded so far.
    public var count: Int { recorded.withLock { $0.count } }

    /// The trace recorded so far.
    public var trace: Trace { Trace(header: header, events: events) }

    /// Closes the writers; throws if any write failed.
    public func close() throws(TraceError) {
        for writer in writers { try writer.close() }
    }
}
