import Foundation
import GRDB
import MapSim

/// One batch of a region download's lookups (`OfflineDatabase.regionLookup`), as a query that runs on
/// the database's queue, in one read transaction: for each resource, the stored size of a usable
/// row, its body when asked for, and whether a region holds it already.
struct RegionLookupQuery: Sendable {
    private let wanted: [(key: RowKey, body: Bool)]
    private let checksRevalidation: Bool
    private let now: Int64

    /// The lookups of `resources` in `database`'s keys, a body read where `bodies` says, rows that
    /// must be revalidated usable only when they expire after `now` (seconds since 1970).
    init(_ resources: [Resource], bodies: [Bool], usableAt now: Int64, database: OfflineDatabase) {
        wanted = zip(resources, bodies).map { (key: RowKey($0, mapbox: database.options.mapbox), body: $1) }
        checksRevalidation = database.features.mustRevalidate
        self.now = now
    }

    /// What a database with none of the rows finds.
    var nothingStored: [OfflineDatabase.RegionLookup] {
        wanted.map { _ in .notStored }
    }

    /// Runs the lookups in `db`.
    @Sendable func run(_ db: Database) throws -> [OfflineDatabase.RegionLookup] {
        let revalidate = checksRevalidation ? "must_revalidate" : "0"
        return try wanted.map { key, body in
            let link = key.regionTable
            guard let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT id, LENGTH(data), \(revalidate), expires, compressed, EXISTS (SELECT 1 FROM \(link.table) WHERE \(link.column) = \(key.table).id)
                FROM \(key.table) WHERE \(key.condition)
                """), arguments: key.arguments) else { return .notStored }
            let usable = !(row.lenient(2) ?? false) || (row.lenient(3) as Int64?).map { $0 > now } ?? true
            var lookup = OfflineDatabase.RegionLookup(storedSize: usable ? (row.lenient(1) as Int? ?? 0) : nil, body: nil, isInRegion: row.lenient(5) ?? false)
            if usable, body, let data = try Data.fetchOne(db.cachedStatement(sql: "SELECT data FROM \(key.table) WHERE id = ?"), arguments: [row.lenient(0) as Int64?]) {
                lookup.body = try? RowCompression.unpack([UInt8](data), compressed: row.lenient(4) ?? false)
                if lookup.body == nil { lookup.storedSize = nil }
            }
            return lookup
        }
    }
}
