/// The backends a map loads through: local files, local tile archives, an optional cache and an
/// optional network.
public struct ResourceBackends: Sendable {
    /// Answers `file://` and `asset://` URLs.
    public var file: any ResourceLoader
    /// Answers `mbtiles://` URLs (local tile archives); without one they fail with a clear message.
    public var archive: (any ResourceLoader)?
    /// The cache, consulted first for everything else.
    public var cache: (any ResourceCache)?
    /// The network (real or simulated); without one, remote URLs fail with a clear message.
    public var network: (any ResourceLoader)?

    /// Backends for a map.
    public init(file: any ResourceLoader, archive: (any ResourceLoader)? = nil, cache: (any ResourceCache)? = nil, network: (any ResourceLoader)? = nil) {
        self.file = file
        self.archive = archive
        self.cache = cache
        self.network = network
    }

    /// The load of one attempt from `backend`, ready to run as a task. The request pipeline chose the
    /// backend; a network load for a URL no network backend handles fails with a clear message.
    public func loader(for backend: RequestPipeline.Backend, resource: Resource) -> @Sendable () async -> Response {
        switch backend {
        case .file where URLResolver.scheme(of: resource.url) == "mbtiles":
            guard let archive else {
                return { .failure(.other, "mapsim cannot load \(resource.url): no backend for mbtiles:// URLs", source: .localFile) }
            }
            return { await archive.load(resource) }
        case .file:
            let file = self.file
            return { await file.load(resource) }
        case .cache:
            guard let cache else { return { .failure(.other, "no cache to look \(resource.url) up in", source: .cache) } }
            return { await cache.load(resource) }
        case .network:
            if let network, network.handles(resource.url) {
                return { await network.load(resource) }
            }
            let scheme = URLResolver.scheme(of: resource.url).map { "\($0):// URLs" } ?? "relative URLs without a base URL"
            let response = Response.failure(.other, "mapsim cannot load \(resource.url): no backend for \(scheme)", source: .network)
            return { response }
        }
    }

    /// Starts the load of one attempt from `backend` and hands its response to `answer`: a network
    /// load as the network loader starts one (AsyncHTTPClient's answer handed on from its event
    /// loop), any other in a task. Returns what gives the load up.
    public func start(_ backend: RequestPipeline.Backend, resource: Resource,
                      answering answer: @escaping @Sendable (Response) -> Void) -> @Sendable () -> Void {
        if backend == .network, let network, network.handles(resource.url) {
            return network.start(resource, answering: answer)
        }
        let load = loader(for: backend, resource: resource)
        let task = Task { answer(await load()) }
        return { task.cancel() }
    }
}
