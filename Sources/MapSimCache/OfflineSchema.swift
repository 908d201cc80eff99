import GRDB

/// MapLibre Native's offline database schema, version 6, and the migrations to it — from MapLibre's
/// own older versions, as MapLibre Native migrates them, and from the cache schema mapsim used
/// before (told apart by their tables, never by `user_version`: both use small numbers). mapsim's own
/// data lives in extra tables named `mapsim_*`, which MapLibre Native never reads.
enum OfflineSchema {
    /// The schema version MapLibre Native creates, and mapsim writes.
    static let version = 6

    /// MapLibre Native's tables and indexes, word for word as it creates them, so that
    /// `sqlite_master` reads the same in a file either of them made.
    static let mapLibreTables = """
        CREATE TABLE resources (
          id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
          url TEXT NOT NULL,
          kind INTEGER NOT NULL,
          expires INTEGER,
          modified INTEGER,
          etag TEXT,
          data BLOB,
          compressed INTEGER NOT NULL DEFAULT 0,
          accessed INTEGER NOT NULL,
          must_revalidate INTEGER NOT NULL DEFAULT 0,
          UNIQUE (url)
        );
        CREATE TABLE tiles (
          id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
          url_template TEXT NOT NULL,
          pixel_ratio INTEGER NOT NULL,
          z INTEGER NOT NULL,
          x INTEGER NOT NULL,
          y INTEGER NOT NULL,
          expires INTEGER,
          modified INTEGER,
          etag TEXT,
          data BLOB,
          compressed INTEGER NOT NULL DEFAULT 0,
          accessed INTEGER NOT NULL,
          must_revalidate INTEGER NOT NULL DEFAULT 0,
          UNIQUE (url_template, pixel_ratio, z, x, y)
        );
        CREATE TABLE regions (
          id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
          definition TEXT NOT NULL,
          description BLOB
        );
        CREATE TABLE region_resources (
          region_id INTEGER NOT NULL REFERENCES regions(id) ON DELETE CASCADE,
          resource_id INTEGER NOT NULL REFERENCES resources(id),
          UNIQUE (region_id, resource_id)
        );
        CREATE TABLE region_tiles (
          region_id INTEGER NOT NULL REFERENCES regions(id) ON DELETE CASCADE,
          tile_id INTEGER NOT NULL REFERENCES tiles(id),
          UNIQUE (region_id, tile_id)
        );
        CREATE INDEX resources_accessed
        ON resources (accessed);
        CREATE INDEX tiles_accessed
        ON tiles (accessed);
        CREATE INDEX region_resources_resource_id
        ON region_resources (resource_id);
        CREATE INDEX region_tiles_tile_id
        ON region_tiles (tile_id);

        """

    /// mapsim's own tables: sets of content pinned by the data manager (as regions pin theirs, but
    /// never in `regions`, which holds only what MapLibre Native can decode), when each site's
    /// content was last checked, the regions downloaded with only the glyph ranges their tiles
    /// need, the regions that hold the styles their style imports (downloaded for a Mapbox engine)
    /// with the Mapbox API URL their rows were keyed by, and what a region's server did not have at
    /// its last download. Rows of `resources` and `tiles` content sets pin are never evicted.
    static let mapsimTables = """
        CREATE TABLE IF NOT EXISTS mapsim_content_sets (
          id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
          name TEXT NOT NULL UNIQUE
        );
        CREATE TABLE IF NOT EXISTS mapsim_content_resources (
          set_id INTEGER NOT NULL REFERENCES mapsim_content_sets(id) ON DELETE CASCADE,
          resource_id INTEGER NOT NULL REFERENCES resources(id),
          UNIQUE (set_id, resource_id)
        );
        CREATE TABLE IF NOT EXISTS mapsim_content_tiles (
          set_id INTEGER NOT NULL REFERENCES mapsim_content_sets(id) ON DELETE CASCADE,
          tile_id INTEGER NOT NULL REFERENCES tiles(id),
          UNIQUE (set_id, tile_id)
        );
        CREATE INDEX IF NOT EXISTS mapsim_content_resources_resource_id ON mapsim_content_resources (resource_id);
        CREATE INDEX IF NOT EXISTS mapsim_content_tiles_tile_id ON mapsim_content_tiles (tile_id);
        CREATE TABLE IF NOT EXISTS mapsim_content_checks (
          manifest_url TEXT NOT NULL PRIMARY KEY,
          checked_at INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS mapsim_region_glyphs (
          region_id INTEGER NOT NULL PRIMARY KEY REFERENCES regions(id) ON DELETE CASCADE,
          ranges_needed INTEGER NOT NULL,
          ranges_all INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS mapsim_region_imports (
          region_id INTEGER NOT NULL PRIMARY KEY REFERENCES regions(id) ON DELETE CASCADE,
          style_url_query TEXT
        );
        CREATE TABLE IF NOT EXISTS mapsim_region_mapbox_api (
          region_id INTEGER NOT NULL PRIMARY KEY REFERENCES regions(id) ON DELETE CASCADE,
          api_url TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS mapsim_region_absent (
          region_id INTEGER NOT NULL REFERENCES regions(id) ON DELETE CASCADE,
          url TEXT NOT NULL,
          kind TEXT NOT NULL,
          UNIQUE (region_id, url)
        );
        """

    /// What a file's tables say it is.
    enum Layout: Equatable {
        /// No tables: a new database.
        case empty
        /// MapLibre Native's offline database at `user_version`; 0 or 1 is its old cache-only table.
        case mapLibre(version: Int)
        /// The cache schema mapsim used before it wrote MapLibre's (`resources` keyed by URL, with `no_content`).
        case legacyMapsim(version: Int)
        /// Tables of another program.
        case foreign(tables: [String])
    }

    /// Reads what the database is, from its tables and `user_version`.
    static func layout(_ db: Database) throws -> Layout {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        guard !tables.isEmpty else { return .empty }
        if tables == ["http_cache"] { return .mapLibre(version: min(version, 1)) }
        guard tables.contains("resources"), tables.contains("tiles") else { return .foreign(tables: tables) }
        let columns = Set(try Row.fetchAll(db, sql: "PRAGMA table_info(resources)").map { $0["name"] as String })
        if columns.contains("no_content") && !columns.contains("id") { return .legacyMapsim(version: version) }
        if columns.isSuperset(of: ["id", "url", "kind", "data", "compressed", "accessed"]) { return .mapLibre(version: version) }
        return .foreign(tables: tables)
    }

    /// Creates version 6 in an empty database as MapLibre Native does: incremental auto-vacuum, a
    /// rollback journal, then the tables and `user_version` in one transaction. Run outside a
    /// transaction (`VACUUM` cannot run in one).
    static func create(_ db: Database) throws {
        // A file with tables (MapLibre's first cache table) is vacuumed into the mode first. A new
        // file takes the mode in the transaction that makes its tables: set on its own, the mode
        // is a transaction of its own, which writes the header alone with four syncs.
        if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") != 0 { try setUpIncrementalVacuum(db) }
        try db.execute(sql: "PRAGMA journal_mode = DELETE")
        // Another connection (this process's or another's) may have made the tables since the
        // file was found empty: checked again under the write lock, so that one of them makes them.
        // The mode comes first in a deferred transaction: it takes the write lock at once, waiting
        // for another writer as an immediate transaction does (SQLite sets no mode in an immediate
        // transaction of a new file, whose page size it has fixed by then).
        try db.inTransaction(.deferred) {
            try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
            switch try layout(db) {
            case .empty, .mapLibre(version: 0), .mapLibre(version: 1): break
            default: return .commit
            }
            try db.execute(sql: "DROP TABLE IF EXISTS http_cache")
            try db.execute(sql: mapLibreTables)
            try db.execute(sql: "PRAGMA user_version = \(version)")
            return .commit
        }
    }

    /// Brings a MapLibre database of `from` (2 to 5) to version 6, the way MapLibre Native does. Run
    /// outside a transaction.
    static func migrate(_ db: Database, from: Int) throws {
        if from < 3 {
            try setUpIncrementalVacuum(db)
            try db.execute(sql: "PRAGMA user_version = 3")
        }
        if from < 5 {
            // Version 4 (WAL) was reverted before release: 3 and 4 both go to 5.
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
            try db.execute(sql: "PRAGMA user_version = 5")
        }
        try db.inTransaction {
            if from < 6 {
                try db.execute(sql: "ALTER TABLE resources ADD COLUMN must_revalidate INTEGER NOT NULL DEFAULT 0")
                try db.execute(sql: "ALTER TABLE tiles ADD COLUMN must_revalidate INTEGER NOT NULL DEFAULT 0")
            }
            try db.execute(sql: "PRAGMA user_version = \(version)")
            return .commit
        }
    }

    /// Adds mapsim's tables to a MapLibre database that lacks them: done on the first write of
    /// mapsim's own data, so that a database only used as a cache holds MapLibre's tables alone.
    static func addMapsimTables(_ db: Database) throws {
        try db.execute(sql: mapsimTables)
    }

    /// Whether the database has mapsim's tables.
    static func hasMapsimTables(_ db: Database) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'mapsim_content_sets'") == 1
    }

    /// MapLibre's vacuum: switch to incremental auto-vacuum (which needs a full VACUUM once), or
    /// reclaim the free pages when it is on already. A file without tables yet (a new one) takes
    /// the mode with its first table, as SQLite documents, so it is not vacuumed: the file is the
    /// same, less a transaction and its four syncs.
    static func setUpIncrementalVacuum(_ db: Database) throws {
        if try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") != 2 {
            try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
            if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") != 0 { try db.execute(sql: "VACUUM") }
        } else {
            try db.execute(sql: "PRAGMA incremental_vacuum")
        }
    }
}
