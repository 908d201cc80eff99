import MapSimJSON

/// Replaces `{token}` occurrences in URL templates and legacy `{token}` text fields.
public enum TokenReplacer {
    /// `text` with each `{token}` replaced by `value(token)`; tokens with no value stay.
    public static func replace(in text: String, value: (String) -> String?) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let token = String(rest[rest.index(after: open)..<close])
            result += value(token) ?? "{\(token)}"
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// A legacy `{token}` string as the expression the reference converts it to: `concat` of its
    /// text and `["get", token]` parts, `to-string` of a lone token, or the text when it has none.
    public static func tokenExpression(_ text: String) -> JSONValue {
        let characters = Array(text)
        var parts: [JSONValue] = []
        var position = 0
        var index = 0
        while index < characters.count {
            guard characters[index] == "{" else {
                index += 1
                continue
            }
            var end = index + 1
            while end < characters.count, characters[end] != "{", characters[end] != "}" { end += 1 }
            guard end < characters.count, characters[end] == "}", end > index + 1 else {
                index = end < characters.count && characters[end] == "{" ? end : index + 1
                continue
            }
            if index > position { parts.append(.string(String(characters[position..<index]))) }
            parts.append(.array([.string("get"), .string(String(characters[(index + 1)..<end]))]))
            position = end + 1
            index = position
        }
        if parts.isEmpty { return .string(text) }
        if position < characters.count {
            parts.append(.string(String(characters[position...])))
        } else if parts.count == 1 {
            return .array([.string("to-string"), parts[0]])
        }
        return .array([.string("concat")] + parts)
    }
}
