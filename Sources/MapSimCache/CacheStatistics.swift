/// What an offline database holds.
public struct CacheStatistics: Sendable, Equatable {
    /// Rows of `resources`: styles, sprites, glyphs, TileJSON, images.
    public var resources: Int
    /// Rows of `tiles`.
    public var tiles: Int
    /// Bytes of stored bodies (compressed where stored compressed).
    public var dataBytes: Int
    /// Bytes of the ambient cache's bodies: rows no region holds, which eviction may remove.
    public var ambientBytes: Int
    /// Rows of the ambient cache.
    public var ambientRows: Int
    /// Bytes of the file.
    public var fileBytes: Int
    /// Offline regions.
    public var regions: Int
    /// The ambient cache's maximum size.
    public var maximumAmbientCacheSize: Int

    /// Rows held by offline regions (or mapsim's content sets), never evicted.
    public var regionRows: Int { resources + tiles - ambientRows }
}
