/// A backend that answers resource requests: files, the cache, the network or a simulated network.
///
/// Loads are async and cancellable: a cancelled task may return early with any response, which the
/// caller discards. Failures are answered as a `Response` with an `error`, never thrown.
public protocol ResourceLoader: Sendable {
    /// Answers `resource`.
    func load(_ resource: Resource) async -> Response

    /// Whether this loader answers `url` at all (for composition).
    func handles(_ url: String) -> Bool
}
