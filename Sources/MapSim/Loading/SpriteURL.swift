import MapSimStyle

/// The URLs of a sprite sheet: `@2x` for screens denser than 1, `.json` for the index and `.png` for
/// the image, inserted before the query so that query parameters are kept.
public enum SpriteURL {
    /// The part of a sprite sheet.
    public enum Part: String, Sendable {
        /// The index of image names and rectangles.
        case json
        /// The sheet itself.
        case png
    }

    /// The URL of `part` of the sprite at `base` for `pixelRatio`.
    public static func url(base: String, part: Part, pixelRatio: Double) -> String {
        let split = base.firstIndex { $0 == "?" || $0 == "#" } ?? base.endIndex
        let suffix = (pixelRatio > 1 ? "@2x" : "") + "." + part.rawValue
        return base[..<split] + suffix + base[split...]
    }
}

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

    /// Percent-encodes everything but unreserved characters and the comma between fonts.
    static func percentEncode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if c.isASCII && (c.isLetter || c.isNumber || "-._~,".contains(c)) {
                result.append(c)
            } else {
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return result
    }
}
