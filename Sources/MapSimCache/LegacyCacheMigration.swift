import GRDB
import MapSim
import MapSimJSON
import MapSimStyle

/// Moves a cache of mapsim's earlier schema (versions 1 to 3: `resources` keyed by URL with a
/// `no_content` flag, `tiles` with a real pixel ratio, regions linked by URL) into MapLibre Native's
/// offline database, in place and in one transaction: kinds become MapLibre's numbers, no-content
/// rows get a NULL body, pixel ratios follow MapLibre's rule, region definitions are rewritten as
/// MapLibre encodes them, content pins move to `mapsim_content_*` and content checks to
/// `mapsim_content_checks`. Times of use become the time of the migration (the old ones were a
/// counter, not a time).
struct LegacyCacheMigration {
    /// The time of the migration, in seconds since 1970.
    let now: Int64

    /// Runs the migration; run outside a transaction (it ends with MapLibre's `VACUUM`).
    func run(_ db: Database) throws {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let tables = try Set(String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        try db.execute(sql: "PRAGMA journal_mode = DELETE")
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
        try db.inTransaction {
            for table in ["resources", "tiles", "regions", "region_resources", "region_tiles", "content_checks"] where tables.contains(table) {
                try db.execute(sql: "ALTER TABLE \(table) RENAME TO legacy_\(table)")
            }
            for index in ["resources_accessed", "tiles_accessed"] {
                try db.execute(sql: "DROP INDEX IF EXISTS \(index)")
            }
            try db.execute(sql: OfflineSchema.mapLibreTables)
            try db.execute(sql: OfflineSchema.mapsimTables)
            try copyRows(db, mustRevalidate: version >= 2)
            if tables.contains("regions") { try copyRegions(db) }
            if tables.contains("content_checks") {
                try db.execute(sql: "INSERT INTO mapsim_content_checks (manifest_url, checked_at) SELECT manifest_url, checked_at FROM legacy_content_checks")
            }
            for table in ["region_resources", "region_tiles", "regions", "resources", "tiles", "content_checks"] where tables.contains(table) {
                try db.execute(sql: "DROP TABLE legacy_\(table)")
            }
            try db.execute(sql: "PRAGMA user_version = \(OfflineSchema.version)")
            return .commit
        }
        try OfflineSchema.setUpIncrementalVacuum(db)
    }

    private func copyRows(_ db: Database, mustRevalidate: Bool) throws {
        let kinds = Resource.Kind.allCases.map { "WHEN '\($0.rawValue)' THEN \($0.mapLibreNumber)" }.joined(separator: " ")
        let revalidate = mustRevalidate ? "must_revalidate" : "0"
        try db.execute(sql: """
            INSERT INTO resources (url, kind, expires, modified, etag, data, compressed, accessed, must_revalidate)
            SELECT url, CASE kind \(kinds) ELSE 0 END, expires, modified, etag, CASE WHEN no_content THEN NULL ELSE data END, 0, ?, \(revalidate)
            FROM legacy_resources
            """, arguments: [now])
        try db.execute(sql: """
            INSERT OR IGNORE INTO tiles (url_template, pixel_ratio, z, x, y, expires, modified, etag, data, compressed, accessed, must_revalidate)
            SELECT url_template, \(Self.pixelRatio("pixel_ratio")), z, x, y, expires, modified, etag,
                   CASE WHEN no_content THEN NULL ELSE data END, 0, ?, \(revalidate)
            FROM legacy_tiles
            """, arguments: [now])
    }

    /// MapLibre's pixel ratio of a tile row: 2 only for a `{ratio}` template asked for above 1.
    private static func pixelRatio(_ column: String, template: String = "url_template") -> String {
        "CASE WHEN \(column) > 1 AND instr(\(template), '{ratio}') > 0 THEN 2 ELSE 1 END"
    }

    /// Offline regions keep their ids with MapLibre's encoding of their definition; content
    /// packages (`content:SITE@VERSION`) become content sets.
    private func copyRegions(_ db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT id, definition FROM legacy_regions ORDER BY id") {
            guard let id: Int64 = row.lenient(0), let definition: String = row.lenient(1) else { continue }
            let linkResources: String
            let linkTiles: String
            if definition.hasPrefix("content:") {
                try db.execute(sql: "INSERT INTO mapsim_content_sets (name) VALUES (?)", arguments: [String(definition.dropFirst("content:".count))])
                let set = db.lastInsertedRowID
                linkResources = "INSERT OR IGNORE INTO mapsim_content_resources (set_id, resource_id) SELECT \(set), r.id"
                linkTiles = "INSERT OR IGNORE INTO mapsim_content_tiles (set_id, tile_id) SELECT \(set), t.id"
            } else {
                guard let converted = Self.definition(fromLegacy: definition) else { continue }
                try db.execute(sql: "INSERT INTO regions (id, definition, description) VALUES (?, ?, NULL)", arguments: [id, converted.encoded])
                linkResources = "INSERT OR IGNORE INTO region_resources (region_id, resource_id) SELECT \(id), r.id"
                linkTiles = "INSERT OR IGNORE INTO region_tiles (region_id, tile_id) SELECT \(id), t.id"
            }
            try db.execute(sql: "\(linkResources) FROM legacy_region_resources l JOIN resources r ON r.url = l.url WHERE l.region_id = ?", arguments: [id])
            try db.execute(sql: """
                \(linkTiles) FROM legacy_region_tiles l JOIN tiles t
                ON t.url_template = l.url_template AND t.pixel_ratio = \(Self.pixelRatio("l.pixel_ratio", template: "l.url_template"))
                AND t.z = l.z AND t.x = l.x AND t.y = l.y WHERE l.region_id = ?
                """, arguments: [id])
        }
    }

    /// mapsim's earlier region definition — `{"style", "bounds": [w, s, e, n], "minzoom", "maxzoom",
    /// "pixelRatio"}` — as a tile pyramid (its downloads fetched every glyph range, ideographs included).
    static func definition(fromLegacy text: String) -> OfflineRegionDefinition? {
        guard let json = try? JSONParser.parse(Array(text.utf8)), let style = json["style"]?.stringValue,
              let bounds = json["bounds"]?.arrayValue?.compactMap(\.numberValue), bounds.count == 4,
              let minZoom = json["minzoom"]?.numberValue, let maxZoom = json["maxzoom"]?.numberValue else { return nil }
        return try? OfflineRegionDefinition(styleURL: style, area: .bounds(LngLatBounds(west: bounds[0], south: bounds[1], east: bounds[2], north: bounds[3])),
                                            minZoom: minZoom, maxZoom: maxZoom, pixelRatio: json["pixelRatio"]?.numberValue ?? 1, includeIdeographs: true)
    }
}
