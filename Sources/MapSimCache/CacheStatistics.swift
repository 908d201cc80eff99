/// What a cache holds.
public struct CacheStatistics: Sendable, Equatable {
    /// Non-tile resources (styles, sprites, glyphs, TileJSON, images).
    public var resources: Int
    /// Tiles.
    public var tiles: Int
    /// Bytes of stored data.
    public var dataBytes: Int
    /// Bytes of the database pages in use.
    public var databaseBytes: Int
    /// Offline regions.
    public var regions: Int
    /// Entries that belong to offline regions and are never evicted.
    public var pinnedEntries: Int
}
