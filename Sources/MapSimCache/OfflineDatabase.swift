import Foundation
import GRDB
import Synchronization
import MapSim
import MapSimJSON

/// The cache: MapLibre Native's offline database, schema version 6 — the one SQLite file in which
/// apps built on MapLibre Native keep their ambient cache and their offline regions. A file mapsim
/// writes opens in MapLibre Native as its own, and a file MapLibre Native wrote opens here.
///
/// Bodies are stored zlib-compressed when that is smaller, as MapLibre stores them; `mapbox://` URLs
/// in their canonical form, without access tokens; `expires`, `modified` and `accessed` in seconds.
/// The ambient cache — what no offline region holds — is kept under a maximum size (50 MB by
/// default) by evicting the least recently used rows. Writes are queued and committed in groups,
/// one transaction for all that arrived while the previous one ran (a region download's: in the last
/// 40 ms); a lookup after a write sees it.
///
/// Opening: a missing file is created on the first write (MapLibre's schema, rollback journal,
/// incremental auto-vacuum). MapLibre's older versions are migrated as MapLibre migrates them — or
/// read as they are, with a warning, when the file cannot be written; a newer version is refused,
/// never rewritten; mapsim's own earlier cache schema is migrated once. A file SQLite reports as
/// damaged, on opening or on any later read, is set aside as `FILE.corrupt` and the run goes on
/// without it. Several maps, in one process or several, can share one file.
public final class OfflineDatabase: ResourceCache {
    /// Database settings.
    public struct Options: Sendable {
        /// MapLibre Native's default maximum size of the ambient cache: 50 MB.
        public static let defaultMaximumAmbientCacheSize = 50 * 1024 * 1024
        /// MapLibre Native's default limit on `mapbox://` tiles in offline regions.
        public static let defaultMapboxTileCountLimit = 6_000

        /// Evict the least recently used ambient rows past this many bytes of ambient data.
        public var maximumAmbientCacheSize: Int
        /// Open without writing: lookups only, nothing stored, refreshed or touched.
        public var readOnly: Bool
        /// Which URLs are `mapbox://` URLs in disguise, stored in their canonical form.
        public var mapbox: MapboxURL
        /// The most `mapbox://` tiles offline regions may hold (`setOfflineMapboxTileCountLimit`).
        public var mapboxTileCountLimit: Int
        /// Whether the file's folder is made when the file is (mapsim's own per-user cache); else it
        /// must exist, as for every file mapsim writes.
        public var makesFolder: Bool

        /// MapLibre's defaults.
        public init(maximumAmbientCacheSize: Int = defaultMaximumAmbientCacheSize, readOnly: Bool = false, mapbox: MapboxURL = MapboxURL(),
                    mapboxTileCountLimit: Int = defaultMapboxTileCountLimit, makesFolder: Bool = false) {
            self.maximumAmbientCacheSize = max(0, maximumAmbientCacheSize)
            self.readOnly = readOnly
            self.mapbox = mapbox
            self.mapboxTileCountLimit = max(0, mapboxTileCountLimit)
            self.makesFolder = makesFolder
        }
    }

    /// The database file, as an absolute path.
    public let path: String
    /// The settings.
    public let options: Options
    /// Whether nothing is written: asked for, the file or its folder cannot be written, or it is a
    /// MapLibre database of an older version read as it is.
    public let isReadOnly: Bool
    /// What happened while opening: a damaged file set aside, a migration, a read-only file.
    public let warnings: [String]
    /// What the file's schema has, for reading older MapLibre versions as they are.
    let features: SchemaFeatures
    let state: Mutex<State>

    /// What an open file's schema has.
    struct SchemaFeatures: Sendable {
        /// `must_revalidate` columns (version 6; 2 to 5 lack them).
        var mustRevalidate = true
    }

    /// The connection and the queue of writes, behind one lock.
    struct State {
        /// The database, once the file exists and while it is usable.
        var database: DatabaseQueue?
        /// Whether the `mapsim_*` tables exist (made on the first write of mapsim's own data).
        var hasMapsimTables = false
        /// Writes waiting for the next group commit.
        var pending: [PendingWrite] = []
        /// The bytes of the bodies in `pending`.
        var pendingBytes = 0
        /// Whether a group commit is queued and has not yet taken `pending`.
        var commitQueued = false
        /// Whether that commit waits out `commitSpacing` before it is handed to the writer.
        var commitSpaced = false
        /// When the last group commit took its writes.
        var lastCommit: ContinuousClock.Instant?
        /// What went wrong since opening: writes lost, a damaged file set aside.
        var problems = ProblemLog()
        /// Why the first writes that were lost were lost: a download stops there.
        var writeLoss: String?
        /// Why the file could not be created, once a write tried.
        var creationFailure: String?
    }

    /// Opens the database at `path`; a missing file is created on the first write, so a load that
    /// writes nothing leaves nothing on disk. Throws when the file is another program's, a newer
    /// MapLibre version, or cannot be opened at all; a damaged file is set aside instead.
    public init(path: String, options: Options = Options()) throws(CacheError) {
        let path = URL(fileURLWithPath: path).standardizedFileURL.path
        self.path = path
        self.options = options
        let opened = try OfflineDatabaseOpener(path: path, options: options).open()
        isReadOnly = opened.readOnly
        warnings = opened.warnings
        features = opened.features
        state = Mutex(State(database: opened.database, hasMapsimTables: opened.hasMapsimTables))
    }

    /// What went wrong since the database was opened — writes that were lost, a file found damaged
    /// and set aside — for the user, once the run is over.
    public var problems: [String] {
        state.withLock { state in
            state.problems.lines + (state.creationFailure.map { ["nothing was cached: \($0)"] } ?? [])
        }
    }

    /// The database if the file exists and is usable; nil before the first write or after damage.
    var existing: DatabaseQueue? {
        state.withLock { $0.database }
    }

    /// The database, creating the file (and its folder) on the first write.
    var writable: DatabaseQueue {
        get throws(CacheError) {
            guard !isReadOnly else { throw CacheError(.cannotWrite, path: path, "the cache \(path) is open read-only") }
            let outcome: Result<DatabaseQueue, CacheError> = state.withLock { state in
                if let database = state.database { return .success(database) }
                if let failure = state.creationFailure { return .failure(CacheError(.cannotOpen, path: path, failure)) }
                do {
                    let database = try OfflineDatabaseOpener(path: path, options: options).create()
                    state.database = database
                    return .success(database)
                } catch {
                    state.creationFailure = "cannot create the cache \(path): \(Self.describe(error))"
                    return .failure(CacheError(.cannotOpen, path: path, state.creationFailure ?? ""))
                }
            }
            return try outcome.get()
        }
    }

    /// Reads through the database, on its queue, after the writes queued before: a lone lookup as
    /// its own statement, `many` lookups in one read transaction (one lock for all); a damaged file
    /// is set aside (and the error says so).
    func read<T>(_ what: String, many: Bool = false, _ body: (Database) throws -> T) throws(CacheError) -> T? {
        guard let database = existing else { return nil }
        do {
            return many ? try database.read(body) : try database.inDatabase(body)
        } catch {
            throw failure(error, reading: what, database: database)
        }
    }

    /// `read(_:many:_:)` of many lookups, waited for with no thread held: the body runs on the
    /// database's queue when the writes queued before are done.
    func read<T: Sendable>(_ what: String, _ body: @escaping @Sendable (Database) throws -> T) async throws(CacheError) -> T? {
        guard let database = existing else { return nil }
        do {
            return try await database.read(body)
        } catch {
            throw failure(error, reading: what, database: database)
        }
    }

    /// Writes in one transaction; a damaged file is set aside (and the error says so).
    func write<T>(_ what: String, _ body: (Database) throws -> T) throws(CacheError) -> T {
        let database = try writable
        do {
            return try database.write(body)
        } catch {
            throw failure(error, writing: what, database: database)
        }
    }

    /// The error for a failed read or write of `what`; when SQLite says the file is damaged, the
    /// file is set aside first and the error says where it went.
    func failure(_ error: any Error, reading what: String? = nil, writing written: String? = nil, database: DatabaseQueue) -> CacheError {
        if let error = error as? CacheError { return error }
        if let aside = setAsideIfDamaged(error, database: database) { return aside }
        let reason = Self.describe(error)
        if let written { return CacheError(.cannotWrite, path: path, "cannot write \(written) to the cache \(path): \(reason)", underlying: error) }
        return CacheError(.cannotRead, path: path, "cannot read \(what ?? "the cache") from \(path): \(reason)", underlying: error)
    }

    /// Sets the file aside when `error` says it is damaged (SQLite's `SQLITE_CORRUPT` or
    /// `SQLITE_NOTADB`): the run goes on without it. Returns the error to report, or nil when the
    /// error is not damage.
    func setAsideIfDamaged(_ error: any Error, database: DatabaseQueue) -> CacheError? {
        guard let error = error as? DatabaseError, OfflineDatabaseOpener.isDamage(error) else { return nil }
        let reason = Self.describe(error)
        return state.withLock { state in
            // Only the first to notice moves the file.
            guard state.database === database else {
                return CacheError(.damaged, path: path, "the cache \(path) is damaged (\(reason)); it was set aside, and the run goes on without it", underlying: error)
            }
            state.database = nil
            state.pending.removeAll()
            state.pendingBytes = 0
            let message: String
            if let aside = OfflineDatabaseOpener.setAside(path) {
                message = "the cache \(path) is damaged (\(reason)); moved it to \(aside), and the run goes on with a new, empty cache"
            } else {
                message = "the cache \(path) is damaged (\(reason)) and could not be moved aside; the run goes on without it"
            }
            state.problems.note(message)
            return CacheError(.damaged, path: path, message, underlying: error)
        }
    }

    /// A readable reason for an error from SQLite or the cache.
    static func describe(_ error: any Error) -> String {
        if let error = error as? CacheError { return error.message }
        if let error = error as? DatabaseError {
            let message = error.message ?? "SQLite error \(error.resultCode.rawValue)"
            return message.hasPrefix("SQLite") ? message : "SQLite: \(message)"
        }
        return "\(error)"
    }

    /// Now, in whole seconds since 1970, for writes that carry no time of their own.
    static var now: Int64 {
        Int64(Date().timeIntervalSince1970)
    }
}
