import Foundation

/// Recognizes CSS colors as the style spec accepts them: the CSS named colors, `#rgb`, `#rgba`,
/// `#rrggbb`, `#rrggbbaa`, `rgb()`/`rgba()` and `hsl()`/`hsla()` with values in range.
enum CSSColor {
    /// Whether `text` is a color.
    static func isColor(_ text: String) -> Bool {
        let lowered = normalized(text)
        if names.contains(lowered) { return true }
        if lowered.hasPrefix("#") {
            let digits = lowered.dropFirst()
            return [3, 4, 6, 8].contains(digits.count) && digits.allSatisfy(\.isHexDigit)
        }
        for prefix in ["rgba(", "rgb(", "hsla(", "hsl("] where lowered.hasPrefix(prefix) && lowered.hasSuffix(")") {
            let parts = lowered.dropFirst(prefix.count).dropLast()
                .split(whereSeparator: { $0 == "," || $0 == " " || $0 == "/" }).map(String.init)
            guard parts.count == 3 || parts.count == 4 else { return false }
            if parts.count == 4 {
                guard let alpha = value(parts[3], percentOf: 1), (0...1).contains(alpha) else { return false }
            }
            if prefix.hasPrefix("rgb") {
                return parts.prefix(3).allSatisfy { value($0, percentOf: 255).map { (0...255).contains($0) } ?? false }
            }
            return Double(parts[0].replacingOccurrences(of: "deg", with: "")) != nil
                && parts[1...2].allSatisfy { $0.hasSuffix("%") && Double($0.dropLast()).map { (0...100).contains($0) } ?? false }
        }
        return false
    }

    /// The text without surrounding spaces and tabs, in lower case (ASCII letters only, as CSS names are).
    private static func normalized(_ text: String) -> String {
        let bytes = text.utf8
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && !(0x09...0x0D).contains($0) }),
              let last = bytes.lastIndex(where: { $0 != 0x20 && !(0x09...0x0D).contains($0) }) else { return "" }
        let trimmed = bytes[first...last]
        if !trimmed.contains(where: { (0x41...0x5A).contains($0) }) { return String(Substring(trimmed)) }
        return String(decoding: trimmed.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    private static func value(_ text: String, percentOf scale: Double) -> Double? {
        text.hasSuffix("%") ? Double(text.dropLast()).map { $0 / 100 * scale } : Double(text)
    }

    /// The 148 CSS named colors and `transparent`.
    private static let names: Set<String> = [
        "transparent", "aliceblue", "antiquewhite", "aqua", "aquamarine", "azure", "beige", "bisque", "black", "blanchedalmond",
        "blue", "blueviolet", "brown", "burlywood", "cadetblue", "chartreuse", "chocolate", "coral", "cornflowerblue", "cornsilk",
        "crimson", "cyan", "darkblue", "darkcyan", "darkgoldenrod", "darkgray", "darkgreen", "darkgrey", "darkkhaki", "darkmagenta",
        "darkolivegreen", "darkorange", "darkorchid", "darkred", "darksalmon", "darkseagreen", "darkslateblue", "darkslategray",
        "darkslategrey", "darkturquoise", "darkviolet", "deeppink", "deepskyblue", "dimgray", "dimgrey", "dodgerblue", "firebrick",
        "floralwhite", "forestgreen", "fuchsia", "gainsboro", "ghostwhite", "gold", "goldenrod", "gray", "green", "greenyellow",
        "grey", "honeydew", "hotpink", "indianred", "indigo", "ivory", "khaki", "lavender", "lavenderblush", "lawngreen",
        "lemonchiffon", "lightblue", "lightcoral", "lightcyan", "lightgoldenrodyellow", "lightgray", "lightgreen", "lightgrey",
        "lightpink", "lightsalmon", "lightseagreen", "lightskyblue", "lightslategray", "lightslategrey", "lightsteelblue",
        "lightyellow", "lime", "limegreen", "linen", "magenta", "maroon", "mediumaquamarine", "mediumblue", "mediumorchid",
        "mediumpurple", "mediumseagreen", "mediumslateblue", "mediumspringgreen", "mediumturquoise", "mediumvioletred",
        "midnightblue", "mintcream", "mistyrose", "moccasin", "navajowhite", "navy", "oldlace", "olive", "olivedrab", "orange",
        "orangered", "orchid", "palegoldenrod", "palegreen", "paleturquoise", "palevioletred", "papayawhip", "peachpuff", "peru",
        "pink", "plum", "powderblue", "purple", "rebeccapurple", "red", "rosybrown", "royalblue", "saddlebrown", "salmon",
        "sandybrown", "seagreen", "seashell", "sienna", "silver", "skyblue", "slateblue", "slategray", "slategrey", "snow",
        "springgreen", "steelblue", "tan", "teal", "thistle", "tomato", "turquoise", "violet", "wheat", "white", "whitesmoke",
        "yellow", "yellowgreen",
    ]
}
