/// Parses CSS colors as the style spec's reference does: the CSS named colors, `transparent`,
/// `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, and `rgb()`/`rgba()`/`hsl()`/`hsla()` in both the comma
/// syntax and the space syntax with an optional `/ alpha`. Out-of-range components are clamped, as
/// the reference clamps them.
enum CSSColor {
    /// Whether `text` is a color.
    static func isColor(_ text: String) -> Bool {
        parse(text) != nil
    }

    /// The color's straight (not premultiplied) red, green, blue and alpha, each from 0 to 1, or nil.
    static func parse(_ text: String) -> (red: Double, green: Double, blue: Double, alpha: Double)? {
        // Most colors are written trimmed and in lower case already: those are read as they are.
        let input = isNormalized(text) ? text : normalized(text)
        // No name starts with `#`: a hex color, nearly every other color, skips the names.
        if input.utf8.first == UInt8(ascii: "#") { return hex(input.utf8.dropFirst()) }
        // No name starts as a function does: `rgb(` and `hsl(` colors skip the names' hashing.
        if input.utf8.starts(with: "rgb".utf8) || input.utf8.starts(with: "hsl".utf8) {
            var scanner = Scanner(Array(input.utf8))
            if scanner.skip("rgba(") || scanner.skip("rgb(") {
                return scanner.functionArguments(hue: false).flatMap(rgb)
            }
            if scanner.skip("hsla(") || scanner.skip("hsl(") {
                return scanner.functionArguments(hue: true).flatMap(hsl)
            }
            return nil
        }
        if input == "transparent" { return (0, 0, 0, 0) }
        if let (r, g, b) = names[input] { return (Double(r) / 255, Double(g) / 255, Double(b) / 255, 1) }
        return nil
    }

    /// `#` followed by 3, 4, 6 or 8 hexadecimal digits, read without copying them.
    private static func hex(_ digits: Substring.UTF8View) -> (Double, Double, Double, Double)? {
        let count = digits.count
        guard count == 3 || count == 4 || count == 6 || count == 8 else { return nil }
        // The digits as one number, four bits each.
        var bits: UInt32 = 0
        for digit in digits {
            let nibble: UInt8
            switch digit {
            case 0x30...0x39: nibble = digit - 0x30
            case 0x61...0x66: nibble = digit - 0x61 + 10
            default: return nil
            }
            bits = bits << 4 | UInt32(nibble)
        }
        let step = count < 6 ? 1 : 2
        func channel(_ index: Int) -> Double {
            guard index * step < count else { return 1 }
            let shift = UInt32((count - (index + 1) * step) * 4)
            let value = step == 1 ? (bits >> shift & 0xF) * 17 : bits >> shift & 0xFF
            return Double(value) / 255
        }
        return (channel(0), channel(1), channel(2), channel(3))
    }

    private static func rgb(_ arguments: Scanner.Arguments) -> (Double, Double, Double, Double)? {
        guard arguments.hasValidSeparators else { return nil }
        let percents = arguments.percent.prefix(3)
        let maximum: Double
        if percents.allSatisfy({ $0 }) {
            maximum = 100
        } else if percents.allSatisfy({ !$0 }) {
            maximum = 255
        } else {
            return nil
        }
        let values = arguments.values
        let rgba = (clamp(values[0] / maximum, 0, 1), clamp(values[1] / maximum, 0, 1), clamp(values[2] / maximum, 0, 1),
                    values.count > 3 ? alpha(values[3], percent: arguments.percent[3]) : 1)
        return rgba.0.isNaN || rgba.1.isNaN || rgba.2.isNaN || rgba.3.isNaN ? nil : rgba
    }

    private static func hsl(_ arguments: Scanner.Arguments) -> (Double, Double, Double, Double)? {
        guard arguments.hasValidSeparators else { return nil }
        let values = arguments.values
        let hue = values[0], saturation = clamp(values[1], 0, 100) / 100, lightness = clamp(values[2], 0, 100) / 100
        let alpha = values.count > 3 ? alpha(values[3], percent: arguments.percent[3]) : 1
        guard !(hue.isNaN || saturation.isNaN || lightness.isNaN || alpha.isNaN) else { return nil }
        var angle = hue.truncatingRemainder(dividingBy: 360)
        if angle < 0 { angle += 360 }
        func channel(_ n: Double) -> Double {
            let k = (n + angle / 30).truncatingRemainder(dividingBy: 12)
            let a = saturation * min(lightness, 1 - lightness)
            return lightness - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return (channel(0), channel(8), channel(4), alpha)
    }

    private static func alpha(_ value: Double, percent: Bool) -> Double {
        clamp(percent ? value / 100 : value, 0, 1)
    }

    /// `min(max(low, n), high)` as JavaScript computes it: NaN stays NaN.
    private static func clamp(_ n: Double, _ low: Double, _ high: Double) -> Double {
        n.isNaN ? n : Swift.min(Swift.max(low, n), high)
    }

    /// Whether `text` is ASCII with no upper-case letter and no white space at either end: what
    /// `normalized(_:)` would give back unchanged.
    private static func isNormalized(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last, !isSpace(first), !isSpace(last) else { return utf8.isEmpty }
        return !utf8.contains { $0 >= 0x80 || (0x41...0x5A).contains($0) }
    }

    /// Whether `byte` is ASCII white space as CSS trims it.
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// The text in lower case, without surrounding white space.
    private static func normalized(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            let trimmed = text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
            return String(trimmed).lowercased()
        }
        // ASCII (nearly every color): trim and lower-case the bytes.
        var bytes = Array(utf8)
        while let last = bytes.last, isSpace(last) { bytes.removeLast() }
        let start = bytes.firstIndex { !isSpace($0) } ?? bytes.count
        for index in start..<bytes.count where (0x41...0x5A).contains(bytes[index]) { bytes[index] += 0x20 }
        return String(decoding: bytes[start...], as: UTF8.self)
    }

    /// Reads the arguments of `rgb()` or `hsl()`: three numbers separated by white space or commas,
    /// an optional fourth after `,` or `/`, then `)` and the end.
    private struct Scanner {
        struct Arguments {
            var values: [Double] = []
            var percent: [Bool] = []
            var separators: String = ""

            /// Room for four arguments at once, not grown one at a time.
            init() {
                values.reserveCapacity(4)
                percent.reserveCapacity(4)
            }

            /// All spaces, all commas, or spaces then a slash before the alpha.
            var hasValidSeparators: Bool {
                switch separators {
                case "  ", "  /", ",,", ",,,": true
                default: false
                }
            }
        }

        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func skip(_ literal: String) -> Bool {
            let count = literal.utf8.count
            guard bytes.count - index >= count, bytes[index..<index + count].elementsEqual(literal.utf8) else { return false }
            index += count
            return true
        }

        private mutating func skipSpaces() -> Bool {
            let start = index
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0C || bytes[index] == 0x0D {
                index += 1
            }
            return index > start
        }

        private mutating func number() -> Double? {
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) || bytes[index] == 0x65 || bytes[index] == 0x2E || bytes[index] == 0x2B || bytes[index] == 0x2D {
                index += 1
            }
            guard index > start else { return nil }
            return JavaScriptNumber.parse(String(decoding: bytes[start..<index], as: UTF8.self))
        }

        /// The separator between two arguments: `,` with optional spaces, or spaces alone.
        private mutating func separator() -> Character? {
            let spaced = skipSpaces()
            if index < bytes.count, bytes[index] == 0x2C {
                index += 1
                _ = skipSpaces()
                return ","
            }
            return spaced ? " " : nil
        }

        mutating func functionArguments(hue: Bool) -> Arguments? {
            var arguments = Arguments()
            _ = skipSpaces()
            for position in 0..<3 {
                if position > 0 {
                    guard let separator = separator() else { return nil }
                    arguments.separators.append(separator)
                }
                guard let value = number() else { return nil }
                var percent = skip("%")
                if hue {
                    if position == 0 {
                        guard !percent else { return nil }
                        _ = skip("deg")
                    } else if !percent {
                        return nil
                    }
                    percent = false
                }
                arguments.values.append(value)
                arguments.percent.append(percent)
            }
            let beforeAlpha = index
            _ = skipSpaces()
            if index < bytes.count, bytes[index] == 0x2C || bytes[index] == 0x2F {
                arguments.separators.append(bytes[index] == 0x2C ? "," : "/")
                index += 1
                _ = skipSpaces()
                if let value = number() {
                    arguments.values.append(value)
                    arguments.percent.append(skip("%"))
                } else {
                    return nil
                }
            } else {
                index = beforeAlpha
            }
            _ = skipSpaces()
            guard skip(")"), index == bytes.count else { return nil }
            return arguments
        }
    }

    /// The CSS named colors, as 0–255 channels.
    private static let names: [String: (Int, Int, Int)] = [
        "aliceblue": (240, 248, 255), "antiquewhite": (250, 235, 215), "aqua": (0, 255, 255), "aquamarine": (127, 255, 212),
        "azure": (240, 255, 255), "beige": (245, 245, 220), "bisque": (255, 228, 196), "black": (0, 0, 0),
        "blanchedalmond": (255, 235, 205), "blue": (0, 0, 255), "blueviolet": (138, 43, 226), "brown": (165, 42, 42),
        "burlywood": (222, 184, 135), "cadetblue": (95, 158, 160), "chartreuse": (127, 255, 0), "chocolate": (210, 105, 30),
        "coral": (255, 127, 80), "cornflowerblue": (100, 149, 237), "cornsilk": (255, 248, 220), "crimson": (220, 20, 60),
        "cyan": (0, 255, 255), "darkblue": (0, 0, 139), "darkcyan": (0, 139, 139), "darkgoldenrod": (184, 134, 11),
        "darkgray": (169, 169, 169), "darkgreen": (0, 100, 0), "darkgrey": (169, 169, 169), "darkkhaki": (189, 183, 107),
        "darkmagenta": (139, 0, 139), "darkolivegreen": (85, 107, 47), "darkorange": (255, 140, 0),
        "darkorchid": (153, 50, 204), "darkred": (139, 0, 0), "darksalmon": (233, 150, 122),
        "darkseagreen": (143, 188, 143), "darkslateblue": (72, 61, 139), "darkslategray": (47, 79, 79),
        "darkslategrey": (47, 79, 79), "darkturquoise": (0, 206, 209), "darkviolet": (148, 0, 211),
        "deeppink": (255, 20, 147), "deepskyblue": (0, 191, 255), "dimgray": (105, 105, 105), "dimgrey": (105, 105, 105),
        "dodgerblue": (30, 144, 255), "firebrick": (178, 34, 34), "floralwhite": (255, 250, 240),
        "forestgreen": (34, 139, 34), "fuchsia": (255, 0, 255), "gainsboro": (220, 220, 220), "ghostwhite": (248, 248, 255),
        "gold": (255, 215, 0), "goldenrod": (218, 165, 32), "gray": (128, 128, 128), "green": (0, 128, 0),
        "greenyellow": (173, 255, 47), "grey": (128, 128, 128), "honeydew": (240, 255, 240), "hotpink": (255, 105, 180),
        "indianred": (205, 92, 92), "indigo": (75, 0, 130), "ivory": (255, 255, 240), "khaki": (240, 230, 140),
        "lavender": (230, 230, 250), "lavenderblush": (255, 240, 245), "lawngreen": (124, 252, 0),
        "lemonchiffon": (255, 250, 205), "lightblue": (173, 216, 230), "lightcoral": (240, 128, 128),
        "lightcyan": (224, 255, 255), "lightgoldenrodyellow": (250, 250, 210), "lightgray": (211, 211, 211),
        "lightgreen": (144, 238, 144), "lightgrey": (211, 211, 211), "lightpink": (255, 182, 193),
        "lightsalmon": (255, 160, 122), "lightseagreen": (32, 178, 170), "lightskyblue": (135, 206, 250),
        "lightslategray": (119, 136, 153), "lightslategrey": (119, 136, 153), "lightsteelblue": (176, 196, 222),
        "lightyellow": (255, 255, 224), "lime": (0, 255, 0), "limegreen": (50, 205, 50), "linen": (250, 240, 230),
        "magenta": (255, 0, 255), "maroon": (128, 0, 0), "mediumaquamarine": (102, 205, 170), "mediumblue": (0, 0, 205),
        "mediumorchid": (186, 85, 211), "mediumpurple": (147, 112, 219), "mediumseagreen": (60, 179, 113),
        "mediumslateblue": (123, 104, 238), "mediumspringgreen": (0, 250, 154), "mediumturquoise": (72, 209, 204),
        "mediumvioletred": (199, 21, 133), "midnightblue": (25, 25, 112), "mintcream": (245, 255, 250),
        "mistyrose": (255, 228, 225), "moccasin": (255, 228, 181), "navajowhite": (255, 222, 173), "navy": (0, 0, 128),
        "oldlace": (253, 245, 230), "olive": (128, 128, 0), "olivedrab": (107, 142, 35), "orange": (255, 165, 0),
        "orangered": (255, 69, 0), "orchid": (218, 112, 214), "palegoldenrod": (238, 232, 170),
        "palegreen": (152, 251, 152), "paleturquoise": (175, 238, 238), "palevioletred": (219, 112, 147),
        "papayawhip": (255, 239, 213), "peachpuff": (255, 218, 185), "peru": (205, 133, 63), "pink": (255, 192, 203),
        "plum": (221, 160, 221), "powderblue": (176, 224, 230), "purple": (128, 0, 128), "rebeccapurple": (102, 51, 153),
        "red": (255, 0, 0), "rosybrown": (188, 143, 143), "royalblue": (65, 105, 225), "saddlebrown": (139, 69, 19),
        "salmon": (250, 128, 114), "sandybrown": (244, 164, 96), "seagreen": (46, 139, 87), "seashell": (255, 245, 238),
        "sienna": (160, 82, 45), "silver": (192, 192, 192), "skyblue": (135, 206, 235), "slateblue": (106, 90, 205),
        "slategray": (112, 128, 144), "slategrey": (112, 128, 144), "snow": (255, 250, 250), "springgreen": (0, 255, 127),
        "steelblue": (70, 130, 180), "tan": (210, 180, 140), "teal": (0, 128, 128), "thistle": (216, 191, 216),
        "tomato": (255, 99, 71), "turquoise": (64, 224, 208), "violet": (238, 130, 238), "wheat": (245, 222, 179),
        "white": (255, 255, 255), "whitesmoke": (245, 245, 245), "yellow": (255, 255, 0), "yellowgreen": (154, 205, 50),
    ]
}
