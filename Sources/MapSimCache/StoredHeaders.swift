/// The HTTP headers a row keeps.
struct StoredHeaders: Sendable {
    var expires: Int64?
    var modified: Int64?
    var etag: String?
    var mustRevalidate: Bool
}
