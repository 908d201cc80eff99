import MapSim
import MapSimJSON
import MapSimPages

/// `mapsim serve`'s own page, below `/_mapsim/`: the requests served so far (a waterfall that asks
/// for new ones every `refreshInterval` — polling, so that no connection stays open beside the
/// preview's own requests), the conditions in force, and the served style drawn by MapLibre GL JS
/// (vendored, `MapLibreGL`), so that the map and its network are seen side by side. The page's
/// own requests are not served requests: they are neither recorded nor reported.
struct ServePage: Sendable {
    /// The path prefix the page lives under; a style's folder may not use it.
    static let prefix = "/_mapsim"
    /// How often the page asks for new requests.
    static let refreshInterval = Duration.milliseconds(250)

    let log: ServedRequestLog
    let conditions: ServeConditions
    let style: String
    let start: ContinuousClock.Instant

    /// Whether `path` is the page's.
    static func owns(_ path: String) -> Bool {
        path == prefix || path.hasPrefix(prefix + "/")
    }

    /// The answer for `path` (one the page owns) on a server reached at `base`
    /// (`http://HOST:PORT/`), with the request's `query`.
    func answer(path: String, query: String?, base: String, requestHeaders: [String: String]) -> FileAnswer {
        switch path.dropFirst(Self.prefix.count) {
        case "", "/", "/index.html":
            let data = JSONObject([("serve", .object(JSONObject([
                ("style", .string(style)), ("styleURL", .string(base + "style.json")),
                ("conditions", .array(conditions.facts.map { .array([.string($0.0), .string($0.1)]) })),
                ("refreshMs", .number(Double(Self.refreshInterval.components.seconds * 1000 + Self.refreshInterval.components.attoseconds / 1_000_000_000_000_000))),
            ])))])
            let head = "<link rel=\"stylesheet\" href=\"maplibre-gl.css\">\n<script src=\"maplibre-gl.js\"></script>\n"
            let html = PageDocument(mode: "serve", title: "mapsim serve", data: data, head: head).bytes
            return Self.fresh(html, type: "text/html; charset=utf-8")
        case "/requests.json":
            let after = query?.split(separator: "&").compactMap { part -> Int? in
                let pair = part.split(separator: "=", maxSplits: 1)
                return pair.count == 2 && pair[0] == "after" ? Int(pair[1]) : nil
            }.first ?? 0
            return Self.fresh(Array(log.json(after: after, now: SimTime(ContinuousClock.now - start)).utf8), type: "application/json")
        case "/maplibre-gl.js":
            return Self.kept(Array(MapLibreGL.script.utf8), type: "text/javascript; charset=utf-8", requestHeaders: requestHeaders)
        case "/maplibre-gl.css":
            return Self.kept(Array(MapLibreGL.styleSheet.utf8), type: "text/css; charset=utf-8", requestHeaders: requestHeaders)
        case "/maplibre-gl-LICENSE.txt":
            return Self.kept(Array(MapLibreGL.licence.utf8), type: "text/plain; charset=utf-8", requestHeaders: requestHeaders)
        default:
            let body = Array("not found: \(path) (the page is \(Self.prefix)/)\n".utf8)
            return FileAnswer(status: 404, headers: [("Content-Type", "text/plain; charset=utf-8")], body: body, contentLength: body.count)
        }
    }

    /// An answer never cached: the page and its requests change.
    private static func fresh(_ body: [UInt8], type: String) -> FileAnswer {
        FileAnswer(status: 200, headers: [("Content-Type", type), ("Cache-Control", "no-store")], body: body, contentLength: body.count)
    }

    /// An answer that never changes while the binary does not: GL JS and its licence, with an
    /// `ETag` that a browser's revalidation finds unchanged (304).
    private static func kept(_ body: [UInt8], type: String, requestHeaders: [String: String]) -> FileAnswer {
        let etag = "\"maplibre-gl-\(MapLibreGL.version)-\(body.count)\""
        let headers = [("Content-Type", type), ("ETag", etag), ("Cache-Control", "max-age=86400")]
        if requestHeaders["if-none-match"]?.contains(etag) == true { return FileAnswer(status: 304, headers: headers, body: [], contentLength: 0) }
        return FileAnswer(status: 200, headers: headers, body: body, contentLength: body.count)
    }
}
