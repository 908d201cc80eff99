/// Timed actions ordered by (time, insertion order): the simulated clock of a run.
///
/// Like swift-nio's embedded event loop, time moves only when told: `popNext(notAfter:)` hands out
/// the earliest action and advances `now` to its time. Two actions at the same time come out in the
/// order they were scheduled, so a run never depends on hash order or task interleaving.
public struct Scheduler<Action>: Sendable where Action: Sendable {
    private struct Entry: Sendable {
        var time: SimTime
        var sequence: UInt64
        var action: Action

        func precedes(_ other: Entry) -> Bool {
            (time, sequence) < (other.time, other.sequence)
        }
    }

    /// The current simulated time.
    public private(set) var now: SimTime = .zero
    private var heap: [Entry] = []
    private var nextSequence: UInt64 = 0

    /// An empty scheduler at time zero.
    public init() {}

    /// Whether no action is waiting.
    public var isEmpty: Bool { heap.isEmpty }

    /// When the earliest waiting action is due; nil when none waits.
    public var nextTime: SimTime? { heap.first?.time }

    /// Schedules `action` at `time`; a time in the past runs at `now`.
    public mutating func schedule(_ action: Action, at time: SimTime) {
        let entry = Entry(time: max(time, now), sequence: nextSequence, action: action)
        nextSequence += 1
        heap.append(entry)
        siftUp(heap.count - 1)
    }

    /// Removes and returns the earliest action if it is due no later than `limit`, advancing `now`
    /// to its time; nil when nothing is due by then.
    public mutating func popNext(notAfter limit: SimTime) -> (time: SimTime, action: Action)? {
        guard let first = heap.first, first.time <= limit else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        now = first.time
        return (first.time, first.action)
    }

    /// Moves `now` forward to `time` (never backwards) without running anything.
    public mutating func advance(to time: SimTime) {
        now = max(now, time)
    }

    /// Removes every waiting action for which `predicate` is true.
    public mutating func removeAll(where predicate: (Action) -> Bool) {
        let kept = heap.filter { !predicate($0.action) }
        guard kept.count != heap.count else { return }
        heap = []
        for entry in kept.sorted(by: { $0.precedes($1) }) { heap.append(entry) }
    }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < heap.count, heap[left].precedes(heap[first]) { first = left }
            if right < heap.count, heap[right].precedes(heap[first]) { first = right }
            if first == parent { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }
}
