import GRDB
import MapSim

/// mapsim's own data beside MapLibre's tables: sets of content a site's data manager pinned (as a
/// region pins its rows, but never in `regions`, which holds only what MapLibre Native can decode),
/// when each site's content was last checked, and which regions hold only the glyph ranges their
/// tiles need. The `mapsim_*` tables are made on the first write of such data.
extension OfflineDatabase {
    /// When a data manager last completed a check of the manifest at `manifestURL` against its
    /// server; nil when it never has — a fresh install, or content that only ever came from a package.
    public func lastContentCheck(manifestURL: String) throws(CacheError) -> HTTPDate? {
        guard state.withLock({ $0.hasMapsimTables }) else { return nil }
        let seconds = try read("the content checks") { db in
            try Int64.fetchOne(db, sql: "SELECT checked_at FROM mapsim_content_checks WHERE manifest_url = ?", arguments: [manifestURL])
        }
        return seconds.flatMap { $0 }.map(HTTPDate.init(secondsSince1970:))
    }

    /// Records that a check of the manifest at `manifestURL` completed at `time`.
    public func recordContentCheck(manifestURL: String, at time: HTTPDate) throws(CacheError) {
        try writeMapsimData("the content check of \(manifestURL)") { db in
            try db.execute(sql: "INSERT OR REPLACE INTO mapsim_content_checks (manifest_url, checked_at) VALUES (?, ?)",
                           arguments: [manifestURL, time.secondsSince1970])
        }
    }

    /// Makes the stored rows of `resources` the content set `name` — never evicted while it
    /// exists — and removes the sets whose names start with `replacing` (earlier versions); rows
    /// only they held become ambient cache. The resources are stored first (queued writes are committed).
    public func pinContentSet(_ name: String, resources: [Resource], replacing prefix: String) async throws(CacheError) {
        await flush()
        let keys = resources.map { RowKey($0, mapbox: options.mapbox) }
        try writeMapsimData("the content set \(name)") { db in
            let previous = try Int64.fetchAll(db, sql: "SELECT id FROM mapsim_content_sets WHERE substr(name, 1, ?) = ? AND name <> ?",
                                              arguments: [prefix.utf8.count, prefix, name])
            try db.execute(sql: "INSERT OR IGNORE INTO mapsim_content_sets (name) VALUES (?)", arguments: [name])
            let set = try Int64.fetchOne(db, sql: "SELECT id FROM mapsim_content_sets WHERE name = ?", arguments: [name]) ?? 0
            for key in keys {
                let (table, column) = key.table == "tiles" ? ("mapsim_content_tiles", "tile_id") : ("mapsim_content_resources", "resource_id")
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO \(table) (set_id, \(column)) SELECT ?, id FROM \(key.table) WHERE \(key.condition)")
                    .execute(arguments: [set] + key.arguments)
            }
            for old in previous {
                try db.execute(sql: "DELETE FROM mapsim_content_resources WHERE set_id = ?", arguments: [old])
                try db.execute(sql: "DELETE FROM mapsim_content_tiles WHERE set_id = ?", arguments: [old])
                try db.execute(sql: "DELETE FROM mapsim_content_sets WHERE id = ?", arguments: [old])
            }
        }
    }

    /// Records that region `id` holds only the `needed` glyph ranges its tiles use, of the `all`
    /// MapLibre Native would download.
    func recordNeededGlyphs(region id: Int64, needed: Int, all: Int) throws(CacheError) {
        try writeMapsimData("the glyph ranges of region \(id)") { db in
            try db.execute(sql: "INSERT OR REPLACE INTO mapsim_region_glyphs (region_id, ranges_needed, ranges_all) VALUES (?, ?, ?)",
                           arguments: [id, needed, all])
        }
    }

    /// For a region downloaded with only the glyph ranges its tiles need: how many it holds, how
    /// many MapLibre Native would download, and the bytes saved, estimated at the average stored
    /// size of the region's glyph ranges. Nil for a region downloaded as MapLibre does.
    public func glyphSavings(of id: Int64) throws(CacheError) -> (needed: Int, all: Int, bytesSaved: Int)? {
        guard state.withLock({ $0.hasMapsimTables }) else { return nil }
        let row = try read("the glyph ranges of region \(id)") { db in
            try Row.fetchOne(db, sql: """
                SELECT g.ranges_needed, g.ranges_all, (SELECT COALESCE(AVG(LENGTH(r.data)), 0) FROM region_resources l JOIN resources r ON r.id = l.resource_id
                                                      WHERE l.region_id = g.region_id AND r.kind = 4)
                FROM mapsim_region_glyphs g WHERE g.region_id = ?
                """, arguments: [id])
        }
        guard let row = row ?? nil else { return nil }
        let needed: Int = row.lenient(0) ?? 0
        let all: Int = row.lenient(1) ?? 0
        let average: Double = row.lenient(2) ?? 0
        return (needed, all, Int((Double(max(all - needed, 0)) * average).rounded()))
    }

    /// The content sets, by name.
    public func contentSets() throws(CacheError) -> [String] {
        guard state.withLock({ $0.hasMapsimTables }) else { return [] }
        return try read("the content sets") { db in try String.fetchAll(db, sql: "SELECT name FROM mapsim_content_sets ORDER BY name") } ?? []
    }

    /// Writes mapsim's own data, making its tables first if the file has none.
    private func writeMapsimData(_ what: String, _ body: @escaping (Database) throws -> Void) throws(CacheError) {
        try write(what) { db in
            try OfflineSchema.addMapsimTables(db)
            try body(db)
        }
        state.withLock { $0.hasMapsimTables = true }
    }
}
