import MapSimStyle

/// The loading state of a style's sprite sheets: both parts of every sheet must settle.
struct SpriteState: Sendable {
    struct Sheet: Sendable {
        var source: SpriteSource
        /// The style (root or import) whose sprite it is: its image names are scoped to it.
        var scope = StyleScope.root
        var json: [UInt8]?
        /// Where the index came from, for messages.
        var jsonURL: String?
        /// Where the sheet's image came from.
        var pngURL: String?
        var png: [UInt8]?
        var pendingParts = 2
        var failure: String?
    }

    var sheets: [Sheet]
    /// The names of every image in the sprite, prefixed `id:` for sheets other than `default`.
    var imageNames: Set<String> = []

    init(sources: [SpriteSource]) {
        sheets = sources.map { Sheet(source: $0) }
    }

    /// Adds the sheet of an imported style; returns its index.
    mutating func add(_ source: SpriteSource, scope: StyleScope) -> Int {
        sheets.append(Sheet(source: source, scope: scope))
        return sheets.count - 1
    }

    /// Whether every part of every sheet arrived or failed (a style without a sprite is settled).
    var isSettled: Bool { sheets.allSatisfy { $0.pendingParts == 0 } }
}
