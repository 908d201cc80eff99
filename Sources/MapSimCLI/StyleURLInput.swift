import MapSimKit

/// A style `validate` is given by URL — http(s), or `mapbox://styles/…` on the Mapbox API — read
/// over the network as `load` reads one: one request, the network's own limits (10 s to connect,
/// 30 s of silence) or `--timeout`, at most `Style.maximumDocumentSize` bytes.
enum StyleURLInput {
    /// Whether `argument` names a style by URL rather than a file.
    static func isURL(_ argument: String) -> Bool {
        guard let scheme = URLResolver.scheme(of: argument) else { return false }
        return scheme == "http" || scheme == "https" || scheme == "mapbox"
    }

    /// The bytes of the style at `url` (a `mapbox://` URL through `mapbox`), each answer the network
    /// allows waiting at most `timeout`; an answer with no style is an error naming the URL and why.
    static func read(_ url: String, mapbox: MapboxURL, timeout: SimTime?) async throws(InputFileError) -> [UInt8] {
        var options = HTTPResourceLoader.Options(waitingAtMost: timeout)
        options.maximumResponseSize = Style.maximumDocumentSize
        let loader = HTTPResourceLoader(options: options)
        let response = await loader.load(.style(MapboxURL.isMapbox(url) ? mapbox.style(url) : url))
        try? await loader.shutdown()
        if let error = response.error {
            throw InputFileError(.unreadable, path: url, URLRedactor().redact(error.message))
        }
        guard let data = response.data, !response.noContent else {
            throw InputFileError(.unreadable, path: url, "the server answered with no content")
        }
        return data
    }
}
