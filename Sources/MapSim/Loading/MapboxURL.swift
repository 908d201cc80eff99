/// Normalizes `mapbox://` URLs to the Mapbox API, as the Mapbox SDKs do before loading them.
public struct MapboxURL: Sendable, Equatable {
    /// The API base URL (default `https://api.mapbox.com`).
    public var baseURL: String
    /// The access token appended as `access_token`, if any.
    public var accessToken: String?

    /// A normalizer for this API and token.
    public init(baseURL: String = "https://api.mapbox.com", accessToken: String? = nil) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.accessToken = accessToken
    }

    /// Whether `url` is a `mapbox://` URL.
    public static func isMapbox(_ url: String) -> Bool {
        url.lowercased().hasPrefix("mapbox://")
    }

    /// A style URL: `mapbox://styles/USER/STYLE` → `BASE/styles/v1/USER/STYLE`.
    public func style(_ url: String) -> String {
        normalize(url, kind: "styles") { "/styles/v1/\($0)" }
    }

    /// A source URL: `mapbox://TILESETS` → `BASE/v4/TILESETS.json?secure`.
    public func source(_ url: String) -> String {
        guard Self.isMapbox(url) else { return url }
        let (path, query) = split(String(url.dropFirst("mapbox://".count)))
        return withToken(baseURL + "/v4/\(path).json", query: ["secure"] + query)
    }

    /// A sprite base URL: `mapbox://sprites/USER/STYLE` → `BASE/styles/v1/USER/STYLE/sprite`.
    public func sprite(_ url: String) -> String {
        normalize(url, kind: "sprites") { "/styles/v1/\($0)/sprite" }
    }

    /// A glyph template: `mapbox://fonts/USER/{fontstack}/{range}.pbf` → `BASE/fonts/v1/USER/...`.
    public func glyphs(_ url: String) -> String {
        normalize(url, kind: "fonts") { "/fonts/v1/\($0)" }
    }

    /// A tile template: `mapbox://tiles/...` → `BASE/v4/...`.
    public func tile(_ url: String) -> String {
        normalize(url, kind: "tiles") { "/v4/\($0)" }
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
