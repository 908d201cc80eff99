/// Which code points an engine draws with a font of the device instead of loading their glyph
/// range from the style's `glyphs` URL, and with which font family — MapLibre GL JS's
/// `localIdeographFontFamily`, the Mapbox SDK's `GlyphsRasterizationOptions`.
public struct LocalIdeographs: Sendable, Hashable {
    /// Which set of code points is drawn locally.
    public enum CodePoints: String, Sendable, Hashable {
        /// MapLibre GL JS's: CJK ideographs, Hangul, kana, CJK symbols and punctuation and more
        /// (generated from its own test, `LocalIdeographs+GLJS.swift`).
        case mapLibreGLJS = "maplibre-gl-js"
        /// The Mapbox SDK's `ideographsRasterizedLocally`: CJK Unified Ideographs and Hangul Syllables,
        /// the "conservative set" of the native core it shares with MapLibre Native.
        case cjkIdeographsAndHangul = "cjk-ideographs-and-hangul"
        /// Mapbox GL JS v3's: CJK symbols and punctuation, Hiragana and Katakana (U+3000–30FF), CJK
        /// Unified Ideographs with Extensions A and B, and Hangul Syllables.
        case mapboxGLJS = "mapbox-gl-js"
    }

    /// The font family drawing them (`sans-serif` by default in GL JS); a family the device lacks
    /// changes nothing mapsim can see.
    public var fontFamily: String
    /// Which code points are drawn locally.
    public var codePoints: CodePoints

    /// Local glyphs for `codePoints` in `fontFamily`.
    public init(fontFamily: String, codePoints: CodePoints) {
        self.fontFamily = fontFamily
        self.codePoints = codePoints
    }

    /// Whether `codePoint` is drawn locally rather than loaded.
    public func drawsLocally(_ codePoint: UInt32) -> Bool {
        switch codePoints {
        case .mapLibreGLJS:
            var low = 0
            var high = Self.mapLibreGLJSRanges.count - 1
            while low <= high {
                let middle = (low + high) / 2
                let range = Self.mapLibreGLJSRanges[middle]
                if codePoint < range.lowerBound {
                    high = middle - 1
                } else if codePoint > range.upperBound {
                    low = middle + 1
                } else {
                    return true
                }
            }
            return false
        case .cjkIdeographsAndHangul:
            return (0x4E00...0x9FFF).contains(codePoint) || (0xAC00...0xD7AF).contains(codePoint)
        case .mapboxGLJS:
            return (0x3000...0x30FF).contains(codePoint) || (0x3400...0x4DBF).contains(codePoint) || (0x4E00...0x9FFF).contains(codePoint)
                || (0xAC00...0xD7AF).contains(codePoint) || (0x20000...0x2A6DF).contains(codePoint)
        }
    }
}
