/// One sprite sheet of a style: its id (`default` for a plain sprite URL) and base URL.
public struct SpriteSource: Sendable, Equatable {
    /// The sprite's id; image names of sprites other than `default` are prefixed `id:`.
    public var id: String
    /// The base URL, without `@2x` or the `.json`/`.png` extension.
    public var url: String

    /// A sprite sheet.
    public init(id: String, url: String) {
        self.id = id
        self.url = url
    }
}
