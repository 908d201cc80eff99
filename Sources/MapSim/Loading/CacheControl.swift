/// The directives of a `Cache-Control` header that MapLibre reads: `max-age` and `must-revalidate`.
struct CacheControl {
    var maxAge: Int64?
    var mustRevalidate = false

    init(_ header: String) {
        for directive in header.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { Self.trimmed($0) { $0 == " " || $0 == "\t" }.lowercased() }
            switch parts.first {
            case "max-age":
                maxAge = parts.count == 2 ? Int64(Self.trimmed(Substring(parts[1])) { $0 == "\"" }) : nil
            case "must-revalidate":
                mustRevalidate = true
            default:
                break
            }
        }
    }

    /// `text` without the characters `drops` at either end.
    private static func trimmed(_ text: Substring, _ drops: (Character) -> Bool) -> Substring {
        let start = text.drop(while: drops)
        return start[..<(start.lastIndex { !drops($0) }.map(start.index(after:)) ?? start.startIndex)]
    }
}
