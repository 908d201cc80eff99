import Foundation
import GRDB
import MapSim

/// Offline regions, as MapLibre Native keeps them: `regions` holds each definition and the app's
/// metadata; `region_resources` and `region_tiles` link a region to the rows it holds.
extension OfflineDatabase {
    /// What a region download finds for one resource.
    struct RegionLookup: Sendable, Equatable {
        /// The stored body's size in bytes, when a usable row is stored.
        var storedSize: Int?
        /// The body, when asked for and stored.
        var body: [UInt8]?
        /// Whether any region holds the row already.
        var isInRegion: Bool

        /// What is found of a resource with no row.
        static let notStored = RegionLookup(storedSize: nil, body: nil, isInRegion: false)
    }

    /// Every region, by id.
    public func regions() throws(CacheError) -> [OfflineRegion] {
        try read("the regions") { db in
            try Row.fetchAll(db, sql: "SELECT id, definition, description FROM regions ORDER BY id").map(Self.region)
        } ?? []
    }

    /// The region with `id`, if there is one.
    public func region(_ id: Int64) throws(CacheError) -> OfflineRegion? {
        try read("region \(id)") { db in
            try Row.fetchOne(db, sql: "SELECT id, definition, description FROM regions WHERE id = ?", arguments: [id]).map(Self.region)
        } ?? nil
    }

    private static func region(_ row: Row) -> OfflineRegion {
        OfflineRegion(id: row.lenient(0) ?? 0, encodedDefinition: row.lenient(1) ?? "", metadata: (row.lenient(2) as Data?).map { [UInt8]($0) })
    }

    /// Creates a region with `definition` and the app's `metadata` bytes.
    public func createRegion(_ definition: OfflineRegionDefinition, metadata: [UInt8]?) throws(CacheError) -> OfflineRegion {
        let encoded = definition.encoded
        let id = try write("a new region") { db in
            try db.execute(sql: "INSERT INTO regions (definition, description) VALUES (?, ?)", arguments: [encoded, metadata.map { Data($0) }])
            return db.lastInsertedRowID
        }
        return OfflineRegion(id: id, encodedDefinition: encoded, metadata: metadata)
    }

    /// Replaces a region's metadata bytes.
    public func updateMetadata(of id: Int64, to metadata: [UInt8]?) throws(CacheError) {
        try write("the metadata of region \(id)") { db in
            try db.execute(sql: "UPDATE regions SET description = ? WHERE id = ?", arguments: [metadata.map { Data($0) }, id])
        }
    }

    /// Deletes a region, and the rows it held that no other region (nor a content set) holds; then
    /// gives the freed pages back (`PRAGMA incremental_vacuum`). Returns how many rows went.
    @discardableResult
    public func deleteRegion(_ id: Int64) async throws(CacheError) -> Int {
        await flush()
        let hasMapsimTables = state.withLock { $0.hasMapsimTables }
        let removed = try write("the deletion of region \(id)") { db in
            var removed = 0
            for (table, links, column) in [("resources", "region_resources", "resource_id"), ("tiles", "region_tiles", "tile_id")] {
                // The rows only this region holds, found before its links go.
                let doomed = try Int64.fetchAll(db, sql: """
                    SELECT DISTINCT \(column) FROM \(links) l WHERE l.region_id = ?1
                    AND NOT EXISTS (SELECT 1 FROM \(links) o WHERE o.\(column) = l.\(column) AND o.region_id <> ?1)
                    \(hasMapsimTables ? "AND \(Self.contentFree(column))" : "")
                    """, arguments: [id])
                try db.execute(sql: "DELETE FROM \(links) WHERE region_id = ?", arguments: [id])
                let delete = try db.cachedStatement(sql: "DELETE FROM \(table) WHERE id = ?")
                for row in doomed {
                    try delete.execute(arguments: [row])
                    removed += db.changesCount
                }
            }
            try db.execute(sql: "DELETE FROM regions WHERE id = ?", arguments: [id])
            return removed
        }
        try vacuum(full: false)
        return removed
    }

    /// The condition that no mapsim content set holds the row whose id is in `l.column` (`resource_id`
    /// or `tile_id`).
    private static func contentFree(_ column: String) -> String {
        column == "resource_id"
            ? "NOT EXISTS (SELECT 1 FROM mapsim_content_resources c WHERE c.resource_id = l.resource_id)"
            : "NOT EXISTS (SELECT 1 FROM mapsim_content_tiles c WHERE c.tile_id = l.tile_id)"
    }

    /// Marks every row of a region expired and to be revalidated, as MapLibre's `invalidateRegion`.
    public func invalidateRegion(_ id: Int64) async throws(CacheError) {
        await flush()
        try write("the invalidation of region \(id)") { db in
            try db.execute(sql: "UPDATE resources SET expires = 0, must_revalidate = 1 WHERE id IN (SELECT resource_id FROM region_resources WHERE region_id = ?)",
                           arguments: [id])
            try db.execute(sql: "UPDATE tiles SET expires = 0, must_revalidate = 1 WHERE id IN (SELECT tile_id FROM region_tiles WHERE region_id = ?)",
                           arguments: [id])
        }
    }

    /// What the database holds of a region: MapLibre's `getRegionCompletedStatus` — the counts and
    /// stored sizes of its resources and tiles; the required counts are left at zero.
    public func completedStatus(of id: Int64) throws(CacheError) -> OfflineRegionStatus {
        let counts = try read("the status of region \(id)") { db in
            let resources = try Row.fetchOne(db, sql: """
                SELECT COUNT(*), COALESCE(SUM(LENGTH(data)), 0) FROM region_resources JOIN resources ON resource_id = resources.id WHERE region_id = ?
                """, arguments: [id])
            let tiles = try Row.fetchOne(db, sql: """
                SELECT COUNT(*), COALESCE(SUM(LENGTH(data)), 0) FROM region_tiles JOIN tiles ON tile_id = tiles.id WHERE region_id = ?
                """, arguments: [id])
            return (resources: (resources?[0] as Int? ?? 0, resources?[1] as Int? ?? 0), tiles: (tiles?[0] as Int? ?? 0, tiles?[1] as Int? ?? 0))
        }
        guard let counts else { return OfflineRegionStatus() }
        return OfflineRegionStatus(completedResourceCount: counts.resources.0 + counts.tiles.0, completedResourceSize: counts.resources.1 + counts.tiles.1,
                                   completedTileCount: counts.tiles.0, completedTileSize: counts.tiles.1)
    }

    /// How many distinct `mapbox://` tiles the regions hold, against the tile count limit.
    public func mapboxTileCount() throws(CacheError) -> Int {
        let count = try read("the mapbox:// tile count") { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT tile_id) FROM region_tiles JOIN tiles ON tile_id = tiles.id WHERE url_template LIKE 'mapbox://%'")
        }
        return count.flatMap { $0 } ?? 0
    }

    /// Looks each resource up for a region download: the stored size of a usable row (one that
    /// need not be revalidated at `now`, seconds since 1970), its body when `bodies` asks for it,
    /// and whether a region holds it already. It waits on this thread for a commit under way.
    func regionLookup(_ resources: [Resource], bodies: [Bool], usableAt now: Int64) throws(CacheError) -> [RegionLookup] {
        let lookup = RegionLookupQuery(resources, bodies: bodies, usableAt: now, database: self)
        return try read("the region's resources", many: true, lookup.run) ?? lookup.nothingStored
    }

    /// `regionLookup(_:bodies:usableAt:)` with no thread held meanwhile: a download taking answers as
    /// they arrive goes on with them while a commit under way holds the database.
    func queuedRegionLookup(_ resources: [Resource], bodies: [Bool], usableAt now: Int64) async throws(CacheError) -> [RegionLookup] {
        let lookup = RegionLookupQuery(resources, bodies: bodies, usableAt: now, database: self)
        return try await read("the region's resources", lookup.run) ?? lookup.nothingStored
    }

    /// Queues `resource` as part of region `id`: the answer stored (its body packed already), or —
    /// with no response — the stored row linked.
    func queueRegionWrite(_ resource: Resource, region id: Int64, response: Response?, body: StoredBody, accessed: Int64) {
        let key = RowKey(resource, mapbox: options.mapbox)
        // Committed as they arrive — one transaction for all that came in the last 40 ms — so that a
        // killed download keeps all but what was in flight and what came in the last 40 ms
        // (MapLibre's batches of 64 lose up to 63 answers).
        if let response {
            enqueue(.put(key, kind: resource.storedKindNumber, body, headers: StoredHeaders(response), accessed: accessed, region: id), commit: .spaced)
        } else {
            enqueue(.link(key, region: id), commit: .spaced)
        }
    }

    /// How many region writes may wait for the database before the download waits for it.
    static let regionWriteBacklog = 8_192
    /// How many bytes of bodies they may hold (tiles of 100 KB and more fill it before the count).
    static let regionWriteBacklogBytes = 64 << 20

    /// How a download's writes fare, for its next step.
    enum RegionWrites {
        /// They are committed as they come.
        case flowing
        /// Those waiting for a commit pass either cap: the download waits for the database.
        case backlogged
        /// Some were lost (a full disk, an I/O error), and why: the download stops, as every answer
        /// after would be lost too.
        case lost(String)
    }

    /// How the download's writes fare.
    var regionWrites: RegionWrites {
        state.withLock { state in
            if let loss = state.writeLoss { return .lost(loss) }
            return state.pending.count > Self.regionWriteBacklog || state.pendingBytes > Self.regionWriteBacklogBytes ? .backlogged : .flowing
        }
    }
}
