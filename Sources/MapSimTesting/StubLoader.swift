import MapSim
import Synchronization

/// An in-memory `ResourceLoader` for small unit tests: answers URLs from a table, and remembers what
/// was asked. URLs missing from the table are `not-found`.
public final class StubLoader: ResourceLoader {
    private let table: Mutex<[String: Response]>
    private let requested = Mutex<[Resource]>([])

    /// A loader answering each URL of `responses` with its response.
    public init(_ responses: [String: Response] = [:]) {
        table = Mutex(responses)
    }

    /// Answers `url` with `data` from now on.
    public func serve(_ url: String, data: [UInt8]) {
        table.withLock { $0[url] = .success(data, source: .network) }
    }

    /// Answers `url` with `response` from now on.
    public func serve(_ url: String, response: Response) {
        table.withLock { $0[url] = response }
    }

    /// Every resource asked for, in order.
    public var requests: [Resource] { requested.withLock { $0 } }

    public func load(_ resource: Resource) async -> Response {
        requested.withLock { $0.append(resource) }
        return table.withLock { $0[resource.url] } ?? .failure(.notFound, "no stub for \(resource.url)", source: .network)
    }

    public func handles(_ url: String) -> Bool { true }

    public func dataSource(for url: String) -> DataSource { .network }
}
