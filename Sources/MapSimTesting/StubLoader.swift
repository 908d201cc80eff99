import MapSim
import Synchronization

/// An in-memory `ResourceLoader` for small unit tests: answers URLs from a table. URLs missing from
/// the table are `not-found`.
public final class StubLoader: ResourceLoader {
    private let table: Mutex<[String: Response]>

    /// A loader answering each URL of `responses` with its response.
    public init(_ responses: [String: Response] = [:]) {
        table = Mutex(responses)
    }

    /// Answers `url` with `data` from now on.
    public func serve(_ url: String, data: [UInt8]) {
        table.withLock { $0[url] = .success(data, source: .network) }
    }

    public func load(_ resource: Resource) async -> Response {
        return table.withLock { $0[resource.url] } ?? .failure(.notFound, "no stub for \(resource.url)", source: .network)
    }

    public func handles(_ url: String) -> Bool { true }
}
