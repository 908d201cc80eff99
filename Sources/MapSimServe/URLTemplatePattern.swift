/// A URL template (`/tiles/{z}/{x}/{y}.pbf`, `/fonts/{fontstack}/{range}.pbf`) read backwards: which
/// paths it makes, and the value of each placeholder in one of them.
struct URLTemplatePattern: Sendable, Equatable {
    private enum Part: Sendable, Equatable {
        case literal(String)
        case placeholder(String)
    }

    private let parts: [Part]

    /// The pattern of `template`: text between `{` and `}` is a placeholder.
    init(_ template: String) {
        var parts: [Part] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
            parts.append(.placeholder(String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        self.parts = parts
    }

    /// The placeholders' values when `path` is one the template makes (a placeholder matches at
    /// least one character and no `/` but `{fontstack}`'s commas); nil otherwise.
    func match(_ path: String) -> [String: String]? {
        var values: [String: String] = [:]
        return Self.match(parts[...], Substring(path), &values) ? values : nil
    }

    private static func match(_ parts: ArraySlice<Part>, _ path: Substring, _ values: inout [String: String]) -> Bool {
        guard let first = parts.first else { return path.isEmpty }
        switch first {
        case .literal(let text):
            guard path.hasPrefix(text) else { return false }
            return match(parts.dropFirst(), path.dropFirst(text.count), &values)
        case .placeholder(let name):
            // The shortest value that lets the rest match, so `{y}.pbf` takes the digits only.
            var end = path.startIndex
            while end < path.endIndex, path[end] != "/" {
                end = path.index(after: end)
                var attempt = values
                attempt[name] = String(path[path.startIndex..<end])
                if match(parts.dropFirst(), path[end...], &attempt) {
                    values = attempt
                    return true
                }
            }
            return false
        }
    }
}
