import NIOHTTP1

/// One request to `mapsim serve`, as its responder reads it: the method, the path as sent (still
/// percent-encoded), the query, the headers it looks at (names lowercased) and the host the client used.
struct ServeRequest: Sendable {
    var method: String
    var path: String
    var query: String?
    /// The request's headers, by lowercased name (the last of a repeated one).
    var headers: [String: String]
    /// The `Host` the client used, nil when it sent none.
    var host: String? { headers["host"] }

    init(method: String, path: String, query: String? = nil, headers: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }

    /// The request whose head is `head`.
    init(_ head: HTTPRequestHead) {
        let uri = head.uri
        if let mark = uri.utf8.firstIndex(of: UInt8(ascii: "?")) {
            path = String(uri[..<mark])
            query = String(uri[uri.utf8.index(after: mark)...])
        } else {
            path = uri
            query = nil
        }
        method = head.method.rawValue
        var headers: [String: String] = [:]
        headers.reserveCapacity(head.headers.count)
        for (name, value) in head.headers { headers[name.lowercased()] = value }
        self.headers = headers
    }
}
