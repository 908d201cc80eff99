import Foundation
import GRDB

/// Writes an MBTiles file (specification 1.3): the `metadata` table with `name` and `value`, the
/// `tiles` table with a unique index on zoom, column and row, rows in TMS order (y flipped). The
/// file is built beside its destination and moved over it when complete.
public final class MBTilesWriter {
    private let output: ArchiveOutput
    private let database: DatabaseQueue

    /// A writer of the file at `path` (replaced when complete; a symbolic link's target is written).
    public init(path: String) throws(MBTilesError) {
        do {
            output = try ArchiveOutput(path: path, format: .mbtiles, inPlaceAllowed: false)
            output.discard()
            database = try DatabaseQueue(path: output.writingPath)
            try database.write { db in
                try db.execute(sql: """
                    CREATE TABLE metadata (name TEXT NOT NULL, value TEXT);
                    CREATE UNIQUE INDEX metadata_name ON metadata (name);
                    CREATE TABLE tiles (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL, tile_data BLOB);
                    CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
                    """)
            }
        } catch {
            throw MBTilesError(.cannotWrite, "cannot write \(path): \(error)", underlying: error)
        }
    }

    /// Writes `metadata` rows and the tiles `next` hands out (`y` counted from the north, as a map
    /// asks; nil ends), in one transaction, and moves the file into place.
    public func write(metadata: [(name: String, value: String)],
                      tiles next: () throws -> (z: Int, x: Int, y: Int, bytes: [UInt8])?) throws(MBTilesError) {
        do {
            try database.write { db in
                for (name, value) in metadata {
                    try db.execute(sql: "INSERT INTO metadata (name, value) VALUES (?, ?)", arguments: [name, value])
                }
                let insert = try db.makeStatement(sql: "INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)")
                while let tile = try next() {
                    try insert.execute(arguments: [tile.z, tile.x, (1 << tile.z) - 1 - tile.y, Data(tile.bytes)])
                }
            }
            try database.close()
            try output.commit()
        } catch {
            try? database.close()
            output.discard()
            throw MBTilesError(.cannotWrite, "cannot write \(output.destination): \(error)", underlying: error)
        }
    }
}
