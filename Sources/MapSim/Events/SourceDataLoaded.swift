/// The payload of source-data-loaded: a source's metadata or one of its tiles loaded.
public struct SourceDataLoaded: Sendable, Equatable {
    /// What was loaded.
    public enum Kind: String, Sendable {
        case metadata, tile
    }

    /// The source (`id`).
    public var id: String
    /// Metadata or tile (`type`).
    public var type: Kind
    /// For tiles: whether every tile the source needs for the view is now loaded (`loaded`).
    public var loaded: Bool?
    /// For tiles: which tile (`tile-id`).
    public var tileID: CanonicalTileID?
    /// For metadata after a run-time change of a GeoJSON source: the id the caller gave it (`data-id`).
    public var dataID: String?

    /// A payload.
    public init(id: String, type: Kind, loaded: Bool? = nil, tileID: CanonicalTileID? = nil, dataID: String? = nil) {
        self.id = id
        self.type = type
        self.loaded = loaded
        self.tileID = tileID
        self.dataID = dataID
    }
}
