/// A browser's HTTP cache as the requests of a page meet it (GL JS's engine): a URL asked for again
/// while its answer is fresh (`Cache-Control: max-age`, `Expires`) is answered from memory, and a
/// request for a URL already on its way waits for that answer instead of going out again — as
/// Chromium's cache lock does — then takes it when it may be kept, else goes out itself.
struct BrowserCache: Sendable {
    /// Fresh answers, by URL (and byte range).
    private var fresh: [String: Response] = [:]
    /// The request on its way for each URL.
    private var leaders: [String: RequestID] = [:]
    /// The requests waiting for it, in the order they came.
    private var followers: [String: [RequestID]] = [:]

    /// What a request is kept by: its URL, and its byte range.
    private static func key(_ resource: Resource) -> String {
        resource.dataRange.map { "\(resource.url) \($0.lowerBound)-\($0.upperBound)" } ?? resource.url
    }

    /// The fresh answer the cache holds for `resource` at `date`, if any.
    func freshAnswer(for resource: Resource, at date: HTTPDate) -> Response? {
        guard let answer = fresh[Self.key(resource)], let expires = answer.expires, expires > date else { return nil }
        return answer
    }

    /// Makes `id` wait for the request on its way for the same URL, if there is one; else makes it
    /// the one that goes out. Returns whether it waits.
    mutating func join(_ id: RequestID, for resource: Resource) -> Bool {
        let key = Self.key(resource)
        guard leaders[key] != nil else {
            leaders[key] = id
            return false
        }
        followers[key, default: []].append(id)
        return true
    }

    /// The request `id` for `resource` was given up: a waiting one leaves the queue; one on its way
    /// hands its place to the first waiting one, which is returned to go out.
    mutating func leave(_ id: RequestID, for resource: Resource) -> RequestID? {
        let key = Self.key(resource)
        guard leaders[key] == id else {
            followers[key]?.removeAll { $0 == id }
            return nil
        }
        guard var waiting = followers[key], !waiting.isEmpty else {
            leaders[key] = nil
            return nil
        }
        let next = waiting.removeFirst()
        followers[key] = waiting.isEmpty ? nil : waiting
        leaders[key] = next
        return next
    }

    /// The final answer of the request on its way for `resource` came: kept when it may be (data
    /// and a freshness that has not run out at `date`). Returns the requests that waited for it,
    /// and whether they take it (else each goes out itself).
    mutating func settle(_ id: RequestID, for resource: Resource, with response: Response, at date: HTTPDate) -> (waiting: [RequestID], served: Bool) {
        let key = Self.key(resource)
        guard leaders[key] == id else { return ([], false) }
        leaders[key] = nil
        let waiting = followers.removeValue(forKey: key) ?? []
        let keeps = response.error == nil && response.data != nil && (response.expires.map { $0 > date } ?? false)
        if keeps { fresh[key] = response }
        return (waiting, keeps)
    }
}
