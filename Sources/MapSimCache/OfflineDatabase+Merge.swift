import Foundation
import GRDB
import MapSim

extension OfflineDatabase {
    /// Side-loads the offline regions of the database at `sidePath`, as MapLibre Native's
    /// `mergeOfflineRegions` does: the other file's schema is checked first (MapLibre's, version 6,
    /// undamaged); regions not here already (same definition and metadata) are added; their tiles
    /// and resources are copied where this database lacks them or holds an older copy (by
    /// `modified`); the ambient cache of the other file is left behind. Refused, with nothing
    /// changed, when the regions would hold more `mapbox://` tiles than the limit. Returns the
    /// regions merged, with their ids here.
    public func mergeRegions(from sidePath: String) async throws(CacheError) -> [OfflineRegion] {
        let side = URL(fileURLWithPath: sidePath).standardizedFileURL.path
        try Self.checkSideDatabase(side)
        await flush()
        let database = try writable
        let limit = options.mapboxTileCountLimit
        let ids: [Int64]
        do {
            ids = try await database.writeWithoutTransaction { db -> [Int64] in
                try db.execute(sql: "ATTACH DATABASE ? AS side", arguments: [side])
                defer { try? db.execute(sql: "DETACH DATABASE side") }
                var merged: [Int64] = []
                try db.inTransaction {
                    let tiles = try Self.mergedMapboxTileCount(db)
                    guard tiles <= limit else {
                        throw CacheError(.tileLimitExceeded, path: side, "cannot merge \(side): the regions would hold \(tiles) mapbox:// tiles; "
                                         + OfflineRegionEvent.tileLimitMessage(limit))
                    }
                    merged = try Self.merge(db)
                    return .commit
                }
                return merged
            }
        } catch {
            throw failure(error, writing: "the regions of \(side)", database: database)
        }
        return try regions().filter { ids.contains($0.id) }
    }

    /// Refuses a file that is not MapLibre's offline database of this version, or is damaged.
    private static func checkSideDatabase(_ path: String) throws(CacheError) {
        guard FileManager.default.fileExists(atPath: path) else { throw CacheError(.cannotOpen, path: path, "there is no database at \(path)") }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let side = try DatabaseQueue(path: path, configuration: configuration)
            let (layout, check) = try side.read { db in
                (try OfflineSchema.layout(db), try String.fetchOne(db, sql: "PRAGMA quick_check") ?? "")
            }
            guard check == "ok" else { throw CacheError(.damaged, path: path, "cannot merge \(path): the file is damaged (\(check))") }
            switch layout {
            case .mapLibre(let version) where version == OfflineSchema.version:
                return
            case .mapLibre(let version):
                throw CacheError(.foreign, path: path, """
                    cannot merge \(path): it is a MapLibre offline database of schema version \(version), and this one is version \
                    \(OfflineSchema.version); as MapLibre Native, mapsim merges only a database of the same version
                    """)
            default:
                throw CacheError(.foreign, path: path, "cannot merge \(path): it is not a MapLibre offline database")
            }
        } catch let error as CacheError {
            throw error
        } catch {
            throw CacheError(.cannotOpen, path: path, "cannot merge \(path): \(describe(error))", underlying: error)
        }
    }

    /// Distinct `mapbox://` tiles the regions of both databases hold.
    private static func mergedMapboxTileCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM (
              SELECT url_template, pixel_ratio, z, x, y FROM main.tiles
              WHERE url_template LIKE 'mapbox://%' AND id IN (SELECT tile_id FROM main.region_tiles)
              UNION
              SELECT url_template, pixel_ratio, z, x, y FROM side.tiles
              WHERE url_template LIKE 'mapbox://%' AND id IN (SELECT tile_id FROM side.region_tiles))
            """) ?? 0
    }

    /// Copies the side database's regions and what they hold; returns the regions' ids here.
    private static func merge(_ db: Database) throws -> [Int64] {
        try db.execute(sql: """
            INSERT INTO main.regions (definition, description)
            SELECT DISTINCT s.definition, s.description FROM side.regions s
            WHERE NOT EXISTS (SELECT 1 FROM main.regions r WHERE r.definition = s.definition AND r.description IS s.description);
            CREATE TEMPORARY TABLE merged_regions AS
            SELECT s.id AS side_id,
                   (SELECT MIN(r.id) FROM main.regions r WHERE r.definition = s.definition AND r.description IS s.description) AS main_id
            FROM side.regions s;
            """)
        defer { try? db.execute(sql: "DROP TABLE temp.merged_regions") }
        let tileKey = "t.url_template = s.url_template AND t.pixel_ratio = s.pixel_ratio AND t.z = s.z AND t.x = s.x AND t.y = s.y"
        let columns = "expires = s.expires, modified = s.modified, etag = s.etag, data = s.data, compressed = s.compressed, accessed = s.accessed, must_revalidate = s.must_revalidate"
        try db.execute(sql: """
            UPDATE main.tiles AS t SET \(columns)
            FROM (SELECT * FROM side.tiles WHERE id IN (SELECT tile_id FROM side.region_tiles)) AS s
            WHERE \(tileKey) AND s.modified > t.modified;
            INSERT INTO main.tiles (url_template, pixel_ratio, z, x, y, expires, modified, etag, data, compressed, accessed, must_revalidate)
            SELECT s.url_template, s.pixel_ratio, s.z, s.x, s.y, s.expires, s.modified, s.etag, s.data, s.compressed, s.accessed, s.must_revalidate
            FROM side.tiles s
            WHERE s.id IN (SELECT tile_id FROM side.region_tiles) AND NOT EXISTS (SELECT 1 FROM main.tiles t WHERE \(tileKey));
            INSERT OR IGNORE INTO main.region_tiles (region_id, tile_id)
            SELECT m.main_id, t.id FROM side.region_tiles l
            JOIN temp.merged_regions m ON m.side_id = l.region_id
            JOIN side.tiles s ON s.id = l.tile_id
            JOIN main.tiles t ON \(tileKey);
            UPDATE main.resources AS t SET kind = s.kind, \(columns)
            FROM (SELECT * FROM side.resources WHERE id IN (SELECT resource_id FROM side.region_resources)) AS s
            WHERE t.url = s.url AND s.modified > t.modified;
            INSERT INTO main.resources (url, kind, expires, modified, etag, data, compressed, accessed, must_revalidate)
            SELECT s.url, s.kind, s.expires, s.modified, s.etag, s.data, s.compressed, s.accessed, s.must_revalidate
            FROM side.resources s
            WHERE s.id IN (SELECT resource_id FROM side.region_resources) AND NOT EXISTS (SELECT 1 FROM main.resources t WHERE t.url = s.url);
            INSERT OR IGNORE INTO main.region_resources (region_id, resource_id)
            SELECT m.main_id, t.id FROM side.region_resources l
            JOIN temp.merged_regions m ON m.side_id = l.region_id
            JOIN side.resources s ON s.id = l.resource_id
            JOIN main.resources t ON t.url = s.url;
            """)
        return try Int64.fetchAll(db, sql: "SELECT DISTINCT main_id FROM temp.merged_regions ORDER BY main_id")
    }
}
