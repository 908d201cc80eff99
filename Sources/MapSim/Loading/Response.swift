/// The answer to a `Resource` request, as MapLibre's storage layer models it.
public struct Response: Sendable, Equatable {
    /// Where the answer came from.
    public enum Source: String, Sendable {
        case network, cache
        case tileStore = "tile-store"
        case localFile = "local-file"
    }

    /// Why a request failed, as MapLibre's `Response::Error` says it: a value the response carries
    /// (the pipeline decides from its reason whether to retry), never thrown.
    public struct Failure: Sendable, Equatable, CustomStringConvertible {
        /// The kinds of failure, as the resource-request event names them.
        public enum Reason: String, Sendable, CaseIterable {
            case notFound = "not-found"
            case server
            case connection
            case rateLimit = "rate-limit"
            case inOfflineMode = "in-offline-mode"
            case other
        }

        /// The kind of failure.
        public var reason: Reason
        /// A readable message naming what failed.
        public var message: String
        /// When to try again, for rate limits.
        public var retryAfter: HTTPDate?

        /// A failure of `reason`.
        public init(reason: Reason, message: String, retryAfter: HTTPDate? = nil) {
            self.reason = reason
            self.message = message
            self.retryAfter = retryAfter
        }

        public var description: String { "\(reason.rawValue): \(message)" }
    }

    /// The body, absent for no-content, not-modified and errors.
    public var data: [UInt8]?
    /// The body deflated in zlib's format as the server sent it (one gzip member, rewrapped), when it
    /// came compressed: what a store keeps without deflating the body again. Nil otherwise.
    public var zlibData: [UInt8]?
    /// The resource exists but is empty (HTTP 204, or a missing tile).
    public var noContent: Bool
    /// The no content is a tile the server does not have (HTTP 404), not one it sent empty (204):
    /// MapLibre Native takes both alike, GL JS does not. Events say only `no-content`.
    public var notFound = false
    /// The prior copy is still good (HTTP 304 without prior data).
    public var notModified: Bool
    /// The copy may not be used once expired without revalidation.
    public var mustRevalidate: Bool
    /// When the answer expires.
    public var expires: HTTPDate?
    /// When the resource was last modified.
    public var modified: HTTPDate?
    /// The entity tag.
    public var etag: String?
    /// Where the answer came from.
    public var source: Source
    /// Why it failed, if it did.
    public var error: Failure?

    /// A response.
    public init(data: [UInt8]? = nil, noContent: Bool = false, notModified: Bool = false, mustRevalidate: Bool = false,
                expires: HTTPDate? = nil, modified: HTTPDate? = nil, etag: String? = nil, source: Source, error: Failure? = nil) {
        self.data = data
        self.noContent = noContent
        self.notModified = notModified
        self.mustRevalidate = mustRevalidate
        self.expires = expires
        self.modified = modified
        self.etag = etag
        self.source = source
        self.error = error
    }

    /// A successful response carrying `data`.
    public static func success(_ data: [UInt8], source: Source) -> Response {
        Response(data: data, source: source)
    }

    /// A failed response.
    public static func failure(_ reason: Failure.Reason, _ message: String, source: Source) -> Response {
        Response(source: source, error: Failure(reason: reason, message: message))
    }

    /// The size of a body recorded without its bytes (a response read back from a trace).
    public var recordedSize: Int?

    /// The number of bytes of the body.
    public var size: Int { data?.count ?? recordedSize ?? 0 }
}
