/// A decoded glyph range PBF (the `glyphs` protobuf of the SDKs): which code points it holds.
public struct GlyphSet: Sendable, Equatable {
    /// The font stack name the file declares.
    public var fontStack: String?
    /// The code points with glyphs.
    public var codePoints: [UInt32]

    /// Decodes glyph PBF data; an empty file is an empty, valid range.
    public static func decode(_ bytes: [UInt8]) throws(LoadingError) -> GlyphSet {
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
                    var glyph = try stack.message()
                    var id: UInt32?
                    while !glyph.isAtEnd {
                        let glyphField = try glyph.nextField()
                        if glyphField.number == 1, glyphField.type == .varint {
                            id = UInt32(truncatingIfNeeded: try glyph.varint())
                        } else {
                            try glyph.skip(glyphField.type)
                        }
                    }
                    guard let id else { throw LoadingError.malformedResource("a glyph without an id at byte \(stack.position)") }
                    set.codePoints.append(id)
                default: try stack.skip(stackField.type)
                }
            }
        }
        return set
    }
}
