import MapSimStyle

/// The URLs of glyph ranges: `{fontstack}` percent-encoded, `{range}` as `0-255`.
public enum GlyphURL {
    /// The URL of the 256 glyphs from `rangeStart` of the font stack `fonts`: as MapLibre Native
    /// spells it (`Font%20A%2cFont%20B`), or `keepingCommas` as a browser spells what GL JS puts
    /// in the template (`Font%20A,Font%20B`).
    public static func url(template: String, fontStack fonts: [String], rangeStart: Int, keepingCommas: Bool = false) -> String {
        let start = rangeStart / 256 * 256
        return TokenReplacer.replace(in: template) { token in
            switch token {
            case "fontstack": keepingCommas ? browserEncode(fonts.joined(separator: ",")) : percentEncode(fonts.joined(separator: ","))
            case "range": "\(start)-\(start + 255)"
            default: nil
            }
        }
    }

    /// Percent-encodes everything but unreserved characters, the comma between fonts included, with
    /// lower-case hex digits: `Font%20A%2cFont%20B`, as MapLibre Native spells it.
    public static func percentEncode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if c.isASCII && (c.isLetter || c.isNumber || "-._~".contains(c)) {
                result.append(c)
            } else {
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: false)
            }
        }
        return result
    }

    /// Percent-encodes what a browser encodes in a URL's path — controls, space, `"`, `#`, `<`, `>`,
    /// `?`, the backtick, `{`, `}` and every non-ASCII byte — with upper-case hex digits, leaving the rest
    /// (commas among it) as it is: the WHATWG URL parser's path percent-encode set.
    public static func browserEncode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            if byte < 0x21 || byte >= 0x7F || "\"#<>?`{}".utf8.contains(byte) {
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            } else {
                result.append(Character(Unicode.Scalar(byte)))
            }
        }
        return result
    }
}
