/// Requests waiting for a network slot, first in first out, in groups that share a limit — a host's
/// connections, the image requests — with O(1) push and removal, and a pop that costs the number of
/// groups, not of requests: a request held back by its group's limit holds back none of another group.
struct RequestQueue: Sendable {
    /// What a request shares a limit with: its host (scheme, host and port) and whether it is an image.
    struct Group: Sendable, Hashable {
        var host: String
        var isImage: Bool
    }

    /// One group's requests in the order they came, each with its place in the whole queue.
    private struct Line: Sendable {
        var items: [(sequence: UInt64, id: RequestID)] = []
        var head = 0

        /// Moves past the first item, dropping the items passed once they are most of the array.
        mutating func advance() {
            head += 1
            if head > 1_024 && head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
        }
    }

    private var lines: [Group: Line] = [:]
    /// The groups in the order they first had a request (so that ties never depend on hash order).
    private var groups: [Group] = []
    private var waiting: Set<RequestID> = []
    private var nextSequence: UInt64 = 0

    /// How many requests wait.
    var count: Int { waiting.count }

    /// Puts `id` at the end of its group's line.
    mutating func append(_ id: RequestID, group: Group = Group(host: "", isImage: false)) {
        if lines[group] == nil {
            lines[group] = Line()
            groups.append(group)
        }
        lines[group]!.items.append((nextSequence, id))
        nextSequence += 1
        waiting.insert(id)
    }

    /// Takes `id` out of the queue, wherever it is.
    mutating func remove(_ id: RequestID) {
        waiting.remove(id)
    }

    /// The request that came first among the groups `allowed` lets start, taken out; the ones of
    /// other groups keep their places.
    mutating func popFirst(where allowed: (Group) -> Bool = { _ in true }) -> RequestID? {
        var best: (group: Group, sequence: UInt64)?
        for group in groups {
            guard let sequence = head(of: group), allowed(group) else { continue }
            if best == nil || sequence < best!.sequence { best = (group, sequence) }
        }
        guard let best else { return nil }
        let id = lines[best.group]!.items[lines[best.group]!.head].id
        lines[best.group]!.advance()
        waiting.remove(id)
        return id
    }

    /// The place of the first request still waiting in `group`'s line, dropping those removed.
    private mutating func head(of group: Group) -> UInt64? {
        while let line = lines[group], line.head < line.items.count {
            let item = line.items[line.head]
            if waiting.contains(item.id) { return item.sequence }
            lines[group]!.advance()
        }
        return nil
    }
}
