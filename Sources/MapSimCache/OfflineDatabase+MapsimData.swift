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
    /// only they held become ambient cache. The resources are stored first (queued writes are
    /// committed); `storing` is written in the same transaction as the set, so that what names the
    /// set (a manifest) never exists without it, whenever the process is killed.
    public func pinContentSet(_ name: String, resources: [Resource], replacing prefix: String,
                              storing: [(resource: Resource, response: Response)] = []) async throws(CacheError) {
        await flush()
        let keys = resources.map { RowKey($0, mapbox: options.mapbox) }
        let rows = storing.map { item in
            (key: RowKey(item.resource, mapbox: options.mapbox), kind: item.resource.storedKindNumber,
             body: item.response.data.map { RowCompression.pack($0, zlib: item.response.zlibData) } ?? StoredBody(data: nil, compressed: false),
             headers: StoredHeaders(item.response),
             accessed: item.resource.issued?.secondsSince1970 ?? Self.now)
        }
        try writeMapsimData("the content set \(name)") { db in
            var statements = RowStatements(db)
            for row in rows { _ = try statements.put(row.key, kind: row.kind, row.body, headers: row.headers, accessed: row.accessed) }
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

    /// Records that region `id` holds the styles its style imports, requested with `styleURLQuery`
    /// as the engine it was downloaded for requests them, from the Mapbox API at `apiURL`: the API's
    /// URLs in its styles are keyed as their `mapbox://` forms, so its status must know that API.
    func recordImports(region id: Int64, styleURLQuery: String?, apiURL: String) throws(CacheError) {
        try writeMapsimData("the imports of region \(id)") { db in
            try db.execute(sql: "INSERT OR REPLACE INTO mapsim_region_imports (region_id, style_url_query) VALUES (?, ?)", arguments: [id, styleURLQuery])
            try db.execute(sql: "INSERT OR REPLACE INTO mapsim_region_mapbox_api (region_id, api_url) VALUES (?, ?)", arguments: [id, apiURL])
        }
    }

    /// The plan of region `id` (of `definition`) — with the styles its style imports when it was
    /// downloaded for an engine that loads them, else as MapLibre plans it — and how its rows were
    /// keyed: this database's Mapbox URLs, with the API URL a region with imports was downloaded
    /// from (its styles may name the API's URLs, stored as their `mapbox://` forms).
    func plan(of id: Int64, definition: OfflineRegionDefinition) throws(CacheError) -> (plan: RegionPlan, keys: MapboxURL) {
        guard let record = try importRecord(of: id) else { return (RegionPlan(definition: definition, mapbox: options.mapbox), options.mapbox) }
        var keys = options.mapbox
        if let apiURL = record.apiURL { keys.baseURL = apiURL }
        return (RegionPlan(definition: definition, mapbox: options.mapbox, followsImports: true, importStyleQuery: record.styleURLQuery), keys)
    }

    /// Whether region `id` holds the styles its style imports, with the query they were requested
    /// with and the Mapbox API URL (nil when recorded before it was); nil for a region downloaded
    /// as MapLibre downloads (which ignores imports).
    private func importRecord(of id: Int64) throws(CacheError) -> (styleURLQuery: String?, apiURL: String?)? {
        guard state.withLock({ $0.hasMapsimTables }) else { return nil }
        return try read("the imports of region \(id)") { db -> (styleURLQuery: String?, apiURL: String?)? in
            // A database written before these tables existed has none.
            let tables = try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'mapsim_region_%'")
            guard tables.contains("mapsim_region_imports"),
                  let row = try Row.fetchOne(db, sql: "SELECT style_url_query FROM mapsim_region_imports WHERE region_id = ?", arguments: [id]) else { return nil }
            let apiURL = tables.contains("mapsim_region_mapbox_api")
                ? try Row.fetchOne(db, sql: "SELECT api_url FROM mapsim_region_mapbox_api WHERE region_id = ?", arguments: [id]).flatMap { $0.lenient(0) as String? }
                : nil
            return (row.lenient(0), apiURL)
        } ?? nil
    }

    /// Records what the server did not have (404) when region `id` was last downloaded, in place of
    /// what an earlier download recorded.
    func recordAbsent(region id: Int64, _ resources: [Resource]) throws(CacheError) {
        // Nothing to record and nothing recorded before: MapLibre's tables stay alone.
        guard !resources.isEmpty || state.withLock({ $0.hasMapsimTables }) else { return }
        try writeMapsimData("what the server of region \(id) lacks") { db in
            try db.execute(sql: "DELETE FROM mapsim_region_absent WHERE region_id = ?", arguments: [id])
            for resource in resources {
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO mapsim_region_absent (region_id, url, kind) VALUES (?, ?, ?)")
                    .execute(arguments: [id, resource.url, resource.kind.rawValue])
            }
        }
    }

    /// What the server did not have when region `id` was last downloaded, each as its kind and URL.
    public func absentResources(of id: Int64) throws(CacheError) -> [(kind: Resource.Kind, url: String)] {
        guard state.withLock({ $0.hasMapsimTables }) else { return [] }
        let rows = try read("what the server of region \(id) lacks") { db -> [Row] in
            // A database written before this table existed has none.
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'mapsim_region_absent'") == 1 else { return [] }
            return try Row.fetchAll(db, sql: "SELECT kind, url FROM mapsim_region_absent WHERE region_id = ? ORDER BY rowid", arguments: [id])
        } ?? []
        return rows.map { row in (Resource.Kind(rawValue: row.lenient(0) ?? "") ?? .unknown, row.lenient(1) ?? "") }
    }

    /// The highest version of `site` any content set of the database holds (sets are named
    /// `SITE@VERSION`), wherever its style was; nil when none does.
    public func installedContentVersion(site: String) throws(CacheError) -> Int? {
        try contentSets().compactMap { name -> Int? in
            guard let at = name.lastIndex(of: "@"), name[..<at] == site else { return nil }
            return Int(name[name.index(after: at)...])
        }.max()
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
