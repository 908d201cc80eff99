import Foundation
import GRDB
import MapSimJSON
#if canImport(Glibc)
import Glibc
#endif

/// Opens an offline database file and decides what to do with what it finds: create MapLibre's
/// schema in a new file, migrate an older MapLibre version or mapsim's earlier cache, read an older
/// version as it is when the file cannot be written, refuse a newer version or another program's
/// tables, and set a damaged file aside — only a damaged cache that is provably one (SQLite's header
/// and the offline database's tables, `OwnedFormat.offlineDatabase`): any other file is refused and
/// left as it is, never moved, replaced or truncated.
struct OfflineDatabaseOpener {
    /// What opening gave.
    struct Opened {
        var database: DatabaseQueue?
        var readOnly: Bool
        var warnings: [String] = []
        var features = OfflineDatabase.SchemaFeatures()
        var hasMapsimTables = false
    }

    let path: String
    let options: OfflineDatabase.Options

    /// Opens the file, if there is one. A file to be made goes in a folder that exists, as every
    /// file mapsim writes does (`--events`, `--trace`): a mistyped folder is said, not made.
    func open() throws(CacheError) -> Opened {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            if options.readOnly { throw CacheError(.cannotOpen, path: path, "there is no cache at \(path)") }
            let folder = (path as NSString).deletingLastPathComponent
            if !options.makesFolder {
                guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
                    throw CacheError(.cannotOpen, path: path, "cannot make the cache \(path): the folder \(folder) does not exist")
                }
                guard isFolder.boolValue else { throw CacheError(.cannotOpen, path: path, "cannot make the cache \(path): \(folder) is not a folder") }
            }
            return Opened(database: nil, readOnly: false)
        }
        guard !isFolder.boolValue else {
            throw CacheError(.cannotOpen, path: path, "\(path) is a folder, not a cache: give the path of a database file in it (\(path)/cache.db)")
        }
        let writable = !options.readOnly && Self.isWritable(path)
        var opened = Opened(database: nil, readOnly: !writable)
        if writable != !options.readOnly {
            opened.warnings.append("the cache \(path) cannot be written (no permission): serving from it, nothing will be written")
        }
        do {
            let database = try connect(readOnly: !writable)
            let layout = try database.read(OfflineSchema.layout)
            try adopt(database, layout: layout, into: &opened)
            return opened
        } catch let error as CacheError {
            throw error
        } catch let error as DatabaseError where Self.isDamage(error) {
            let reason = OfflineDatabase.describe(error)
            if OwnedFormat.offlineDatabase.refusal(toReplace: Self.resolved(path)) != nil {
                throw CacheError(.foreign, path: path, """
                    \(path) is not a cache (\(reason)). mapsim sets aside only a damaged cache of its own — an SQLite file with the \
                    offline database's tables —, so this file was left as it is: give --cache the path of a cache, or of a file to create.
                    """, underlying: error)
            }
            if options.readOnly {
                throw CacheError(.cannotOpen, path: path, """
                    the cache \(path) is damaged (\(reason)); it cannot be read, and nothing was changed (a command that writes \
                    to it — load, region download — sets it aside and starts a new cache)
                    """, underlying: error)
            }
            guard writable, let aside = Self.setAside(path) else {
                opened.warnings.append("the cache \(path) is damaged (\(reason)); it cannot be moved aside, so the run goes on without it")
                opened.readOnly = true
                return opened
            }
            opened.warnings.append("the cache \(path) is damaged (\(reason)); moved it to \(aside) and started a new cache")
            return opened
        } catch {
            throw CacheError(.cannotOpen, path: path, "cannot open the cache \(path): \(OfflineDatabase.describe(error))", underlying: error)
        }
    }

    /// Creates the file and MapLibre's schema in it: the first write of a new cache.
    func create() throws -> DatabaseQueue {
        if options.makesFolder {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        }
        let file = Self.resolved(path)
        let existed = FileManager.default.fileExists(atPath: file)
        do {
            let database = try connect(readOnly: false)
            switch try database.read(OfflineSchema.layout) {
            case .empty:
                try database.writeWithoutTransaction(OfflineSchema.create)
            case .mapLibre(let version) where version == OfflineSchema.version:
                // Another process made it first.
                break
            case let layout:
                throw CacheError(.foreign, path: path, "\(path) appeared while mapsim was creating it, and holds \(describe(layout))")
            }
            return database
        } catch {
            // A file made here that could not take the schema (a full disk) is not left behind,
            // empty: it would be a cache the next run opens and cannot write either.
            if !existed, (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) == 0 {
                try? FileManager.default.removeItem(atPath: file)
            }
            throw error
        }
    }

    /// Makes an open database usable as its layout says, or refuses it.
    private func adopt(_ database: DatabaseQueue, layout: OfflineSchema.Layout, into opened: inout Opened) throws {
        switch layout {
        case .empty:
            // A file with no tables yet (an empty file) gets the schema with the first write, as a
            // missing file does: a load that writes nothing changes nothing, and a disk too full
            // for the schema leaves the run without a cache, with a warning, rather than failing it.
            break
        case .mapLibre(let version) where version > OfflineSchema.version:
            throw CacheError(.newerVersion, path: path, """
                \(path) is a MapLibre Native offline database of schema version \(version); this mapsim knows versions up to \
                \(OfflineSchema.version). It was not opened, and nothing was written to it.
                """)
        case .mapLibre(let version) where version <= 1:
            // MapLibre's first cache table: MapLibre Native drops it and starts afresh.
            guard !opened.readOnly else {
                opened.warnings.append("\(path) holds only the http_cache table of MapLibre's first schema, and cannot be written: the run goes on without it")
                return
            }
            try database.writeWithoutTransaction(OfflineSchema.create)
            opened.warnings.append("\(path) held only the http_cache table of MapLibre's first schema; replaced it with schema version \(OfflineSchema.version), as MapLibre Native does")
            opened.database = database
        case .mapLibre(let version):
            opened.database = database
            opened.hasMapsimTables = try database.read(OfflineSchema.hasMapsimTables)
            guard version < OfflineSchema.version else { return }
            if opened.readOnly {
                opened.features.mustRevalidate = false
                opened.warnings.append("\(path) is a MapLibre Native offline database of schema version \(version) and cannot be written: read as it is, not migrated")
            } else {
                try database.writeWithoutTransaction { db in try OfflineSchema.migrate(db, from: version) }
            }
        case .legacyMapsim(let version):
            guard !opened.readOnly else {
                throw CacheError(.cannotWrite, path: path, """
                    \(path) is a cache of mapsim's earlier schema (version \(version)), which must be migrated once to MapLibre's \
                    offline database, and it cannot be written: make it writable and run again
                    """)
            }
            try database.writeWithoutTransaction { db in try LegacyCacheMigration(now: OfflineDatabase.now).run(db) }
            opened.warnings.append("migrated \(path) from mapsim's earlier cache schema (version \(version)) to MapLibre Native's offline database (schema version \(OfflineSchema.version)); this happens once")
            opened.database = database
            opened.hasMapsimTables = try database.read(OfflineSchema.hasMapsimTables)
        case .foreign:
            throw CacheError(.foreign, path: path, "\(path) is not an offline database: it holds \(describe(layout)). It was not opened, and nothing was written to it.")
        }
    }

    private func describe(_ layout: OfflineSchema.Layout) -> String {
        switch layout {
        case .empty: "no tables"
        case .mapLibre(let version): "MapLibre's offline database, schema version \(version)"
        case .legacyMapsim(let version): "mapsim's earlier cache, schema version \(version)"
        case .foreign(let tables): "the tables " + tables.prefix(6).joined(separator: ", ") + (tables.count > 6 ? "…" : "")
        }
    }

    private func connect(readOnly: Bool) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.readonly = readOnly
        configuration.foreignKeysEnabled = true
        do {
            return try DatabaseQueue(path: path, configuration: configuration)
        } catch let error as DatabaseError where readOnly && (error.resultCode == .SQLITE_CANTOPEN || error.resultCode == .SQLITE_READONLY) {
            // A WAL database in a folder this process cannot write has no shared-memory index to
            // read through: open it as immutable, which needs none (and sees the checkpointed data).
            let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
            return try DatabaseQueue(path: "file:\(encoded)?immutable=1", configuration: configuration)
        }
    }

    /// Whether this process may write the file and its folder (SQLite needs the folder for its journal).
    private static func isWritable(_ path: String) -> Bool {
        access(path, W_OK) == 0 && access((path as NSString).deletingLastPathComponent, W_OK) == 0
    }

    /// The file `path` names: the target of a symbolic link, or the path itself.
    static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    /// Whether SQLite says the file is damaged or not a database.
    static func isDamage(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// Renames a damaged file — the file itself, where `path` is a symbolic link to it — and its
    /// journal companions out of the way; returns the new name, or nil when it cannot be moved (or is
    /// not a regular file: a device is never renamed).
    static func setAside(_ path: String) -> String? {
        let target = resolved(path)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: target),
              attributes[.type] as? FileAttributeType == .typeRegular else { return nil }
        var candidate = target + ".corrupt"
        var n = 1
        while FileManager.default.fileExists(atPath: candidate) {
            n += 1
            candidate = target + ".corrupt-\(n)"
        }
        guard (try? FileManager.default.moveItem(atPath: target, toPath: candidate)) != nil else { return nil }
        for suffix in ["-journal", "-wal", "-shm"] {
            try? FileManager.default.moveItem(atPath: target + suffix, toPath: candidate + suffix)
        }
        return candidate
    }
}
