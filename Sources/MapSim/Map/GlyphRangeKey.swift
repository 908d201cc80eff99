/// A glyph range of one font stack: 256 code points from `start`.
public struct GlyphRangeKey: Sendable, Hashable, Comparable {
    /// The font stack.
    public var fontStack: [String]
    /// The first code point of the range, a multiple of 256.
    public var start: Int

    /// The range of `fontStack` from `start`.
    public init(fontStack: [String], start: Int) {
        self.fontStack = fontStack
        self.start = start
    }

    public static func < (lhs: GlyphRangeKey, rhs: GlyphRangeKey) -> Bool {
        (lhs.fontStack.joined(separator: ","), lhs.start) < (rhs.fontStack.joined(separator: ","), rhs.start)
    }
}
