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
        var statements = RowStatements(db)
        return try wanted.map { key, body in
            guard let row = try statements.lookUp(key, revalidate: checksRevalidation) else { return .notStored }
            let usable = !row.mustRevalidate || row.expires.map { $0 > now } ?? true
            var lookup = OfflineDatabase.RegionLookup(storedSize: usable ? row.size ?? 0 : nil, body: nil, isInRegion: row.isInRegion)
            if usable, body, let read = try statements.body(of: key, id: row.id ?? 0, { try? RowCompression.unpack($0, compressed: row.compressed) }) {
                lookup.body = read
                if read == nil { lookup.storedSize = nil }
            }
            return lookup
        }
    }
}
