/// A cache backend: answers lookups like a loader (a miss is `not-found`) and keeps what the
/// network returns. Writes are queued and return at once — off the map's actor and its virtual
/// timeline — but a lookup made after a write sees it; `flush()` waits until they are on disk.
public protocol ResourceCache: Sendable {
    /// Looks `resource` up; a hit carries the stored data and expiry, a miss is a `not-found` error.
    func load(_ resource: Resource) async -> Response

    /// Stores a network response for `resource`. Errors are never stored.
    func store(_ resource: Resource, _ response: Response)

    /// A 304 confirmed the stored copy of `resource`: refresh its expiry and access time only.
    func refresh(_ resource: Resource, _ response: Response)

    /// Waits until every write queued so far is done.
    func flush() async
}
