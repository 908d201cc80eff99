/// The one table of a map's requests: each request id with the resource asked for and what it is
/// for. Requests are numbered in the order they are made; a purpose has at most one request at a
/// time, so the machines that asked speak of purposes, and answers find their resource here.
struct RequestTable: Sendable {
    /// A request under way.
    struct Entry: Sendable, Equatable {
        var purpose: RequestPurpose
        var resource: Resource
    }

    private var entries: [RequestID: Entry] = [:]
    private var ids: [RequestPurpose: RequestID] = [:]
    private var next = 0

    /// Records a request for `purpose`; returns its id.
    mutating func add(_ purpose: RequestPurpose, _ resource: Resource) -> RequestID {
        let id = RequestID(value: next)
        next += 1
        entries[id] = Entry(purpose: purpose, resource: resource)
        ids[purpose] = id
        return id
    }

    /// The request `id`, while it is under way.
    subscript(id: RequestID) -> Entry? { entries[id] }

    /// Forgets the request `id` (it has its final answer); returns what it was.
    @discardableResult
    mutating func remove(_ id: RequestID) -> Entry? {
        guard let entry = entries.removeValue(forKey: id) else { return nil }
        ids[entry.purpose] = nil
        return entry
    }

    /// Forgets the request for `purpose`; returns its id, or nil when there is none.
    mutating func remove(_ purpose: RequestPurpose) -> RequestID? {
        guard let id = ids.removeValue(forKey: purpose) else { return nil }
        entries[id] = nil
        return id
    }

    /// Forgets every request of the style load; returns their ids in the order they were made.
    mutating func removeStyleLoad() -> [RequestID] {
        let removed = entries.filter { $0.value.purpose.isStyleLoad }.keys.sorted()
        for id in removed { remove(id) }
        return removed
    }
}
