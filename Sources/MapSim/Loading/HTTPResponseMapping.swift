import Foundation

/// Maps an HTTP status, headers and body to a `Response`, with the rules of MapLibre's online file
/// source (README, "Loading, caching and offline"). Shared by the real and the simulated network.
public enum HTTPResponseMapping {
    /// The `Response` for an HTTP answer to `resource`. Header names are matched case-insensitively;
    /// `now` is the wall-clock time the answer arrived, for `Retry-After` given in seconds. `zlib` is
    /// the body as the server deflated it, in zlib's format, when it came compressed.
    public static func response(status: Int, headers: [(name: String, value: String)], body: [UInt8], zlib: [UInt8]? = nil,
                                for resource: Resource, now: HTTPDate) -> Response {
        func header(_ name: StaticString) -> String? {
            headers.last { ASCIIBytes.equalsIgnoringCase($0.name.utf8, name) }?.value
        }
        var response = Response(source: .network)
        response.etag = header("etag")
        response.modified = header("last-modified").flatMap(HTTPDate.init(rfc1123:))
        let cacheControl = CacheControl(header("cache-control") ?? "")
        response.mustRevalidate = cacheControl.mustRevalidate
        if let maxAge = cacheControl.maxAge {
            response.expires = now.adding(seconds: maxAge)
        } else if let expires = header("expires") {
            response.expires = HTTPDate(rfc1123: expires) ?? HTTPDate(secondsSince1970: 0)
        }
        let url = resource.url
        switch status {
        case 200:
            // A server that ignores `Range` sends everything: keep the bytes asked for.
            response.data = resource.dataRange.map { slice(body, to: $0) } ?? body
            if resource.dataRange == nil { response.zlibData = zlib }
        case 206:
            response.data = body
        case 416:
            let size = header("content-range").map { " (\($0))" } ?? ""
            let range = resource.dataRange.map { "bytes \($0.lowerBound)–\($0.upperBound)" } ?? "the range asked for"
            response.error = .init(reason: .other, message: "HTTP 416: \(range) are past the end of \(url)\(size)")
        case 204:
            response.noContent = true
        case 304:
            response.notModified = true
        case 404 where resource.kind == .tile && resource.dataRange == nil:
            response.noContent = true
            response.notFound = true
        case 404:
            response.error = .init(reason: .notFound, message: "HTTP 404 Not Found: \(url)")
        case 429:
            response.error = .init(reason: .rateLimit, message: "HTTP 429 Too Many Requests: \(url)",
                                   retryAfter: retryAfter(header("retry-after"), reset: header("x-rate-limit-reset"), now: now))
        case 500...599:
            response.error = .init(reason: .server, message: "HTTP \(status) server error: \(url)")
        default:
            response.error = .init(reason: .other, message: "HTTP \(status): \(url)")
        }
        return response
    }

    /// Bytes `range` of a whole body: fewer when the body ends inside it, none past its end.
    private static func slice(_ body: [UInt8], to range: ClosedRange<UInt64>) -> [UInt8] {
        guard range.lowerBound < UInt64(body.count) else { return [] }
        let end = min(UInt64(body.count) - 1, range.upperBound)
        return Array(body[Int(range.lowerBound)...Int(end)])
    }

    /// `Retry-After` as seconds or an HTTP date, else `x-rate-limit-reset` as epoch seconds.
    static func retryAfter(_ value: String?, reset: String?, now: HTTPDate) -> HTTPDate? {
        if let value = value?.trimmingCharacters(in: .whitespaces) {
            if let seconds = Int64(value) { return now.adding(seconds: max(seconds, 0)) }
            if let date = HTTPDate(rfc1123: value) { return date }
        }
        return reset.flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.map(HTTPDate.init(secondsSince1970:))
    }
}
