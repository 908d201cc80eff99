import Foundation
import GRDB
import MapSim

/// What an export reads of a region: the keys of its tile rows of one URL template, then their data,
/// inflated, many rows to a read — so that memory grows with the region by a few words a tile, and
/// each tile costs one lookup, not a transaction of its own.
extension OfflineDatabase {
    /// A tile row a region holds: its id in `tiles`, and the tile as the URL has it (the row `y` as
    /// the URL has it, whatever the source's scheme).
    public struct RegionTile: Sendable, Hashable {
        /// The row's id in `tiles`.
        public var rowID: Int64
        /// Zoom, column and row as the URL has them.
        public var z: Int, x: Int, y: Int
    }

    /// The URL templates of the tile rows with data that region `id` holds.
    public func regionTileTemplates(_ id: Int64) throws(CacheError) -> Set<String> {
        try read("the tiles of region \(id)", many: true) { db in
            var templates = Set<String>()
            let rows = try Row.fetchCursor(db, sql: """
                SELECT DISTINCT url_template FROM region_tiles
                JOIN tiles ON tiles.id = region_tiles.tile_id
                WHERE region_tiles.region_id = ? AND tiles.data IS NOT NULL
                """, arguments: [id])
            while let row = try rows.next() { templates.insert(row.lenient(0) ?? "") }
            return templates
        } ?? []
    }

    /// The tile rows with data that region `id` holds of URL template `template`, one a tile — the
    /// highest pixel ratio's, as a region has one — by zoom, column and row.
    public func regionTiles(_ id: Int64, template: String) throws(CacheError) -> [RegionTile] {
        try read("the tiles of region \(id)", many: true) { db in
            var tiles: [RegionTile] = []
            let rows = try Row.fetchCursor(db, sql: """
                SELECT tiles.id, z, x, y FROM region_tiles
                JOIN tiles ON tiles.id = region_tiles.tile_id
                WHERE region_tiles.region_id = ? AND url_template = ? AND tiles.data IS NOT NULL
                ORDER BY z, x, y, pixel_ratio DESC
                """, arguments: [id, template])
            while let row = try rows.next() {
                let tile = RegionTile(rowID: row.lenient(0) ?? 0, z: row.lenient(1) ?? 0, x: row.lenient(2) ?? 0, y: row.lenient(3) ?? 0)
                if let last = tiles.last, (last.z, last.x, last.y) == (tile.z, tile.x, tile.y) { continue }
                tiles.append(tile)
            }
            return tiles
        } ?? []
    }

    /// A tile row's data.
    public struct TileData: Sendable {
        /// The tile, inflated when it was stored compressed.
        public var body: [UInt8]
        /// The stored data, when it is compressed: the stream `body` was inflated from.
        public var stream: [UInt8]?
    }

    /// The data of tile rows `rowIDs`, in their order (nil for a row that has none): one read for
    /// them all.
    public func tileData(rows rowIDs: some Collection<Int64>) throws(CacheError) -> [TileData?] {
        var damaged: (row: Int64, error: RowCompressionError)?
        let found = try read("tile rows of \(path)", many: true) { db -> [TileData?] in
            let statement = try db.cachedStatement(sql: "SELECT data, compressed FROM tiles WHERE id = ?")
            var bodies: [TileData?] = []
            bodies.reserveCapacity(rowIDs.count)
            for rowID in rowIDs {
                do {
                    guard let row = try Row.fetchOne(statement, arguments: [rowID]), let data: Data = row.lenient(0) else {
                        bodies.append(nil)
                        continue
                    }
                    let compressed: Bool = row.lenient(1) ?? false
                    bodies.append(TileData(body: try RowCompression.unpack(data, compressed: compressed), stream: compressed ? [UInt8](data) : nil))
                } catch let error as RowCompressionError {
                    damaged = (rowID, error)
                    return []
                }
            }
            return bodies
        }
        if let damaged { throw damage(of: "tile row \(damaged.row)", damaged.error) }
        return found ?? rowIDs.map { _ in nil }
    }

    /// The stored body of the resource at `url` (in its canonical form), inflated; nil when none is stored.
    public func resourceData(url: String) throws(CacheError) -> [UInt8]? {
        var damaged: RowCompressionError?
        let found = try read(url) { db -> [UInt8]? in
            do {
                return try Self.unpacked(try Row.fetchOne(db, sql: "SELECT data, compressed FROM resources WHERE url = ?", arguments: [options.mapbox.canonical(url)]))
            } catch let error as RowCompressionError {
                damaged = error
                return nil
            }
        }
        if let damaged { throw damage(of: url, damaged) }
        return found ?? nil
    }

    /// The body of a `data, compressed` row, inflated when it is marked compressed; nil without a
    /// row or data.
    private static func unpacked(_ row: Row?) throws -> [UInt8]? {
        guard let row else { return nil }
        let compressed: Bool = row.lenient(1) ?? false
        return try row.withUnsafeData(atIndex: 0) { data -> [UInt8]? in
            guard let data else { return nil }
            return try RowCompression.unpack(data, compressed: compressed)
        }
    }

    private func damage(of what: String, _ error: RowCompressionError) -> CacheError {
        CacheError(.damaged, path: path, "the stored copy of \(what) in \(path) is damaged: it is marked compressed and does not inflate (\(error.reason))")
    }
}
