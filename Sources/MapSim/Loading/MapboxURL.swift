/// Normalizes `mapbox://` URLs to the Mapbox API, as the Mapbox SDKs do before loading them.
public struct MapboxURL: Sendable, Equatable {
    /// The API base URL (default `https://api.mapbox.com`).
    public var baseURL: String
    /// The access token appended as `access_token`, if any.
    public var accessToken: String?
    /// TileJSON URLs carry `secure` on a plain-http API too (the SDKs); Mapbox GL JS adds it only
    /// for an https API.
    public var marksPlainHTTPTileJSONSecure = true

    /// A normalizer for this API and token.
    public init(baseURL: String = "https://api.mapbox.com", accessToken: String? = nil) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.accessToken = accessToken
    }

    /// Whether `url` is a `mapbox://` URL.
    public static func isMapbox(_ url: String) -> Bool {
        // In the bytes, in any case: no lowercased copy (a download asks this of every tile).
        ASCIIBytes.equalsIgnoringCase(url.utf8.prefix(9), "mapbox://")
    }

    /// A style URL: `mapbox://styles/USER/STYLE` → `BASE/styles/v1/USER/STYLE`.
    public func style(_ url: String) -> String {
        normalize(url, kind: "styles") { "/styles/v1/\($0)" }
    }

    /// A source URL: `mapbox://TILESETS` → `BASE/v4/TILESETS.json?secure`.
    public func source(_ url: String) -> String {
        guard Self.isMapbox(url) else { return url }
        let (path, query) = split(String(url.dropFirst("mapbox://".count)))
        let secure = marksPlainHTTPTileJSONSecure || baseURL.lowercased().hasPrefix("https:")
        return withToken(baseURL + "/v4/\(path).json", query: (secure ? ["secure"] : []) + query)
    }

    /// A sprite base URL: `mapbox://sprites/USER/STYLE` → `BASE/styles/v1/USER/STYLE/sprite`.
    public func sprite(_ url: String) -> String {
        normalize(url, kind: "sprites") { "/styles/v1/\($0)/sprite" }
    }

    /// A glyph template: `mapbox://fonts/USER/{fontstack}/{range}.pbf` → `BASE/fonts/v1/USER/...`.
    public func glyphs(_ url: String) -> String {
        normalize(url, kind: "fonts") { "/fonts/v1/\($0)" }
    }

    /// A model: `mapbox://models/USER/MODEL.glb` → `BASE/models/v1/USER/MODEL.glb`.
    public func model(_ url: String) -> String {
        normalize(url, kind: "models") { "/models/v1/\($0)" }
    }

    /// A tile template: `mapbox://tiles/...` → `BASE/v4/...`.
    public func tile(_ url: String) -> String {
        normalize(url, kind: "tiles") { "/v4/\($0)" }
    }

    /// The canonical `mapbox://` form of a URL this normalizer made, as MapLibre Native keeps it in
    /// its offline database: `BASE/styles/v1/U/S` → `mapbox://styles/U/S`, `BASE/styles/v1/U/S/sprite@2x.png`
    /// → `mapbox://sprites/U/S@2x.png`, `BASE/fonts/v1/…` → `mapbox://fonts/…`, `BASE/v4/X.json?secure`
    /// → `mapbox://X`, any other `BASE/v4/…` (and the `*.tiles.mapbox.com` tile hosts) → `mapbox://tiles/…`;
    /// the access token is dropped, other query parameters are kept. Any other URL is returned as it is.
    public func canonical(_ url: String) -> String {
        // The slash where the host would end is looked at first: this is asked of every tile of a
        // download, and few URLs have one there.
        func starts(_ host: String) -> Bool {
            let (bytes, count) = (url.utf8, host.utf8.count)
            guard bytes.count > count, bytes[bytes.index(bytes.startIndex, offsetBy: count)] == UInt8(ascii: "/") else { return false }
            return ASCIIBytes.hasPrefix(url, host)
        }
        guard ASCIIBytes.hasPrefix(url, "http"), let host = starts(baseURL) ? baseURL : Self.apiHosts.first(where: starts) else { return url }
        let (rawPath, query) = split(String(url.dropFirst(host.count + 1)))
        let path = rawPath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var kept = query.filter { !$0.hasPrefix("access_token=") }
        let canonical: String
        if path.count >= 4, path[0] == "styles", path[1] == "v1" {
            if path.count == 5, let sprite = Self.spriteSuffix(path[4]) {
                canonical = "mapbox://sprites/\(path[2])/\(path[3])\(sprite)"
            } else if path.count == 4 {
                canonical = "mapbox://styles/\(path[2])/\(path[3])"
            } else {
                return url
            }
        } else if path.count >= 3, path[0] == "fonts", path[1] == "v1" {
            canonical = "mapbox://fonts/" + path.dropFirst(2).joined(separator: "/")
        } else if path.count == 2, path[0] == "v4", path[1].hasSuffix(".json") {
            kept.removeAll { $0 == "secure" }
            canonical = "mapbox://" + path[1].dropLast(".json".count)
        } else if path.count >= 2, path[0] == "v4" {
            canonical = "mapbox://tiles/" + path.dropFirst().joined(separator: "/")
        } else {
            return url
        }
        return kept.isEmpty ? canonical : canonical + "?" + kept.joined(separator: "&")
    }

    /// Why `url` cannot be asked of the Mapbox API without an access token: a URL of the API's own
    /// shapes (a style, sprite, glyph range, TileJSON, tile or model) that carries none names its
    /// `mapbox://` form and the variable to set; nil for any other URL, or with a token.
    public func tokenRefusal(of url: String) -> String? {
        guard accessToken == nil, !ASCIIBytes.contains(url, "access_token=") else { return nil }
        let canonical = canonical(url)
        if canonical != url { return Self.refusal(canonical) }
        guard ASCIIBytes.contains(url, "/models/v1/") else { return nil }
        let host = [baseURL] + Self.apiHosts
        guard let base = host.first(where: { url.hasPrefix($0 + "/models/v1/") }) else { return nil }
        return Self.refusal("mapbox://models/" + url.dropFirst(base.count + "/models/v1/".count))
    }

    private static func refusal(_ mapboxURL: String) -> String {
        "\(mapboxURL) needs a Mapbox access token: set MAPBOX_ACCESS_TOKEN or give --access-token"
    }

    /// The Mapbox API's own hosts, whose URLs TileJSON documents carry.
    private static let apiHosts = ["https://api.mapbox.com", "http://api.mapbox.com"] + ["a", "b", "c", "d"].map { "https://\($0).tiles.mapbox.com" }

    /// `sprite.json`, `sprite@2x.png`… → `.json`, `@2x.png`…; nil for any other name.
    private static func spriteSuffix(_ name: String) -> String? {
        guard name.hasPrefix("sprite") else { return nil }
        let suffix = String(name.dropFirst("sprite".count))
        return [".json", ".png", "@2x.json", "@2x.png"].contains(suffix) ? suffix : nil
    }

    private func normalize(_ url: String, kind: String, path makePath: (String) -> String) -> String {
        let prefix = "mapbox://\(kind)/"
        guard url.lowercased().hasPrefix(prefix) else { return url }
        let (path, query) = split(String(url.dropFirst(prefix.count)))
        return withToken(baseURL + makePath(path), query: query)
    }

    private func split(_ rest: String) -> (path: String, query: [String]) {
        guard let mark = rest.firstIndex(of: "?") else { return (rest, []) }
        let query = rest[rest.index(after: mark)...].split(separator: "&").map(String.init)
        return (String(rest[..<mark]), query)
    }

    private func withToken(_ url: String, query: [String]) -> String {
        var parameters = query.filter { !$0.hasPrefix("access_token=") }
        if let accessToken { parameters.append("access_token=\(accessToken)") }
        return parameters.isEmpty ? url : url + "?" + parameters.joined(separator: "&")
    }
}
