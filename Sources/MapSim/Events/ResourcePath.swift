import Foundation

/// Names resources as people read them and as runs on different servers compare: a URL below the
/// style's folder by its path there (`tiles/10/163/395.pbf`), one elsewhere on the style's server
/// from the server's root (`/fonts/a/0-255.pbf`), any other URL whole — percent-decoded, so a load
/// of the style file and a load of the same folder over HTTP, on any port, name the same paths.
public struct ResourcePath: Sendable, Equatable {
    /// The folder URL paths are taken below, ending in `/`.
    public let folder: String
    /// The scheme, host and port of `folder` (`http://127.0.0.1:8080`); nil for `file://` and other
    /// URLs without a host.
    public let origin: String?

    /// Paths below the folder of `base`: a style's URL (its folder is used) or a folder URL ending in `/`.
    public init(base: String) {
        let cut = base.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? base
        // No base (no style was loaded): every URL is named whole.
        folder = cut.lastIndex(of: "/").map { String(cut[...$0]) } ?? ""
        if let scheme = folder.range(of: "://"), folder[scheme.upperBound...].first != "/" {
            let host = folder[scheme.upperBound...].prefix { $0 != "/" }
            origin = String(folder[..<scheme.upperBound]) + host
        } else {
            origin = nil
        }
    }

    /// How `url` is named: below the folder, from the origin's root, or whole; percent-decoded.
    public func path(of url: String) -> String {
        let named: String
        if url.hasPrefix(folder) {
            named = String(url.dropFirst(folder.count))
        } else if let origin, url.hasPrefix(origin + "/") {
            named = String(url.dropFirst(origin.count))
        } else {
            named = url
        }
        return PercentDecoder.decode(named) ?? named
    }

    /// `text` (a message) with every URL below the folder or on the origin named as `path(of:)` names it.
    public func naming(in text: String) -> String {
        guard !folder.isEmpty, text.contains(folder) || origin.map(text.contains) == true else { return text }
        var result = ""
        var rest = Substring(text)
        while let range = [rest.range(of: folder), origin.flatMap({ rest.range(of: $0 + "/") })].compactMap({ $0 }).min(by: { $0.lowerBound < $1.lowerBound }) {
            result += rest[..<range.lowerBound]
            let end = rest[range.lowerBound...].firstIndex { $0 == " " || $0 == "\"" || $0 == ")" || $0 == "," } ?? rest.endIndex
            var url = String(rest[range.lowerBound..<end])
            var trailing = ""
            while let last = url.last, last == ":" || last == "." { trailing = String(last) + trailing; url.removeLast() }
            result += path(of: url) + trailing
            rest = rest[end...]
        }
        return result + rest
    }
}
