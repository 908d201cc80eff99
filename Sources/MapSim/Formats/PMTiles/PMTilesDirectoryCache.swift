/// The leaf directories of one archive kept after they are read, at most `capacity` of them and at
/// most `entryLimit` entries in all; the least recently used goes first.
public struct PMTilesDirectoryCache: Sendable {
    private var directories: [UInt64: (directory: PMTilesDirectory, used: UInt64)] = [:]
    private var clock: UInt64 = 0
    private var entries = 0
    /// The most directories kept (MapLibre Native keeps 100 per archive).
    public let capacity: Int
    /// The most entries kept in all, so that memory stays bounded whatever the archive.
    public let entryLimit: Int

    /// An empty cache.
    public init(capacity: Int = 100, entryLimit: Int = 1_000_000) {
        self.capacity = capacity
        self.entryLimit = entryLimit
    }

    /// The directory read at `offset`, if kept.
    public mutating func directory(at offset: UInt64) -> PMTilesDirectory? {
        guard let kept = directories[offset] else { return nil }
        clock += 1
        directories[offset]?.used = clock
        return kept.directory
    }

    /// Keeps `directory`, read at `offset`.
    public mutating func keep(_ directory: PMTilesDirectory, at offset: UInt64) {
        if let old = directories[offset] { entries -= old.directory.entries.count }
        clock += 1
        directories[offset] = (directory, clock)
        entries += directory.entries.count
        while directories.count > capacity || (entries > entryLimit && directories.count > 1) {
            guard let oldest = directories.min(by: { $0.value.used < $1.value.used }) else { break }
            entries -= oldest.value.directory.entries.count
            directories[oldest.key] = nil
        }
    }
}
