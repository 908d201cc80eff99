import MapSim

/// Where a site's content is served: its manifest is `manifest.json` next to the style, and each
/// item's URL is resolved against the manifest's.
public struct ContentLocation: Sendable, Hashable {
    /// The style whose site this is.
    public let styleURL: String
    /// The URL of the site's manifest.
    public let manifestURL: String

    /// The site of the style at `styleURL`.
    public init(styleURL: String) {
        self.styleURL = styleURL
        manifestURL = URLResolver.resolve("manifest.json", against: styleURL)
    }

    /// The URL of `item`, its path percent-encoded as the map spells URLs (`Mapsim%20Sans%20Regular`).
    public func url(of item: ContentItem) -> String {
        URLResolver.resolve(item.url.split(separator: "/", omittingEmptySubsequences: false).map { GlyphURL.percentEncode(String($0)) }.joined(separator: "/"),
                            against: manifestURL)
    }
}
