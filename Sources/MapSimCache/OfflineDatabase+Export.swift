import GRDB
import MapSim

/// What an export reads of a region: the keys of its tile rows, then each row's data, inflated —
/// one row at a time, so that memory does not grow with the region.
extension OfflineDatabase {
    /// A tile row a region holds, by MapLibre's key (the row `y` as the URL has it).
    public struct RegionTile: Sendable, Hashable {
        /// The row's id in `tiles`.
        public var rowID: Int64
        /// The URL template the tile was downloaded with.
        public var urlTemplate: String
        /// The pixel ratio of the row.
        public var pixelRatio: Int
        /// Zoom, column and row as the URL has them.
        public var z: Int, x: Int, y: Int
    }

    /// The tile rows with data that region `id` holds, by template, zoom, column and row.
    public func regionTiles(_ id: Int64) throws(CacheError) -> [RegionTile] {
        try read("the tiles of region \(id)", many: true) { db in
            try Row.fetchAll(db, sql: """
                SELECT tiles.id, url_template, pixel_ratio, z, x, y FROM region_tiles
                JOIN tiles ON tiles.id = region_tiles.tile_id
                WHERE region_tiles.region_id = ? AND tiles.data IS NOT NULL
                ORDER BY url_template, pixel_ratio, z, x, y
                """, arguments: [id]).map { row in
                RegionTile(rowID: row.lenient(0) ?? 0, urlTemplate: row.lenient(1) ?? "", pixelRatio: row.lenient(2) ?? 1, z: row.lenient(3) ?? 0, x: row.lenient(4) ?? 0,
                           y: row.lenient(5) ?? 0)
            }
        } ?? []
    }

    /// The data of tile row `rowID`, inflated when MapLibre stored it compressed.
    public func tileData(row rowID: Int64) throws(CacheError) -> [UInt8]? {
        try body(sql: "SELECT data, compressed FROM tiles WHERE id = ?", arguments: [rowID], what: "tile row \(rowID)")
    }

    /// The stored body of the resource at `url` (in its canonical form), inflated; nil when none is stored.
    public func resourceData(url: String) throws(CacheError) -> [UInt8]? {
        try body(sql: "SELECT data, compressed FROM resources WHERE url = ?", arguments: [options.mapbox.canonical(url)], what: url)
    }

    private func body(sql: String, arguments: StatementArguments, what: String) throws(CacheError) -> [UInt8]? {
        var inflateFailure: RowCompressionError?
        let found = try read(what) { db -> [UInt8]? in
            guard let row = try Row.fetchOne(db, sql: sql, arguments: arguments) else { return nil }
            let compressed: Bool = row.lenient(1) ?? false
            do {
                return try row.withUnsafeData(atIndex: 0) { data -> [UInt8]? in
                    guard let data else { return nil }
                    return try RowCompression.unpack(data, compressed: compressed)
                }
            } catch let error as RowCompressionError {
                inflateFailure = error
                return nil
            }
        }
        if let inflateFailure {
            throw CacheError(.damaged, path: path, "the stored copy of \(what) in \(path) is damaged: it is marked compressed and does not inflate (\(inflateFailure.reason))")
        }
        return found ?? nil
    }
}
