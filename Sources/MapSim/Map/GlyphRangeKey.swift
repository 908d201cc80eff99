/// A glyph range of one font stack: 256 code points from `start`.
struct GlyphRangeKey: Sendable, Hashable, Comparable {
    var fontStack: [String]
    var start: Int

    static func < (lhs: GlyphRangeKey, rhs: GlyphRangeKey) -> Bool {
        (lhs.fontStack.joined(separator: ","), lhs.start) < (rhs.fontStack.joined(separator: ","), rhs.start)
    }
}
