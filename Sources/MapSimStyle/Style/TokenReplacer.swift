import MapSimJSON

/// Replaces `{token}` occurrences in URL templates and legacy `{token}` text fields.
public enum TokenReplacer {
    /// `text` with each `{token}` replaced by `value(token)`; tokens with no value stay.
    public static func replace(in text: String, value: (String) -> String?) -> String {
        // Substrings appended as such, and strings made from them: the generic forms (`+=` of any
        // sequence of characters) cost a process a scan of the binary's protocol conformances.
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result.append(contentsOf: rest[..<open])
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let token = String(rest[rest.index(after: open)..<close])
            result += value(token) ?? "{\(token)}"
            rest = rest[rest.index(after: close)...]
        }
        result.append(contentsOf: rest)
        return result
    }

    /// A legacy `{token}` string as the expression the reference converts it to: `concat` of its
    /// text and `["get", token]` parts, `to-string` of a lone token, or the text when it has none.
    public static func tokenExpression(_ text: String) -> JSONValue {
        var parts: [JSONValue] = []
        var position = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            guard text[index] == "{" else {
                index = text.index(after: index)
                continue
            }
            let name = text.index(after: index)
            var end = name
            while end < text.endIndex, text[end] != "{", text[end] != "}" { end = text.index(after: end) }
            guard end < text.endIndex, text[end] == "}", end > name else {
                index = end < text.endIndex && text[end] == "{" ? end : name
                continue
            }
            if index > position { parts.append(.string(String(text[position..<index]))) }
            parts.append(.array([.string("get"), .string(String(text[name..<end]))]))
            position = text.index(after: end)
            index = position
        }
        if parts.isEmpty { return .string(text) }
        if position < text.endIndex {
            parts.append(.string(String(text[position...])))
        } else if parts.count == 1 {
            return .array([.string("to-string"), parts[0]])
        }
        return .array([.string("concat")] + parts)
    }
}
