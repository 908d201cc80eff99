extension ResourceRequest {
    /// How a request ended, as a waterfall sorts them.
    public enum Outcome: String, Sendable, CaseIterable {
        /// Answered with content.
        case ok
        /// A cached copy was confirmed (HTTP 304).
        case notModified = "not-modified"
        /// Answered with nothing: a 204, or a tile that is not there.
        case noContent = "no-content"
        /// Answered with an error.
        case error
        /// Cancelled before it was answered.
        case cancelled
    }

    /// How it ended.
    public var outcome: Outcome {
        guard let response, !cancelled else { return .cancelled }
        if response.error != nil { return .error }
        if response.notModified { return .notModified }
        if response.noContent { return .noContent }
        return .ok
    }

    /// Its answer as a status a person reads in a network panel: an HTTP error's status (`503`),
    /// another failure's reason (`connection`), `304` for a confirmed copy, `206` for a byte range,
    /// `200` for content, `no content`, `cancelled`.
    public var status: String {
        switch outcome {
        case .cancelled: return "cancelled"
        case .error:
            guard let error = response?.error else { return "error" }
            return error.message.hasPrefix("HTTP ") ? String(error.message.dropFirst(5).prefix(3)) : error.reason.rawValue
        case .notModified: return "304"
        case .noContent: return "no content"
        case .ok: return request.dataRange != nil ? "206" : "200"
        }
    }

    /// What answered it: `network`, `cache`, `file`, `asset` or `archive` (an `mbtiles://` or
    /// `pmtiles://` source); `—` for nothing (cancelled, or offline).
    public var answeredBy: String {
        guard let response, !cancelled, response.error?.reason != .inOfflineMode else { return "—" }
        let scheme = request.url.utf8.prefix { $0 != UInt8(ascii: ":") }
        if scheme.elementsEqual("mbtiles".utf8) || scheme.elementsEqual("pmtiles".utf8) { return "archive" }
        if response.source == .cache || dataSource == .database { return "cache" }
        switch dataSource {
        case .fileSystem: return "file"
        case .asset: return "asset"
        case .network, .resourceLoader: return response.source == .localFile ? "file" : "network"
        case .database: return "cache"
        }
    }
}
