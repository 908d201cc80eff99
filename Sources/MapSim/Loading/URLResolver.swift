/// Resolves relative URL references against a base URL (RFC 3986, section 5.2), on strings, so that
/// templates with `{z}` or `{fontstack}` stay intact.
public enum URLResolver {
    /// The scheme of `url` (lowercased), or nil for a relative reference. A scheme is ASCII (RFC 3986:
    /// a letter, then letters, digits, `+`, `-` and `.`), read byte by byte.
    public static func scheme(of url: String) -> String? {
        let bytes = url.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let candidate = bytes[..<colon]
        func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(ASCIIBytes.lowercased(byte)) }
        guard let first = candidate.first, isLetter(first), candidate.allSatisfy({ byte in
            isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }) else { return nil }
        let isLowercase = !candidate.contains { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
        return isLowercase ? String(Substring(candidate)) : String(decoding: candidate.map(ASCIIBytes.lowercased), as: UTF8.self)
    }

    /// Whether `url` names a local file: `file://`, `asset://` or a local tile archive
    /// (`mbtiles://`), which only the file backends answer, never the cache or the network.
    public static func isLocalFile(_ url: String) -> Bool {
        let scheme = scheme(of: url)
        return scheme == "file" || scheme == "asset" || scheme == "mbtiles"
    }

    /// `reference` resolved against `base`; an absolute reference is returned as it is.
    public static func resolve(_ reference: String, against base: String?) -> String {
        guard scheme(of: reference) == nil, let base, let baseScheme = scheme(of: base) else { return reference }
        let afterScheme = base.dropFirst(baseScheme.count + 1)
        var authority = ""
        var basePath = Substring(afterScheme)
        // `asset://` has no host: everything after the slashes is a path below the asset root.
        let hasHost = baseScheme != "asset"
        if afterScheme.hasPrefix("//") {
            let rest = afterScheme.dropFirst(2)
            let end = hasHost ? rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex : rest.startIndex
            authority = "//" + rest[..<end]
            basePath = rest[end...]
        }
        if let end = basePath.firstIndex(where: { $0 == "?" || $0 == "#" }) { basePath = basePath[..<end] }
        let prefix = baseScheme + ":" + authority
        if reference.hasPrefix("//") { return baseScheme + ":" + reference }
        if reference.isEmpty { return base }
        if reference.hasPrefix("?") || reference.hasPrefix("#") { return prefix + basePath + reference }

        let (referencePath, suffix) = splitQuery(reference)
        let mergedPath: String
        if referencePath.hasPrefix("/") {
            mergedPath = referencePath
        } else if let slash = basePath.lastIndex(of: "/") {
            mergedPath = basePath[...slash] + referencePath
        } else {
            mergedPath = (authority.isEmpty || !hasHost ? "" : "/") + referencePath
        }
        return prefix + removeDotSegments(mergedPath) + suffix
    }

    private static func splitQuery(_ reference: String) -> (path: String, suffix: String) {
        guard let index = reference.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return (reference, "") }
        return (String(reference[..<index]), String(reference[index...]))
    }

    /// The path with `.` and `..` segments removed; `..` never climbs above the root.
    public static func removeDotSegments(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if output.count > (absolute ? 1 : 0) { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        let joined = output.joined(separator: "/")
        return absolute && !joined.hasPrefix("/") ? "/" + joined : joined
    }
}
