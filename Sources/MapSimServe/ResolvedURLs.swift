import MapSim

/// What `mapsim serve` made of the URLs it was asked for — the path below the folder, the resource
/// as the map names it, its role in the style — kept so that a URL asked again (every tile of a busy
/// map, every benchmark request) is not parsed, decoded and matched against the style's templates
/// again. Pure work on the URL and the style, which does not change while the server runs; at most
/// `capacity` URLs are kept, all forgotten when it is reached.
final class ResolvedURLs: Sendable {
    /// One URL, resolved.
    struct Resolved: Sendable {
        /// The path below the folder; nil for `/` or a path that leaves the folder.
        var relative: String?
        var resource: Resource
        var role: ServedStyle.Role?
    }

    private let kept: BoundedCache<Resolved>

    init(capacity: Int = 8_192) {
        kept = BoundedCache(budget: capacity)
    }

    /// `url`'s resolution: the one kept, or `resolve`'s, kept.
    func resolution(of url: String, _ resolve: () -> Resolved) -> Resolved {
        // `resolve` always makes one.
        kept.value(url) { resolve() } ?? resolve()
    }
}
