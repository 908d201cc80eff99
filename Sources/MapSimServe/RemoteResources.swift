import Foundation
import MapSim
import Synchronization

/// What `mapsim serve` serves of resources on other servers: from a cache — a MapLibre offline
/// database, as the map SDKs and `mapsim load --cache` write it —, from their origin (`--proxy`,
/// keeping what it fetched: in the cache when there is one, else in memory), or both. Their URLs are
/// rewritten below the server as `_remote/SCHEME/HOST/PATH?QUERY`, so a client asks the server for
/// everything and the original URL is always known again — the key the cache stores it under.
public final class RemoteResources: Sendable {
    /// The folder below the server that remote URLs are served from.
    static let folder = "_remote"

    private let cache: (any ResourceCache)?
    private let origin: (any ResourceLoader)?
    /// What the proxy fetched, when there is no cache to keep it in: by URL (and tile).
    private let fetched = Mutex<[String: Response]>([:])
    /// The most answers kept in memory.
    private static let memoryCapacity = 100_000

    /// Resources from `cache` (looked up first), and from `origin` when the cache has no copy
    /// (`--proxy`); at least one of them.
    public init(cache: (any ResourceCache)?, origin: (any ResourceLoader)?) {
        self.cache = cache
        self.origin = origin
    }

    /// The path below the server `url` is served at, or nil when it is not an `http(s)` URL.
    static func servedPath(_ url: String) -> String? {
        guard let scheme = URLResolver.scheme(of: url)?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        let rest = url.dropFirst(scheme.count + 3)
        guard !rest.isEmpty else { return nil }
        return folder + "/" + scheme + "/" + rest
    }

    /// The URL a path below the server (percent-encoded as the client sent it, with its query)
    /// stands for; nil when it is not a remote path.
    static func originalURL(_ path: String) -> String? {
        let trimmed = path.drop { $0 == "/" }
        guard trimmed.hasPrefix(folder + "/") else { return nil }
        let rest = trimmed.dropFirst(folder.count + 1)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let scheme = rest[..<slash]
        guard scheme == "http" || scheme == "https", rest.index(after: slash) < rest.endIndex else { return nil }
        return "\(scheme)://\(rest[rest.index(after: slash)...])"
    }

    /// The resource: the cache's copy, else the origin's answer (kept for next time), else a
    /// not-found error saying that the cache has no copy.
    func load(_ resource: Resource) async -> Response {
        let key = Self.key(resource)
        if let cache {
            let cached = await cache.load(resource)
            if cached.error == nil { return cached }
        } else if let kept = fetched.withLock({ $0[key] }) {
            return kept
        }
        guard let origin else { return .failure(.notFound, "\(resource.url) is not in the cache", source: .cache) }
        let response = await origin.load(resource)
        if response.error == nil, !response.notModified {
            if let cache {
                cache.store(resource, response)
            } else {
                fetched.withLock { kept in
                    if kept.count >= Self.memoryCapacity { kept.removeAll() }
                    kept[key] = response
                }
            }
        }
        return response
    }

    /// Waits until what was fetched is in the cache.
    public func flush() async {
        await cache?.flush()
    }

    private static func key(_ resource: Resource) -> String {
        guard let tile = resource.tileData else { return resource.url }
        return "\(tile.urlTemplate) \(tile.pixelRatio) \(tile.id.z)/\(tile.id.x)/\(tile.id.y)"
    }
}
