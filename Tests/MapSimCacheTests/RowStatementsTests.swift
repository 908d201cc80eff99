import Foundation
import GRDB
import GRDBSQLite
import Testing
@testable import MapSimCache

/// A row written, linked and read back through SQLite's own calls, and a value SQLite refuses
/// named as an error rather than cut or crashed on.
@Suite("RowStatements")
struct RowStatementsTests {
    private static let tile = RowKey.tile(template: "http://h/{z}/{x}/{y}.pbf", pixelRatio: 1, z: 3, x: 4, y: 5)
    private static let headers = StoredHeaders(expires: 2_000, modified: 1_000, etag: "\"e\"", mustRevalidate: true)

    private func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.writeWithoutTransaction { db in try OfflineSchema.create(db) }
        return queue
    }

    @Test func aRowPutTwiceKeepsItsIDAndReadsBackAsWritten() throws {
        try database().write { db in
            try db.execute(sql: "INSERT INTO regions (definition, description) VALUES ('{}', NULL)")
            var rows = RowStatements(db)
            let first = try rows.put(Self.tile, kind: 3, StoredBody(data: [1, 2, 3], compressed: false), headers: Self.headers, accessed: 9)
            try rows.link(Self.tile, id: first, region: 1)
            let second = try rows.put(Self.tile, kind: 3, StoredBody(data: [4, 5], compressed: true), headers: Self.headers, accessed: 10)
            #expect(second == first, "an update keeps the row, and the regions that hold it")
            let found = try #require(try rows.lookUp(Self.tile, revalidate: true))
            #expect(found.id == first && found.size == 2 && found.mustRevalidate && found.expires == 2_000)
            #expect(found.compressed && found.isInRegion)
            #expect(try rows.body(of: Self.tile, id: first) { Array($0) } == [4, 5])
            #expect(try rows.lookUp(.resource(url: "http://h/none"), revalidate: true) == nil)
        }
    }

    @Test func aBodyLargerThanSQLiteTakesIsAnErrorAndNothingIsWritten() throws {
        try database().write { db in
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, 1_000)
            var rows = RowStatements(db)
            let large = StoredBody(data: [UInt8](repeating: 7, count: 2_000), compressed: false)
            #expect(throws: DatabaseError.self) {
                try rows.put(Self.tile, kind: 3, large, headers: Self.headers, accessed: 1)
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tiles") == 0)
            _ = try rows.put(Self.tile, kind: 3, StoredBody(data: [1], compressed: false), headers: Self.headers, accessed: 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tiles") == 1, "the statements still work after a refusal")
        }
    }
}
