import GRDB

/// The cache's tables, by schema version, and the migrations between versions (`PRAGMA user_version`).
enum CacheSchema {
    /// The version this build writes.
    static let currentVersion = 3

    /// Creates the current schema in an empty database.
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE resources (
                url TEXT NOT NULL PRIMARY KEY, kind TEXT NOT NULL, expires INTEGER, modified INTEGER, etag TEXT,
                must_revalidate INTEGER NOT NULL DEFAULT 0, data BLOB, no_content INTEGER NOT NULL DEFAULT 0,
                accessed INTEGER NOT NULL);
            CREATE TABLE tiles (
                url_template TEXT NOT NULL, pixel_ratio REAL NOT NULL, z INTEGER NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL,
                expires INTEGER, modified INTEGER, etag TEXT, must_revalidate INTEGER NOT NULL DEFAULT 0, data BLOB,
                no_content INTEGER NOT NULL DEFAULT 0, accessed INTEGER NOT NULL,
                PRIMARY KEY (url_template, pixel_ratio, z, x, y));
            CREATE INDEX resources_accessed ON resources(accessed);
            CREATE INDEX tiles_accessed ON tiles(accessed);
            """)
        try createRegionTables(db)
        try createContentTables(db)
        try db.execute(sql: "PRAGMA user_version = \(currentVersion)")
    }

    /// Brings a database of an older version up to date, in one transaction.
    static func migrate(_ db: Database, from version: Int) throws {
        if version < 2 {
            // Version 1 had no must-revalidate flag and no offline regions.
            try db.execute(sql: """
                ALTER TABLE resources ADD COLUMN must_revalidate INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE tiles ADD COLUMN must_revalidate INTEGER NOT NULL DEFAULT 0;
                """)
            try createRegionTables(db)
        }
        if version < 3 {
            // Version 2 had no record of content checks.
            try createContentTables(db)
        }
        try db.execute(sql: "PRAGMA user_version = \(currentVersion)")
    }

    /// The version-1 schema, kept so that tests can build an old cache to migrate.
    static func createVersion1(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE resources (
                url TEXT NOT NULL PRIMARY KEY, kind TEXT NOT NULL, expires INTEGER, modified INTEGER, etag TEXT,
                data BLOB, no_content INTEGER NOT NULL DEFAULT 0, accessed INTEGER NOT NULL);
            CREATE TABLE tiles (
                url_template TEXT NOT NULL, pixel_ratio REAL NOT NULL, z INTEGER NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL,
                expires INTEGER, modified INTEGER, etag TEXT, data BLOB, no_content INTEGER NOT NULL DEFAULT 0,
                accessed INTEGER NOT NULL, PRIMARY KEY (url_template, pixel_ratio, z, x, y));
            CREATE INDEX resources_accessed ON resources(accessed);
            CREATE INDEX tiles_accessed ON tiles(accessed);
            PRAGMA user_version = 1;
            """)
    }

    private static func createRegionTables(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE regions (id INTEGER PRIMARY KEY AUTOINCREMENT, definition TEXT NOT NULL);
            CREATE TABLE region_resources (
                region_id INTEGER NOT NULL REFERENCES regions(id) ON DELETE CASCADE, url TEXT NOT NULL,
                PRIMARY KEY (region_id, url));
            CREATE TABLE region_tiles (
                region_id INTEGER NOT NULL REFERENCES regions(id) ON DELETE CASCADE,
                url_template TEXT NOT NULL, pixel_ratio REAL NOT NULL, z INTEGER NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL,
                PRIMARY KEY (region_id, url_template, pixel_ratio, z, x, y));
            """)
    }

    /// When each site's data manager last completed a check against its server, by manifest URL
    /// (seconds since 1970).
    private static func createContentTables(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE content_checks (manifest_url TEXT NOT NULL PRIMARY KEY, checked_at INTEGER NOT NULL)")
    }

    /// Whether the database holds tables that are not a mapsim cache.
    static func isForeign(_ db: Database, version: Int) throws -> Bool {
        let tables = try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        if version == 0 { return !tables.isEmpty }
        if version > currentVersion { return true }
        return !tables.isSuperset(of: ["resources", "tiles"])
    }
}
