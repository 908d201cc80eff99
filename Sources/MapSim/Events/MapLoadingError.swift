/// The payload of map-loading-error: what could not be loaded, and why.
public struct MapLoadingError: Sendable, Equatable {
    /// What kind of resource failed.
    public enum Kind: String, Sendable {
        case style, sprite, source, tile, glyphs
    }

    /// What kind of resource failed (`type`).
    public var type: Kind
    /// A readable message naming the resource (`message`).
    public var message: String
    /// The source, for source and tile errors (`source-id`).
    public var sourceID: String?
    /// The tile, for tile errors (`tile-id`).
    public var tileID: CanonicalTileID?

    /// What kind of resource failed, under the name every error of mapsim gives its kind.
    public var code: Kind { type }

    /// An error payload.
    public init(type: Kind, message: String, sourceID: String? = nil, tileID: CanonicalTileID? = nil) {
        self.type = type
        self.message = message
        self.sourceID = sourceID
        self.tileID = tileID
    }
}
