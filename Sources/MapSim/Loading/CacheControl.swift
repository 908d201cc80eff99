/// The directives of a `Cache-Control` header that MapLibre reads: `max-age` and `must-revalidate`.
struct CacheControl {
    var maxAge: Int64?
    var mustRevalidate = false

    /// Reads `header` byte by byte (it is read for every answer): directives apart at commas, names
    /// in any case, blanks around names and values and quotes around a value ignored.
    init(_ header: String) {
        for directive in header.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let equals = directive.firstIndex(of: UInt8(ascii: "="))
            let name = ASCIIBytes.trimmingBlanks(directive[..<(equals ?? directive.endIndex)])
            if ASCIIBytes.equalsIgnoringCase(name, "max-age") {
                maxAge = equals.flatMap { equals in
                    let value = ASCIIBytes.trimmingBlanks(directive[directive.index(after: equals)...])
                    let quote = UInt8(ascii: "\"")
                    let unquoted = value.drop { $0 == quote }
                    return ASCIIBytes.integer(unquoted[..<(unquoted.lastIndex { $0 != quote }.map(unquoted.index(after:)) ?? unquoted.startIndex)])
                }
            } else if ASCIIBytes.equalsIgnoringCase(name, "must-revalidate") {
                mustRevalidate = true
            }
        }
    }
}
