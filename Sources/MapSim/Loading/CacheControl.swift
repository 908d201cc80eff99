import Foundation

/// The directives of a `Cache-Control` header that MapLibre reads: `max-age` and `must-revalidate`.
struct CacheControl {
    var maxAge: Int64?
    var mustRevalidate = false

    init(_ header: String) {
        for directive in header.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            switch parts.first {
            case "max-age":
                maxAge = parts.count == 2 ? Int64(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))) : nil
            case "must-revalidate":
                mustRevalidate = true
            default:
                break
            }
        }
    }
}
