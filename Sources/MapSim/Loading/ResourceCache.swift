/// A cache backend: answers lookups like a loader (a miss is `not-found`) and keeps what the
/// network returns. Writes are synchronous so that a response is stored before it is delivered.
public protocol ResourceCache: Sendable {
    /// Looks `resource` up; a hit carries the stored data and expiry, a miss is a `not-found` error.
    func load(_ resource: Resource) async -> Response

    /// Stores a network response for `resource`. Errors are never stored.
    func store(_ resource: Resource, _ response: Response)

    /// A 304 confirmed the stored copy of `resource`: refresh its expiry and access time only.
    func refresh(_ resource: Resource, _ response: Response)
}

/// The backends a map loads through: local files, an optional cache and an optional network.
public struct ResourceBackends: Sendable {
    /// Answers `file://` and `asset://` URLs.
    public var file: any ResourceLoader
    /// The cache, consulted first for everything else.
    public var cache: (any ResourceCache)?
    /// The network (real or simulated); without one, remote URLs fail with a clear message.
    public var network: (any ResourceLoader)?

    /// Backends for a map.
    public init(file: any ResourceLoader, cache: (any ResourceCache)? = nil, network: (any ResourceLoader)? = nil) {
        self.file = file
        self.cache = cache
        self.network = network
    }
}
