import GRDB
import MapSim

/// The database operations MapLibre Native exposes for the ambient cache and the file: eviction
/// under the maximum size, clear, invalidate, reset and pack.
extension OfflineDatabase {
    /// How many rows eviction removes at a time, as MapLibre Native does.
    static let evictionBatch = 50

    /// The condition on rows of `table` (`resources` or `tiles`) that no offline region — nor a
    /// content set of mapsim's — holds: the ambient cache.
    static func ambient(_ table: String, hasMapsimTables: Bool) -> String {
        let (links, column, content, contentColumn) = table == "resources"
            ? ("region_resources", "resource_id", "mapsim_content_resources", "resource_id")
            : ("region_tiles", "tile_id", "mapsim_content_tiles", "tile_id")
        var condition = "NOT EXISTS (SELECT 1 FROM \(links) WHERE \(links).\(column) = \(table).id)"
        if hasMapsimTables { condition += " AND NOT EXISTS (SELECT 1 FROM \(content) WHERE \(content).\(contentColumn) = \(table).id)" }
        return condition
    }

    /// Bytes of stored bodies of the ambient cache.
    static func ambientSize(_ db: Database, hasMapsimTables: Bool) throws -> Int {
        try ["resources", "tiles"].reduce(0) { total, table in
            total + (try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(LENGTH(data)), 0) FROM \(table) WHERE \(ambient(table, hasMapsimTables: hasMapsimTables))") ?? 0)
        }
    }

    /// Bytes of the file's pages in use.
    static func usedBytes(_ db: Database) throws -> Int {
        let pages = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA page_count")) ?? 0
        let free = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA freelist_count")) ?? 0
        let size = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA page_size")) ?? 4096
        return (pages - free) * size
    }

    /// Evicts the least recently used ambient rows, looked up fifty at a time, until the ambient
    /// cache is within its maximum size. The file's size is checked first: while it is under the maximum, so
    /// is the ambient cache, and nothing is summed.
    func evictAmbient(_ db: Database, hasMapsimTables: Bool) throws {
        let maximum = options.maximumAmbientCacheSize
        guard try Self.usedBytes(db) > maximum else { return }
        var size = try Self.ambientSize(db, hasMapsimTables: hasMapsimTables)
        while size > maximum {
            var victims: [(table: String, id: Int64, accessed: Int64, size: Int)] = []
            for table in ["resources", "tiles"] {
                let rows = try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT id, accessed, COALESCE(LENGTH(data), 0) FROM \(table) WHERE \(Self.ambient(table, hasMapsimTables: hasMapsimTables))
                    ORDER BY accessed LIMIT \(Self.evictionBatch)
                    """))
                victims += rows.map { (table, $0[0], $0[1], $0[2]) }
            }
            guard !victims.isEmpty else { return }
            // Oldest first, and no further than needed: a batch is fetched at a time, as MapLibre does,
            // but a small cache is not emptied by one.
            for victim in victims.sorted(by: { $0.accessed < $1.accessed }).prefix(Self.evictionBatch) where size > maximum {
                try db.cachedStatement(sql: "DELETE FROM \(victim.table) WHERE id = ?").execute(arguments: [victim.id])
                size -= victim.size
            }
        }
    }

    /// Removes every row of the ambient cache (what no region holds), then frees the pages.
    public func clearAmbientCache() async throws(CacheError) {
        await flush()
        let hasMapsimTables = state.withLock { $0.hasMapsimTables }
        try write("the cleared ambient cache") { db in
            for table in ["resources", "tiles"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE \(Self.ambient(table, hasMapsimTables: hasMapsimTables))")
            }
        }
        try vacuum(full: false)
    }

    /// Marks every row of the ambient cache expired and to be revalidated: the next load asks the
    /// server, and offline a map no longer uses them.
    public func invalidateAmbientCache() async throws(CacheError) {
        await flush()
        let hasMapsimTables = state.withLock { $0.hasMapsimTables }
        try write("the invalidated ambient cache") { db in
            for table in ["resources", "tiles"] {
                try db.execute(sql: "UPDATE \(table) SET expires = 0, must_revalidate = 1 WHERE \(Self.ambient(table, hasMapsimTables: hasMapsimTables))")
            }
        }
    }

    /// Empties the database — ambient cache, regions and mapsim's data — and leaves a new, empty
    /// MapLibre database in the same file (the file itself is kept, so a link to it stays a link).
    public func reset() async throws(CacheError) {
        await flush()
        let database = try writable
        do {
            try await database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
                try db.inTransaction {
                    let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                    for table in tables { try db.execute(sql: "DROP TABLE \(table.quotedDatabaseIdentifier)") }
                    return .commit
                }
            }
        } catch {
            throw failure(error, writing: "the reset", database: database)
        }
        do {
            try await database.writeWithoutTransaction(OfflineSchema.create)
        } catch {
            throw failure(error, writing: "the new schema", database: database)
        }
        state.withLock { $0.hasMapsimTables = false }
    }

    /// Returns unused pages to the file system: all of them with `full` (`VACUUM`, which rewrites
    /// the file), else as MapLibre Native does after deletions (`PRAGMA incremental_vacuum`).
    /// Returns the file's bytes in use before and after.
    @discardableResult
    public func vacuum(full: Bool) throws(CacheError) -> (before: Int, after: Int) {
        let database = try writable
        do {
            return try database.writeWithoutTransaction { db in
                let before = try Self.fileBytes(db)
                if full {
                    if try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") != 2 { try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL") }
                    try db.execute(sql: "VACUUM")
                } else {
                    try OfflineSchema.setUpIncrementalVacuum(db)
                }
                return (before, try Self.fileBytes(db))
            }
        } catch {
            throw failure(error, writing: "the packed database", database: database)
        }
    }

    /// Bytes of the file: every page, used or free.
    static func fileBytes(_ db: Database) throws -> Int {
        let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        let size = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
        return pages * size
    }

    /// What the database holds.
    public func statistics() throws(CacheError) -> CacheStatistics {
        let hasMapsimTables = state.withLock { $0.hasMapsimTables }
        let statistics = try read("the statistics", many: true) { db in
            func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? 0 }
            let tiles = try count("SELECT COUNT(*) FROM tiles")
            let resources = try count("SELECT COUNT(*) FROM resources")
            let ambientRows = try count("SELECT COUNT(*) FROM resources WHERE \(Self.ambient("resources", hasMapsimTables: hasMapsimTables))")
                + count("SELECT COUNT(*) FROM tiles WHERE \(Self.ambient("tiles", hasMapsimTables: hasMapsimTables))")
            let data = try count("SELECT COALESCE(SUM(LENGTH(data)), 0) FROM resources") + count("SELECT COALESCE(SUM(LENGTH(data)), 0) FROM tiles")
            return CacheStatistics(resources: resources, tiles: tiles, dataBytes: data,
                                   ambientBytes: try Self.ambientSize(db, hasMapsimTables: hasMapsimTables), ambientRows: ambientRows,
                                   fileBytes: try Self.fileBytes(db), regions: try count("SELECT COUNT(*) FROM regions"),
                                   maximumAmbientCacheSize: options.maximumAmbientCacheSize)
        }
        return statistics ?? CacheStatistics(resources: 0, tiles: 0, dataBytes: 0, ambientBytes: 0, ambientRows: 0, fileBytes: 0, regions: 0,
                                             maximumAmbientCacheSize: options.maximumAmbientCacheSize)
    }
}
