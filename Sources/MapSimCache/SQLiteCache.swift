import Foundation
import GRDB
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import MapSim
import MapSimJSON
import MapSimStyle

/// The cache backend: every resource and tile the network returned, in one SQLite file, as
/// MapLibre's offline database keeps them.
///
/// Resources are keyed by URL and tiles by (URL template, pixel ratio, z, x, y). Past the size limit
/// (50 MiB by default) the least recently used entries are evicted in batches; entries of offline
/// regions are never evicted. Errors are never stored; a 304 refreshes only expiry and access time.
/// The file is created on the first write. A file that SQLite says is not a database is set aside
/// (renamed, never deleted) and a new cache is started, with a warning; a file that cannot be
/// written is served read-only. Several maps — in one process or several — can share one file.
public final class SQLiteCache: ResourceCache {
    /// Cache settings.
    public struct Options: Sendable {
        /// Evict past this many bytes of data pages (50 MiB in the SDKs).
        public var maximumSize: Int
        /// Open without writing: lookups only, nothing stored or refreshed.
        public var readOnly: Bool
        /// How many entries are evicted at a time.
        public var evictionBatch: Int

        /// The SDK defaults.
        public init(maximumSize: Int = 50 * 1024 * 1024, readOnly: Bool = false, evictionBatch: Int = 50) {
            self.maximumSize = maximumSize
            self.readOnly = readOnly
            self.evictionBatch = max(1, evictionBatch)
        }
    }

    /// The cache file, as an absolute path (a relative one is resolved against the current folder).
    public let path: String
    /// The settings.
    public let options: Options
    /// Whether nothing is written: asked for, or the file or its folder cannot be written.
    public let isReadOnly: Bool
    /// What happened while opening, e.g. a corrupt file set aside or a read-only file.
    public let warnings: [String]
    /// The database, once the file exists: a cache is created on its first write, not on open.
    private let connection: Mutex<Connection>

    private struct Connection {
        var database: DatabaseQueue?
        /// Why the file could not be created, once a write tried.
        var failure: String?
    }

    /// Opens the cache at `path`; a missing file is created on the first write, so a load that
    /// writes nothing leaves nothing on disk. A file that SQLite says is not a database, or whose
    /// tables are another program's, is set aside (renamed, never deleted); a file or folder that
    /// cannot be written is served read-only, with a warning.
    public init(path: String, options: Options = Options()) throws(CacheError) {
        let path = URL(fileURLWithPath: path).standardizedFileURL.path
        self.path = path
        self.options = options
        var warnings: [String] = []
        var database: DatabaseQueue?
        var readOnly = options.readOnly
        if FileManager.default.fileExists(atPath: path) {
            readOnly = readOnly || !Self.isWritable(path)
            do {
                database = try Self.open(path: path, options: options, readOnly: readOnly)
                if readOnly && !options.readOnly {
                    warnings.append("the cache \(path) cannot be written (no permission): serving from it, nothing will be written")
                }
            } catch where Self.isNotACache(error) && !readOnly {
                let aside = Self.setAside(path)
                warnings.append("\(path) is not a readable mapsim cache (\(Self.describe(error))); moved it to \(aside) and started a new cache")
            } catch let error as CacheError {
                throw error
            } catch {
                throw CacheError(.cannotOpen, path: path, "cannot open the cache \(path): \(Self.describe(error))")
            }
        } else if options.readOnly {
            throw CacheError(.cannotOpen, path: path, "there is no cache at \(path)")
        }
        isReadOnly = readOnly
        connection = Mutex(Connection(database: database))
        self.warnings = warnings
    }

    /// Whether this process may write the file and its folder (SQLite needs the folder for its journal).
    private static func isWritable(_ path: String) -> Bool {
        access(path, W_OK) == 0 && access(FilePath.folder(of: path), W_OK) == 0
    }

    /// Whether SQLite said the file is not a database, or the tables are not a mapsim cache's.
    private static func isNotACache(_ error: any Error) -> Bool {
        if let error = error as? CacheError, error.code == .foreign { return true }
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
    }

    private static func open(path: String, options: Options, readOnly: Bool) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.readonly = readOnly
        if !readOnly { configuration.journalMode = .wal }
        let check: @Sendable (Database) throws -> Void = { db in
            let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            if try CacheSchema.isForeign(db, version: version) {
                throw CacheError(.foreign, path: path, "it holds tables of another program or of a newer mapsim (schema \(version))")
            }
            guard !readOnly else { return }
            if version == 0 {
                try CacheSchema.create(db)
            } else if version < CacheSchema.currentVersion {
                try CacheSchema.migrate(db, from: version)
            }
        }
        guard readOnly else {
            let database = try DatabaseQueue(path: path, configuration: configuration)
            try database.write(check)
            return database
        }
        do {
            let database = try DatabaseQueue(path: path, configuration: configuration)
            try database.read(check)
            return database
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN || error.resultCode == .SQLITE_READONLY {
            // A WAL database in a folder this process cannot write has no shared-memory index to
            // read through: open it as immutable, which needs none (and sees the checkpointed data).
            let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
            let database = try DatabaseQueue(path: "file:\(encoded)?immutable=1", configuration: configuration)
            try database.read(check)
            return database
        }
    }

    /// The database if the file exists; nil before the first write.
    var existing: DatabaseQueue? {
        connection.withLock { $0.database }
    }

    /// The database, creating the file (and its folder) on the first write.
    var database: DatabaseQueue {
        get throws(CacheError) {
            guard !isReadOnly else { throw CacheError(.cannotWrite, path: path, "the cache \(path) is open read-only") }
            let outcome: Result<DatabaseQueue, CacheError> = connection.withLock { connection in
                if let database = connection.database { return .success(database) }
                if let failure = connection.failure { return .failure(CacheError(.cannotOpen, path: path, failure)) }
                do {
                    try FileManager.default.createDirectory(atPath: FilePath.folder(of: path), withIntermediateDirectories: true)
                    let database = try Self.open(path: path, options: options, readOnly: false)
                    connection.database = database
                    return .success(database)
                } catch {
                    connection.failure = "cannot create the cache \(path): \(Self.describe(error))"
                    return .failure(CacheError(.cannotOpen, path: path, connection.failure ?? ""))
                }
            }
            return try outcome.get()
        }
    }

    /// Why writes are lost, when the cache file could not be created on the first write.
    public var writeFailure: String? {
        connection.withLock { $0.failure }
    }

    /// Renames the file (and its WAL companions) out of the way; returns the new name.
    private static func setAside(_ path: String) -> String {
        var candidate = path + ".corrupt"
        var n = 1
        while FileManager.default.fileExists(atPath: candidate) {
            n += 1
            candidate = path + ".corrupt-\(n)"
        }
        try? FileManager.default.moveItem(atPath: path, toPath: candidate)
        for suffix in ["-wal", "-shm"] {
            try? FileManager.default.moveItem(atPath: path + suffix, toPath: candidate + suffix)
        }
        return candidate
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? CacheError { return error.message }
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }

    // MARK: - ResourceCache

    public func load(_ resource: Resource) async -> Response {
        guard let database = existing else { return .failure(.notFound, "\(resource.url) is not in the cache", source: .cache) }
        do {
            let row = try (isReadOnly ? database.read { try self.lookUp(resource, $0, touch: false) } : database.write { try self.lookUp(resource, $0, touch: true) })
            guard let row else { return .failure(.notFound, "\(resource.url) is not in the cache", source: .cache) }
            var response = Response(source: .cache)
            response.data = (row["data"] as Data?).map { [UInt8]($0) }
            response.noContent = row["no_content"] as Bool
            response.mustRevalidate = row["must_revalidate"] as Bool
            response.expires = (row["expires"] as Int64?).map(HTTPDate.init(secondsSince1970:))
            response.modified = (row["modified"] as Int64?).map(HTTPDate.init(secondsSince1970:))
            response.etag = row["etag"]
            return response
        } catch {
            return .failure(.other, "the cache \(path) could not be read: \(Self.describe(error))", source: .cache)
        }
    }

    private func lookUp(_ resource: Resource, _ db: Database, touch: Bool) throws -> Row? {
        let (table, condition, arguments) = Self.key(for: resource)
        let select = try db.cachedStatement(sql: "SELECT data, no_content, must_revalidate, expires, modified, etag FROM \(table) WHERE \(condition)")
        guard let row = try Row.fetchOne(select, arguments: arguments) else { return nil }
        if touch {
            try db.cachedStatement(sql: "UPDATE \(table) SET accessed = \(Self.nextAccess) WHERE \(condition)").execute(arguments: arguments)
        }
        return row
    }

    /// Queues the write on the database's own serial queue and returns at once: a later lookup, on
    /// the same queue, sees it. `flush()` waits for it.
    public func store(_ resource: Resource, _ response: Response) {
        guard !isReadOnly, response.error == nil, !response.notModified, response.data != nil || response.noContent,
              let database = try? database else { return }
        database.asyncWrite({ db in
            let values: StatementArguments = [response.expires?.secondsSince1970, response.modified?.secondsSince1970, response.etag,
                                              response.mustRevalidate, response.data.map { Data($0) }, response.noContent]
            if let tile = resource.tileData {
                try db.cachedStatement(sql: """
                    INSERT OR REPLACE INTO tiles (url_template, pixel_ratio, z, x, y, expires, modified, etag, must_revalidate, data, no_content, accessed)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, \(Self.nextAccess))
                    """).execute(arguments: [tile.urlTemplate, tile.pixelRatio, tile.id.z, tile.id.x, tile.id.y] + values)
            } else {
                try db.cachedStatement(sql: """
                    INSERT OR REPLACE INTO resources (url, kind, expires, modified, etag, must_revalidate, data, no_content, accessed)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, \(Self.nextAccess))
                    """).execute(arguments: [resource.url, resource.kind.rawValue] + values)
            }
            try self.evictIfNeeded(db)
        }, completion: { _, _ in })
    }

    /// Queued like `store(_:_:)`.
    public func refresh(_ resource: Resource, _ response: Response) {
        guard !isReadOnly, let database = existing else { return }
        let (table, condition, arguments) = Self.key(for: resource)
        database.asyncWrite({ db in
            try db.execute(sql: "UPDATE \(table) SET expires = ?, accessed = \(Self.nextAccess) WHERE \(condition)",
                           arguments: [response.expires?.secondsSince1970] + arguments)
        }, completion: { _, _ in })
    }

    public func flush() async {
        guard let database = existing else { return }
        _ = try? await database.writeWithoutTransaction { _ in }
    }

    // MARK: - Management

    /// Marks every entry outside offline regions as expired and to be revalidated.
    public func invalidate() throws(CacheError) {
        try write { db in
            for table in ["resources", "tiles"] {
                try db.execute(sql: "UPDATE \(table) SET expires = 0, must_revalidate = 1 WHERE NOT \(Self.pinned(table))")
            }
        }
    }

    /// Removes every entry outside offline regions.
    public func clear() throws(CacheError) {
        try write { db in
            for table in ["resources", "tiles"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE NOT \(Self.pinned(table))")
            }
        }
        do {
            try database.vacuum()
        } catch let error as CacheError {
            throw error
        } catch {
            throw CacheError(.cannotWrite, path: path, "cannot compact the cache \(path): \(Self.describe(error))")
        }
    }

    /// Counts of what the cache holds.
    public func statistics() throws(CacheError) -> CacheStatistics {
        guard let database = existing else {
            return CacheStatistics(resources: 0, tiles: 0, dataBytes: 0, databaseBytes: 0, regions: 0, pinnedEntries: 0)
        }
        do {
            return try database.read { db in
                func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? 0 }
                return CacheStatistics(
                    resources: try count("SELECT COUNT(*) FROM resources"),
                    tiles: try count("SELECT COUNT(*) FROM tiles"),
                    dataBytes: try count("SELECT COALESCE(SUM(LENGTH(data)), 0) FROM resources") + count("SELECT COALESCE(SUM(LENGTH(data)), 0) FROM tiles"),
                    databaseBytes: try Self.usedBytes(db),
                    regions: try count("SELECT COUNT(*) FROM regions"),
                    pinnedEntries: try count("SELECT COUNT(*) FROM resources WHERE \(Self.pinned("resources"))")
                        + count("SELECT COUNT(*) FROM tiles WHERE \(Self.pinned("tiles"))"))
            }
        } catch {
            throw CacheError(.cannotRead, path: path, "cannot read the cache \(path): \(Self.describe(error))")
        }
    }

    // MARK: - Internals

    func write(_ body: (Database) throws -> Void) throws(CacheError) {
        let database = try database
        do {
            try database.write(body)
        } catch {
            throw CacheError(.cannotWrite, path: path, "cannot write the cache \(path): \(Self.describe(error))")
        }
    }

    /// The next access stamp: one more than the latest, so eviction order is the order of use.
    static let nextAccess = "(SELECT MAX(COALESCE((SELECT MAX(accessed) FROM resources), 0), COALESCE((SELECT MAX(accessed) FROM tiles), 0)) + 1)"

    static func pinned(_ table: String) -> String {
        table == "resources"
            ? "EXISTS (SELECT 1 FROM region_resources r WHERE r.url = resources.url)"
            : "EXISTS (SELECT 1 FROM region_tiles r WHERE r.url_template = tiles.url_template AND r.pixel_ratio = tiles.pixel_ratio AND r.z = tiles.z AND r.x = tiles.x AND r.y = tiles.y)"
    }

    static func key(for resource: Resource) -> (table: String, condition: String, arguments: StatementArguments) {
        if let tile = resource.tileData {
            return ("tiles", "url_template = ? AND pixel_ratio = ? AND z = ? AND x = ? AND y = ?",
                    [tile.urlTemplate, tile.pixelRatio, tile.id.z, tile.id.x, tile.id.y])
        }
        return ("resources", "url = ?", [resource.url])
    }

    static func usedBytes(_ db: Database) throws -> Int {
        let pages = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA page_count")) ?? 0
        let free = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA freelist_count")) ?? 0
        let size = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA page_size")) ?? 4096
        return (pages - free) * size
    }

    private func evictIfNeeded(_ db: Database) throws {
        while try Self.usedBytes(db) > options.maximumSize {
            let victims = try Row.fetchAll(db, sql: """
                SELECT 'resources' AS tbl, rowid AS id, accessed FROM resources WHERE NOT \(Self.pinned("resources"))
                UNION ALL
                SELECT 'tiles' AS tbl, rowid AS id, accessed FROM tiles WHERE NOT \(Self.pinned("tiles"))
                ORDER BY accessed LIMIT ?
                """, arguments: [options.evictionBatch])
            guard !victims.isEmpty else { return }
            for victim in victims {
                let table: String = victim["tbl"]
                try db.execute(sql: "DELETE FROM \(table) WHERE rowid = ?", arguments: [victim["id"] as Int64])
            }
        }
    }
}

extension SQLiteCache {
    /// Creates an offline region with this definition (JSON); returns its id.
    public func createRegion(definition: String) throws(CacheError) -> Int64 {
        var id: Int64 = 0
        try write { db in
            try db.execute(sql: "INSERT INTO regions (definition) VALUES (?)", arguments: [definition])
            id = db.lastInsertedRowID
        }
        return id
    }

    /// Makes `resource` part of region `region`: it will never be evicted while the region exists.
    public func pin(_ resource: Resource, to region: Int64) throws(CacheError) {
        try write { db in
            if let tile = resource.tileData {
                try db.execute(sql: "INSERT OR IGNORE INTO region_tiles (region_id, url_template, pixel_ratio, z, x, y) VALUES (?, ?, ?, ?, ?, ?)",
                               arguments: [region, tile.urlTemplate, tile.pixelRatio, tile.id.z, tile.id.x, tile.id.y])
            } else {
                try db.execute(sql: "INSERT OR IGNORE INTO region_resources (region_id, url) VALUES (?, ?)", arguments: [region, resource.url])
            }
        }
    }

    /// Deletes region `region`; its entries become ordinary cache entries that may be evicted.
    public func deleteRegion(_ region: Int64) throws(CacheError) {
        try write { db in
            try db.execute(sql: "DELETE FROM region_resources WHERE region_id = ?", arguments: [region])
            try db.execute(sql: "DELETE FROM region_tiles WHERE region_id = ?", arguments: [region])
            try db.execute(sql: "DELETE FROM regions WHERE id = ?", arguments: [region])
        }
    }

    /// The offline regions: id and definition.
    public func regions() throws(CacheError) -> [(id: Int64, definition: String)] {
        guard let database = existing else { return [] }
        do {
            return try database.read { db in
                try Row.fetchAll(db, sql: "SELECT id, definition FROM regions ORDER BY id").map { ($0["id"], $0["definition"]) }
            }
        } catch {
            throw CacheError(.cannotRead, path: path, "cannot read the regions of \(path): \(Self.describe(error))")
        }
    }
}
