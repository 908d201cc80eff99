/// A URL template (`/tiles/{z}/{x}/{y}.pbf`, `/fonts/{fontstack}/{range}.pbf`) read backwards: which
/// paths it makes, and the value of each placeholder in one of them.
struct URLTemplatePattern: Sendable, Equatable {
    private enum Part: Sendable, Equatable {
        case literal([UInt8])
        case placeholder(String)
    }

    private let parts: [Part]

    /// The pattern of `template`: text between `{` and `}` is a placeholder.
    init(_ template: String) {
        var parts: [Part] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { parts.append(.literal(Array(rest[..<open].utf8))) }
            parts.append(.placeholder(String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(Array(rest.utf8))) }
        self.parts = parts
    }

    /// The placeholders' values when `path` is one the template makes (a placeholder matches at
    /// least one character and no `/` but `{fontstack}`'s commas); nil otherwise.
    func match(_ path: String) -> [String: String]? {
        // Bytes and index ranges: this runs on every request a server classifies.
        let bytes = Array(path.utf8)
        var captures: [(name: String, range: Range<Int>)] = []
        guard Self.match(parts[...], bytes, from: 0, &captures) else { return nil }
        var values: [String: String] = [:]
        for (name, range) in captures { values[name] = String(decoding: bytes[range], as: UTF8.self) }
        return values
    }

    private static func match(_ parts: ArraySlice<Part>, _ path: [UInt8], from start: Int, _ captures: inout [(name: String, range: Range<Int>)]) -> Bool {
        guard let first = parts.first else { return start == path.count }
        switch first {
        case .literal(let text):
            guard path.count - start >= text.count, path[start..<start + text.count].elementsEqual(text) else { return false }
            return match(parts.dropFirst(), path, from: start + text.count, &captures)
        case .placeholder(let name):
            // The shortest value that lets the rest match, so `{y}.pbf` takes the digits only.
            var end = start
            while end < path.count, path[end] != UInt8(ascii: "/") {
                end += 1
                captures.append((name, start..<end))
                if match(parts.dropFirst(), path, from: end, &captures) { return true }
                captures.removeLast()
            }
            return false
        }
    }
}
