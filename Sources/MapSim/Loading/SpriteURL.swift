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
