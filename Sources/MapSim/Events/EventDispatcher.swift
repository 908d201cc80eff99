import Synchronization

/// Delivers events to observers in the order they subscribed. Safe to use from any task.
public final class EventDispatcher: Sendable {
    private struct State {
        var nextID = 0
        var observers: [(id: Int, handler: @Sendable (MapEvent) -> Void)] = []
        var finishers: [Int: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    /// A dispatcher with no observers.
    public init() {}

    /// Delivers `event` to every observer, synchronously, in subscription order.
    public func dispatch(_ event: MapEvent) {
        let observers = state.withLock { $0.observers }
        for observer in observers { observer.handler(event) }
    }

    /// Calls `handler` for every event until the returned `Cancelable` is cancelled or released.
    public func subscribe(_ handler: @escaping @Sendable (MapEvent) -> Void) -> Cancelable {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.observers.append((state.nextID, handler))
            return state.nextID
        }
        return Cancelable { [weak self] in
            self?.state.withLock { $0.observers.removeAll { $0.id == id } }
        }
    }

    /// Calls `handler` with the payload of every event of `kind`.
    public func subscribe<Payload>(_ kind: MapEventKind<Payload>, handler: @escaping @Sendable (TypedMapEvent<Payload>) -> Void) -> Cancelable {
        subscribe { event in
            if let payload = kind.extract(event.payload) {
                handler(TypedMapEvent(payload: payload, begin: event.begin, end: event.end))
            }
        }
    }

    /// Every event from now on, as an async sequence; the subscription ends when iteration stops.
    public func stream() -> AsyncStream<MapEvent> {
        let (stream, continuation) = AsyncStream<MapEvent>.makeStream(bufferingPolicy: .unbounded)
        let subscription = subscribe { continuation.yield($0) }
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.finishers[state.nextID] = { continuation.finish() }
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            subscription.cancel()
            _ = self?.state.withLock { $0.finishers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every `stream()` and removes every observer: nothing more will be sent.
    public func finish() {
        let finishers = state.withLock { state in
            defer {
                state.observers.removeAll()
                state.finishers.removeAll()
            }
            return state.finishers.sorted { $0.key < $1.key }.map(\.value)
        }
        for finish in finishers { finish() }
    }
}
