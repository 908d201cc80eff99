import Foundation
import GRDB
import GRDBSQLite
import MapSim
import MapSimJSON

/// An MBTiles file (specification 1.3) opened read-only, as MapLibre Native's MBTiles file source
/// reads it: the TileJSON made from the `metadata` table, tiles by z/x/y with rows in TMS order
/// (y flipped), gzip-compressed tiles inflated. The file is never written: it opens with SQLite's
/// read-only flag, and a WAL file in a folder this process cannot write opens as immutable.
public final class MBTilesArchive: Sendable {
    /// The file's path.
    public let path: String
    private let database: DatabaseQueue

    /// Opens the file at `path` and checks that it is MBTiles: a `metadata` table with `name` and
    /// `value`, a `tiles` table or view with `zoom_level`, `tile_column`, `tile_row`, `tile_data`.
    public init(path: String) throws(MBTilesError) {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw MBTilesError(.missing, "no MBTiles file at \(path)")
        }
        guard !isDirectory.boolValue else { throw MBTilesError(.invalid, "\(path) is a directory, not an MBTiles file") }
        do {
            database = try Self.connect(path)
            try database.read { db in try Self.checkSchema(db, path: path) }
        } catch let error as MBTilesError {
            throw error
        } catch {
            throw Self.failure(error, path: path, doing: "opening it")
        }
    }

    private static func connect(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        configuration.label = "MBTiles \(path)"
        // Tiles are read at random: map the file (up to 256 MiB of address space, not memory) rather
        // than copy each page through SQLite's page cache, and keep the shared lock from the first
        // read on (no writer may change the file while a map reads it, and SQLite does not take and
        // drop the lock, and look for a journal, for every tile).
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 268435456; PRAGMA locking_mode = EXCLUSIVE") }
        do {
            return try DatabaseQueue(path: path, configuration: configuration)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN || error.resultCode == .SQLITE_READONLY {
            let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
            return try DatabaseQueue(path: "file:\(encoded)?immutable=1", configuration: configuration)
        }
    }

    private static func checkSchema(_ db: Database, path: String) throws {
        func columns(of name: String) throws -> Set<String>? {
            let kind = try String.fetchOne(db, sql: "SELECT type FROM sqlite_master WHERE name = ? AND type IN ('table', 'view')", arguments: [name])
            guard kind != nil else { return nil }
            return Set(try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [name]).map { $0["name"] as String })
        }
        guard let metadata = try columns(of: "metadata") else {
            throw MBTilesError(.invalid, "\(path) is not an MBTiles file: it has no metadata table")
        }
        let missingMetadata = ["name", "value"].filter { !metadata.contains($0) }
        guard missingMetadata.isEmpty else {
            throw MBTilesError(.invalid, "\(path) is not an MBTiles file: its metadata table has no column \(missingMetadata.joined(separator: ", "))")
        }
        guard let tiles = try columns(of: "tiles") else {
            throw MBTilesError(.invalid, "\(path) is not an MBTiles file: it has no tiles table or view")
        }
        let missingTiles = ["zoom_level", "tile_column", "tile_row", "tile_data"].filter { !tiles.contains($0) }
        guard missingTiles.isEmpty else {
            throw MBTilesError(.invalid, "\(path) is not an MBTiles file: its tiles table has no column \(missingTiles.joined(separator: ", "))")
        }
    }

    /// The `metadata` table, name by name, in the file's order.
    public func metadata() throws(MBTilesError) -> [(name: String, value: String)] {
        try read("reading its metadata") { db in
            // Any storage class, as SQLite's text of it (MapLibre Native reads them as text): a blob
            // that is no UTF-8 must not trap GRDB's String conversion.
            try Row.fetchAll(db, sql: "SELECT name, value FROM metadata").compactMap { row -> (String, String)? in
                guard let name = Self.text(row["name"]), let value = Self.text(row["value"]) else { return nil }
                return (name, value)
            }
        }
    }

    /// A metadata cell as text; nil for NULL.
    private static func text(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .string(let text): text
        case .int64(let number): String(number)
        case .double(let number): JSONWriter.formatNumber(number)
        case .blob(let data): String(decoding: data, as: UTF8.self)
        case .null: nil
        }
    }

    /// The TileJSON MapLibre Native makes for the file at the `mbtiles://` URL `url`.
    public func tileJSON(url: String) throws(MBTilesError) -> [UInt8] {
        let rows = try metadata()
        let zooms: (min: Int, max: Int)? = try read("reading its zoom levels") { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT MIN(zoom_level) AS low, MAX(zoom_level) AS high FROM tiles"),
                  let low = Int.fromDatabaseValue(row["low"]), let high = Int.fromDatabaseValue(row["high"]) else { return nil }
            return (low, high)
        }
        return try MBTilesTileJSON.make(url: url, metadata: rows, zooms: zooms, path: path)
    }

    /// The stored bytes of tile `z/x/y` (`y` counted from the north, as a map asks); nil when the
    /// file has no such tile.
    public func tileData(z: Int, x: Int, y: Int) throws(MBTilesError) -> [UInt8]? {
        guard (0...30).contains(z) else { return nil }
        let row = (1 << z) - 1 - y
        return try read("reading tile \(z)/\(x)/\(y)") { db in
            // The lookup of every tile: bound and stepped on SQLite's own statement, with no row value
            // boxed in between, and the blob copied once.
            let statement = try db.cachedStatement(sql: "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
            let handle = statement.sqliteStatement
            sqlite3_reset(handle)
            sqlite3_bind_int64(handle, 1, Int64(z))
            sqlite3_bind_int64(handle, 2, Int64(x))
            sqlite3_bind_int64(handle, 3, Int64(row))
            let code = sqlite3_step(handle)
            defer { sqlite3_reset(handle) }
            switch code {
            case SQLITE_ROW:
                let count = Int(sqlite3_column_bytes(handle, 0))
                guard let blob = sqlite3_column_blob(handle, 0) else { return count == 0 && sqlite3_column_type(handle, 0) == SQLITE_BLOB ? [] : nil }
                return [UInt8](UnsafeRawBufferPointer(start: blob, count: count))
            case SQLITE_DONE:
                return nil
            default:
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
        }
    }

    /// Tile `z/x/y` as a map gets it: inflated when it is gzip-compressed (MapLibre Native looks for
    /// the gzip magic number); nil when the file has no such tile.
    public func tile(z: Int, x: Int, y: Int) throws(MBTilesError) -> [UInt8]? {
        guard let bytes = try tileData(z: z, x: x, y: y) else { return nil }
        guard ZlibCodec.isGzip(bytes) else { return bytes }
        do {
            return try ZlibCodec.inflate(bytes, limit: FileResourceLoader.maximumSize)
        } catch {
            throw MBTilesError(.invalid, "\(path): tile \(z)/\(x)/\(y) does not inflate as gzip: \(error)", underlying: error)
        }
    }

    /// Runs `work` on the file, outside a transaction (the file is read-only: a lone SELECT needs
    /// none, and one per tile costs more than the read); an SQLite error becomes one naming the file.
    private func read<T>(_ doing: String, _ work: (Database) throws -> T) throws(MBTilesError) -> T {
        do {
            return try database.inDatabase(work)
        } catch let error as MBTilesError {
            throw error
        } catch {
            throw Self.failure(error, path: path, doing: doing)
        }
    }

    private static func failure(_ error: any Error, path: String, doing: String) -> MBTilesError {
        guard let error = error as? DatabaseError else { return MBTilesError(.unreadable, "\(path): \(doing): \(error)", underlying: error) }
        let reason = error.message ?? "\(error.resultCode)"
        switch error.resultCode {
        case .SQLITE_CORRUPT:
            return MBTilesError(.invalid, "\(path) is damaged (SQLite, \(doing): \(reason))")
        case .SQLITE_NOTADB:
            return MBTilesError(.invalid, "\(path) is not an MBTiles file: SQLite says it is not a database (\(reason))")
        default:
            return MBTilesError(.unreadable, "\(path): \(doing): SQLite says \(reason)")
        }
    }
}
