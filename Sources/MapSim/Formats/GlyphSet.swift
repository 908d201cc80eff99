/// A decoded glyph range PBF (the `glyphs` protobuf of the SDKs): which code points it holds, and
/// the glyphs that break the format's rules, by what each engine does with them.
public struct GlyphSet: Sendable, Equatable {
    /// A glyph an engine refuses, and why.
    public struct Flaw: Sendable, Equatable {
        /// The glyph's code point.
        public var codePoint: UInt32
        /// What is wrong with it.
        public var reason: String
        /// What GL JS says of it, when it throws on it.
        public var glJSMessage: String?
    }

    /// The font stack name the file declares.
    public var fontStack: String?
    /// The code points with glyphs.
    public var codePoints: [UInt32]
    /// Glyphs without a width or a height (both are required): GL JS's image copy throws
    /// "mismatched image size. expected: N but got: NaN" for a tile that draws one; MapLibre Native
    /// skips them.
    public var unsized: [Flaw] = []
    /// Glyphs whose bitmap is not (width + 6) × (height + 6) bytes: GL JS cannot parse the range
    /// ("mismatched image size") and draws it all with a local font; MapLibre Native skips them.
    public var mismatchedBitmaps: [Flaw] = []
    /// Glyphs MapLibre Native skips for another reason: a required field missing (left, top,
    /// advance), a metric out of its range, a code point outside the range the file is for.
    public var skippedByNative: [Flaw] = []

    /// Decodes glyph PBF data; an empty file is an empty, valid range. `range`, when given, is the
    /// range the file was asked for (MapLibre Native skips glyphs outside it).
    public static func decode(_ bytes: [UInt8], range: ClosedRange<UInt32>? = nil) throws(LoadingError) -> GlyphSet {
        var set = GlyphSet(fontStack: nil, codePoints: [])
        var reader = ProtobufReader(bytes)
        while !reader.isAtEnd {
            let field = try reader.nextField()
            guard field.number == 1, field.type == .lengthDelimited else {
                try reader.skip(field.type)
                continue
            }
            var stack = try reader.message()
            while !stack.isAtEnd {
                let stackField = try stack.nextField()
                switch (stackField.number, stackField.type) {
                case (1, .lengthDelimited): set.fontStack = try stack.string()
                case (3, .lengthDelimited):
                    var message = try stack.message()
                    let glyph = try Glyph(&message, at: stack.position)
                    set.codePoints.append(glyph.id)
                    set.check(glyph, range: range)
                default: try stack.skip(stackField.type)
                }
            }
        }
        return set
    }

    /// One glyph's fields, each nil when absent.
    private struct Glyph {
        var id: UInt32
        var bitmapLength: Int?
        var width: UInt64?
        var height: UInt64?
        var left: Int64?
        var top: Int64?
        var advance: UInt64?

        init(_ reader: inout ProtobufReader, at position: Int) throws(LoadingError) {
            var id: UInt32?
            while !reader.isAtEnd {
                let field = try reader.nextField()
                switch (field.number, field.type) {
                case (1, .varint): id = UInt32(truncatingIfNeeded: try reader.varint())
                case (2, .lengthDelimited): bitmapLength = try reader.data().count
                case (3, .varint): width = try reader.varint()
                case (4, .varint): height = try reader.varint()
                case (5, .varint): left = try reader.zigzag()
                case (6, .varint): top = try reader.zigzag()
                case (7, .varint): advance = try reader.varint()
                default: try reader.skip(field.type)
                }
            }
            guard let id else { throw LoadingError.malformedResource("a glyph without an id at byte \(position)") }
            self.id = id
        }
    }

    /// Notes what each engine makes of `glyph`.
    private mutating func check(_ glyph: Glyph, range: ClosedRange<UInt32>?) {
        guard let width = glyph.width, let height = glyph.height else {
            let missing = [glyph.width == nil ? "width" : nil, glyph.height == nil ? "height" : nil].compactMap { $0 }.joined(separator: " and ")
            unsized.append(Flaw(codePoint: glyph.id, reason: "no \(missing)", glJSMessage: "mismatched image size. expected: \(glyph.bitmapLength ?? 0) but got: NaN"))
            return
        }
        if let length = glyph.bitmapLength, UInt64(length) != (width + 6) * (height + 6) {
            mismatchedBitmaps.append(Flaw(codePoint: glyph.id, reason: "a bitmap of \(length) bytes for a \(width)×\(height) glyph",
                                          glJSMessage: "mismatched image size. expected: \(length) but got: \((width + 6) * (height + 6))"))
            return
        }
        var problems: [String] = []
        if glyph.left == nil { problems.append("no left") }
        if glyph.top == nil { problems.append("no top") }
        if glyph.advance == nil { problems.append("no advance") }
        if width >= 256 || height >= 256 || (glyph.advance ?? 0) >= 256 { problems.append("a metric of 256 or more") }
        if let left = glyph.left, !(-128..<128).contains(left) { problems.append("left \(left) outside -128...127") }
        if let top = glyph.top, !(-128..<128).contains(top) { problems.append("top \(top) outside -128...127") }
        if let range, !range.contains(glyph.id) { problems.append("outside the range \(range.lowerBound)-\(range.upperBound)") }
        if !problems.isEmpty { skippedByNative.append(Flaw(codePoint: glyph.id, reason: problems.joined(separator: ", "))) }
    }
}
