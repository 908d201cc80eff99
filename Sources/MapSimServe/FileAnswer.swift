import Foundation
import MapSim

/// How `mapsim serve` answers a request for a file, as static servers and tile servers do it: the
/// validators (`ETag`, `Last-Modified`) and 304s for `If-None-Match` / `If-Modified-Since`,
/// `Cache-Control: max-age`, one byte range (`206`, `416`), gzip for vector tiles and JSON when the
/// client accepts it (a file stored gzipped is sent as it is, or inflated for a client that does
/// not), CORS for browsers, and `HEAD`. Pure: the same request and file give the same answer.
struct FileAnswer: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]
    /// The length of the body a GET would carry (a HEAD's Content-Length).
    var contentLength: Int
    /// The body before the server's own gzip: what the event's size counts, as the simulated
    /// network counts the bytes it serves, so that a real client's trace compares with the map's.
    var unencodedBody: [UInt8] = []
    /// The bytes of the file a 206 carries.
    var range: ClosedRange<Int>?
    /// The `Last-Modified` it says.
    var modified: HTTPDate?

    /// The headers every answer carries, so that a browser may read it from any page.
    static let crossOrigin = [("Access-Control-Allow-Origin", "*"), ("Access-Control-Expose-Headers", "ETag, Content-Range, Content-Length")]

    /// The answer to a `method` request (`GET` or `HEAD`) with `requestHeaders` (names lowercased)
    /// for `content`; `gzip` compresses it (given its ETag) for a client that takes gzip.
    static func answer(method: String, requestHeaders: [String: String], content: [UInt8], contentType: String, etag: String,
                       modified: HTTPDate, modifiedText: String? = nil, maxAge: Int,
                       gzip compress: ([UInt8], String) -> [UInt8]? = { content, _ in ZlibCodec.deflate(content, format: .gzip) }) -> FileAnswer {
        let compressible = contentType.hasPrefix("application/x-protobuf") || contentType.hasPrefix("application/json")
            || contentType.hasPrefix("application/geo+json") || contentType.hasPrefix("application/vnd.mapbox-vector-tile")
        let acceptsGzip = requestHeaders["accept-encoding"].map(Self.acceptsGzip) ?? false
        let range = requestHeaders["range"]
        let storedGzip = ZlibCodec.isGzip(content)
        // A range is of the bytes as stored; otherwise gzip when the client takes it.
        let gzip = range == nil && compressible && acceptsGzip
        let representationTag = gzip && !storedGzip ? String(etag.dropLast()) + "-gzip\"" : etag
        var headers = [("Content-Type", contentType), ("ETag", representationTag), ("Last-Modified", modifiedText ?? modified.description),
                       ("Cache-Control", "max-age=\(maxAge)"), ("Accept-Ranges", "bytes")] + crossOrigin
        if compressible { headers.append(("Vary", "Accept-Encoding")) }

        if let tags = requestHeaders["if-none-match"] {
            let listed = tags.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "W/", with: "") }
            if listed.contains("*") || listed.contains(etag) || listed.contains(representationTag) {
                return FileAnswer(status: 304, headers: headers, body: [], contentLength: 0, modified: modified)
            }
        } else if let since = requestHeaders["if-modified-since"].flatMap(HTTPDate.init(rfc1123:)), modified <= since {
            return FileAnswer(status: 304, headers: headers, body: [], contentLength: 0, modified: modified)
        }

        var body = content
        var status = 200
        var served: ClosedRange<Int>?
        if let range, let wanted = Self.byteRange(range, size: content.count) {
            switch wanted {
            case .some(let bounds):
                body = Array(content[bounds])
                status = 206
                served = bounds
                headers.append(("Content-Range", "bytes \(bounds.lowerBound)-\(bounds.upperBound)/\(content.count)"))
            case .none:
                headers.append(("Content-Range", "bytes */\(content.count)"))
                return FileAnswer(status: 416, headers: headers, body: [], contentLength: 0, modified: modified)
            }
        } else if gzip {
            if !storedGzip, let compressed = compress(content, etag) { body = compressed }
            headers.append(("Content-Encoding", "gzip"))
        } else if storedGzip && compressible, let inflated = try? ZlibCodec.inflate(content) {
            body = inflated
        }
        let length = body.count
        return FileAnswer(status: status, headers: headers, body: method == "HEAD" ? [] : body, contentLength: length,
                          unencodedBody: gzip && !storedGzip ? content : body, range: served, modified: modified)
    }

    /// Whether an `Accept-Encoding` value takes gzip (`gzip`, `*`, not `gzip;q=0`).
    static func acceptsGzip(_ value: String) -> Bool {
        value.split(separator: ",").contains { item in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { return false }
            return !parts.dropFirst().contains { $0.replacingOccurrences(of: " ", with: "") == "q=0" || $0.hasPrefix("q=0.0") && Double($0.dropFirst(2)) == 0 }
        }
    }

    /// The bytes one `Range: bytes=…` header asks for: nil when it is not one range the server
    /// honours (several ranges, another unit: the whole file is sent), `.some(nil)` when it cannot be
    /// satisfied (416).
    static func byteRange(_ header: String, size: Int) -> ClosedRange<Int>?? {
        let value = header.trimmingCharacters(in: .whitespaces)
        guard value.lowercased().hasPrefix("bytes=") else { return nil }
        let spec = value.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            // The last N bytes.
            guard let count = Int(last), count >= 0 else { return nil }
            guard count > 0, size > 0 else { return .some(nil) }
            return .some(max(0, size - count)...(size - 1))
        }
        guard let start = Int(first), start >= 0 else { return nil }
        let end = last.isEmpty ? size - 1 : Int(last).map { min($0, size - 1) }
        guard let end else { return nil }
        if !last.isEmpty, let stated = Int(last), stated < start { return nil }
        guard start < size, start <= end else { return .some(nil) }
        return .some(start...end)
    }
}
