import MapSimStyle

/// The URLs of glyph ranges: `{fontstack}` percent-encoded, `{range}` as `0-255`.
public enum GlyphURL {
    /// The URL of the 256 glyphs from `rangeStart` of the font stack `fonts`.
    public static func url(template: String, fontStack fonts: [String], rangeStart: Int) -> String {
        let start = rangeStart / 256 * 256
        return TokenReplacer.replace(in: template) { token in
            switch token {
            case "fontstack": percentEncode(fonts.joined(separator: ","))
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
}
