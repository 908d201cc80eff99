import MapSimJSON

/// One file of a site's content, as a manifest lists it: where it is (relative to the manifest), what
/// it is, its size and its SHA-256.
public struct ContentItem: Sendable, Hashable {
    /// What an item is.
    public enum Kind: String, Sendable, CaseIterable {
        case style, sprite, glyphs, tilejson, tile, geojson, other
    }

    /// Its URL, relative to the manifest's (a path like `tiles/11/327/791.pbf`).
    public var url: String
    public var kind: Kind
    /// Its size in bytes.
    public var size: Int
    /// Its SHA-256, as 64 lowercase hexadecimal digits.
    public var sha256: String

    /// An item.
    public init(url: String, kind: Kind, size: Int, sha256: String) {
        self.url = url
        self.kind = kind
        self.size = size
        self.sha256 = sha256
    }

    /// The kind a file of this path usually is.
    public static func kind(of path: String) -> Kind {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name == "style.json" { return .style }
        if name.hasPrefix("sprite") { return .sprite }
        if path.hasPrefix("glyphs/") || path.contains("/glyphs/") { return .glyphs }
        if name == "tiles.json" || name.hasSuffix(".tilejson") || name.hasSuffix("tilejson.json") { return .tilejson }
        if name.hasSuffix(".geojson") { return .geojson }
        if path.hasPrefix("tiles/") || name.hasSuffix(".pbf") || name.hasSuffix(".mvt") { return .tile }
        return .other
    }

    var json: JSONValue {
        .object(JSONObject([("url", .string(url)), ("kind", .string(kind.rawValue)), ("size", .number(Double(size))), ("sha256", .string(sha256))]))
    }
}
