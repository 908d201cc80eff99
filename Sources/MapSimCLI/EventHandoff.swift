import Dispatch
import MapSimKit
import Synchronization

/// Events handed from `serve`'s event loops to one recording queue: a loop only appends the event
/// to a list, and the queue takes the whole list every `interval` and hands it to `deliver`, which
/// records, counts and prints them — so the JSON of each event is written off the loops that answer
/// requests, and a loop takes one lock per request, not one per thing that hears of it. Events are
/// delivered in the order they were handed over. The list holds at most `limit` events: a loop that
/// would go past it waits while the queue delivers them (a slow disk under `--events` slows the
/// server, as it did when the loops recorded, rather than filling memory; what is printed never
/// waits for its reader: `LinePrinter`). `finish()` delivers what is left and stops.
final class EventHandoff: Sendable {
    private struct State {
        var pending: [MapEvent] = []
        var finished = false

        /// The pending events, leaving an empty list with room for as many.
        mutating func take() -> [MapEvent] {
            var taken: [MapEvent] = []
            taken.reserveCapacity(pending.count)
            swap(&taken, &pending)
            return taken
        }
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "mapsim.serve.recording")
    private let interval: DispatchTimeInterval
    private let limit: Int
    private let deliver: @Sendable ([MapEvent]) -> Void

    /// Starts taking events every `interval`; at most `limit` wait at once.
    init(interval: DispatchTimeInterval = .milliseconds(10), limit: Int = 10_000, deliver: @escaping @Sendable ([MapEvent]) -> Void) {
        self.interval = interval
        self.limit = max(1, limit)
        self.deliver = deliver
        schedule()
    }

    /// Hands `event` over, from any thread; an event handed after `finish()` is dropped. When the
    /// list is full, waits until the queue has delivered it.
    func hand(_ event: MapEvent) {
        let isFull = state.withLock { state in
            guard !state.finished else { return false }
            state.pending.append(event)
            return state.pending.count >= limit
        }
        guard isFull else { return }
        queue.sync { _ = deliverPending() }
    }

    /// Delivers every event handed over so far, and takes no more.
    func finish() {
        queue.sync { _ = deliverPending(finishing: true) }
    }

    /// The next turn of the queue: the list delivered, and the turn after it.
    private func schedule() {
        queue.asyncAfter(deadline: .now() + interval) { [self] in
            if !deliverPending() { schedule() }
        }
    }

    /// Takes the whole list and delivers it, on the queue (`finishing`: and takes no more);
    /// whether the handoff has finished.
    private func deliverPending(finishing: Bool = false) -> Bool {
        let (taken, finished) = state.withLock { state in
            if finishing { state.finished = true }
            return (state.take(), state.finished)
        }
        if !taken.isEmpty { deliver(taken) }
        return finished
    }
}
