/// Requests waiting for a network slot, first in first out, with O(1) push, pop and removal: a
/// removed request is forgotten at once and skipped when its turn comes.
struct RequestQueue: Sendable {
    private var items: [RequestID] = []
    private var head = 0
    private var waiting: Set<RequestID> = []

    /// How many requests wait.
    var count: Int { waiting.count }

    /// Puts `id` at the end.
    mutating func append(_ id: RequestID) {
        items.append(id)
        waiting.insert(id)
    }

    /// Takes `id` out of the queue, wherever it is.
    mutating func remove(_ id: RequestID) {
        waiting.remove(id)
    }

    /// The first request still waiting, taken out.
    mutating func popFirst() -> RequestID? {
        while head < items.count {
            let id = items[head]
            head += 1
            if head > 1_024 && head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
            if waiting.remove(id) != nil { return id }
        }
        return nil
    }
}
