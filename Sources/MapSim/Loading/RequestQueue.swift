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

    /// The first request still waiting that `allowed` lets start (one to a host with a free
    /// connection, say), taken out; the ones before it keep their places.
    mutating func popFirst(where allowed: (RequestID) -> Bool = { _ in true }) -> RequestID? {
        var index = head
        while index < items.count {
            let id = items[index]
            let isWaiting = waiting.contains(id)
            if isWaiting && allowed(id) {
                waiting.remove(id)
                if index == head { advanceHead() }
                return id
            }
            if !isWaiting && index == head { advanceHead() }
            index += 1
        }
        return nil
    }

    /// Moves past the first item, dropping the items passed once they are most of the array.
    private mutating func advanceHead() {
        head += 1
        if head > 1_024 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
    }
}
