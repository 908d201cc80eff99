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
}
