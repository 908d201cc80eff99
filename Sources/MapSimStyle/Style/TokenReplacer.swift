import MapSimJSON

/// Replaces `{token}` occurrences in URL templates and legacy `{token}` text fields.
public enum TokenReplacer {
    /// `text` with each `{token}` replaced by `value(token)`; tokens with no value stay. A token
    /// holds no brace: in `{a{z}}` the token is `z`, as in MapLibre Native and GL JS.
    ///
    /// The braces are found in the text's UTF-8 bytes, as MapLibre Native's `replaceTokens` finds
    /// them (a brace is one byte, never part of another character's): a tile URL is made for every
    /// tile of a download, and a search by `Character` cost more than the rest of the request.
    public static func replace(in text: String, value: (String) -> String?) -> String {
        var text = text
        let replaced = text.withUTF8 { bytes -> String? in
            let (open, close) = (UInt8(ascii: "{"), UInt8(ascii: "}"))
            var result: [UInt8] = []
            var copied = 0
            var searched = 0
            while let start = bytes[searched...].firstIndex(of: open),
                  let end = bytes[(start + 1)...].firstIndex(where: { $0 == open || $0 == close }) {
                // Another brace opens before this one closes: the token starts there.
                guard bytes[end] == close else {
                    searched = end
                    continue
                }
                if result.isEmpty { result.reserveCapacity(bytes.count + 16) }
                result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<start]))
                if let replacement = value(String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end]), as: UTF8.self)) {
                    result.append(contentsOf: replacement.utf8)
                } else {
                    result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...end]))
                }
                copied = end + 1
                searched = copied
            }
            guard copied > 0 else { return nil }
            result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
            return String(decoding: result, as: UTF8.self)
        }
        return replaced ?? text
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
