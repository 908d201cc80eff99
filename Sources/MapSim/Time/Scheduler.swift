/// Timed actions ordered by (time, lane, insertion order): the simulated clock of a run.
///
/// Like swift-nio's embedded event loop, time moves only when told: `popNext(notAfter:)` hands out
/// the earliest action and advances `now` to its time. Two actions at the same time come out by
/// lane — a map's own work in lane 0 before the work of what is attached to it — then in the order
/// they were scheduled, so a run never depends on hash order or task interleaving.
public struct Scheduler<Action>: Sendable where Action: Sendable {
    /// The current simulated time.
    public private(set) var now: SimTime = .zero
    /// The heap of keys; the actions stay in `slots`, so reordering the heap never copies them.
    private var heap: [SchedulerKey] = []
    private var slots: [Action?] = []
    private var freeSlots: [Int] = []
    private var nextSequence: UInt64 = 0

    /// An empty scheduler at time zero.
    public init() {}

    /// Whether no action is waiting.
    public var isEmpty: Bool { heap.isEmpty }

    /// How many actions wait.
    public var count: Int { heap.count }

    /// The earliest waiting action, left in place.
    public var first: Action? { heap.first.flatMap { slots[$0.slot] } }

    /// When the earliest waiting action is due; nil when none waits.
    public var nextTime: SimTime? { heap.first?.time }

    /// Where the earliest waiting action sits: its time, its lane and its place in the insertion order.
    public var next: (time: SimTime, lane: UInt8, sequence: UInt64)? {
        heap.first.map { ($0.time, $0.lane, $0.sequence) }
    }

    /// Takes the next place in the insertion order for an action that is not known yet; schedule it
    /// later with `schedule(_:at:sequence:)`, and it runs as if it had been scheduled now.
    public mutating func reserveSequence() -> UInt64 {
        defer { nextSequence += 1 }
        return nextSequence
    }

    /// Schedules `action` at `time` in `lane`; a time in the past runs at `now`.
    public mutating func schedule(_ action: Action, at time: SimTime, lane: UInt8 = 0) {
        schedule(action, at: time, lane: lane, sequence: reserveSequence())
    }

    /// Schedules `action` at `time` in `lane`, in the place of the insertion order reserved as `sequence`.
    public mutating func schedule(_ action: Action, at time: SimTime, lane: UInt8 = 0, sequence: UInt64) {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = action
        } else {
            slot = slots.count
            slots.append(action)
        }
        heap.append(SchedulerKey(time: max(time, now), lane: lane, sequence: sequence, slot: slot))
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
        return (first.time, take(first.slot))
    }

    /// Removes the earliest waiting action without moving `now`.
    public mutating func discardFirst() {
        guard !heap.isEmpty else { return }
        let first = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        _ = take(first.slot)
    }

    /// Moves `now` forward to `time` (never backwards) without running anything.
    public mutating func advance(to time: SimTime) {
        now = max(now, time)
    }

    private mutating func take(_ slot: Int) -> Action {
        let action = slots[slot].take()!
        freeSlots.append(slot)
        return action
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

/// Where a scheduled action sits: its time, its lane, its insertion order, and the slot that holds it.
private struct SchedulerKey: Sendable {
    var time: SimTime
    var lane: UInt8
    var sequence: UInt64
    var slot: Int

    func precedes(_ other: SchedulerKey) -> Bool {
        (time, lane, sequence) < (other.time, other.lane, other.sequence)
    }
}
