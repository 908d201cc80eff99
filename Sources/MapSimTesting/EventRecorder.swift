import MapSim
import Synchronization

/// Records every event of a map, for assertions.
public final class EventRecorder: Sendable {
    private let recorded = Mutex<[MapEvent]>([])
    private let subscription = Mutex<Cancelable?>(nil)

    /// Starts recording the events of `map`.
    public init(_ map: Map) {
        let cancelable = map.subscribeAll { [weak self] event in self?.recorded.withLock { $0.append(event) } }
        subscription.withLock { $0 = cancelable }
    }

    /// Every event so far.
    public var events: [MapEvent] { recorded.withLock { $0 } }

    /// The payloads of every event so far.
    public var payloads: [MapEventPayload] { events.map(\.payload) }

    /// The typed payloads of the events of one type: `recorder.payloads(of: MapEvents.resourceRequest)`.
    public func payloads<Payload>(of kind: MapEventKind<Payload>) -> [Payload] {
        events.compactMap { kind.payload(in: $0.payload) }
    }

    /// The events of one type.
    public func events(of type: MapEventType) -> [MapEvent] {
        events.filter { $0.type == type }
    }

    /// The index of the first event matching `predicate`.
    public func firstIndex(where predicate: (MapEventPayload) -> Bool) -> Int? {
        events.firstIndex { predicate($0.payload) }
    }

    /// The index of the first event of `type`.
    public func firstIndex(of type: MapEventType) -> Int? {
        events.firstIndex { $0.type == type }
    }

    /// The events as JSON lines, joined.
    public var jsonLines: String {
        events.map(\.jsonLine).joined(separator: "\n")
    }
}
