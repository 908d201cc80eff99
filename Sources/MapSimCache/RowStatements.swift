import Foundation
import GRDB
import GRDBSQLite

/// The statements that store, link and look up the rows of a region download and of the ambient
/// cache, each prepared once for a batch and run through SQLite's own calls. A download writes and
/// links a row for every tile: through GRDB each statement was found by hashing its SQL text, and
/// its arguments boxed into an array of values, which together cost more than SQLite's own work.
///
/// Values are read as leniently as `Row.lenient` reads them: a column of another kind than expected
/// (a file another program wrote) reads as nil.
struct RowStatements {
    /// What a statement does, in which table.
    private enum Query: Hashable {
        case update(tiles: Bool), insert(tiles: Bool), id(tiles: Bool)
        case link(tiles: Bool), linkStored(tiles: Bool)
        case lookUp(tiles: Bool, revalidate: Bool), body(tiles: Bool)
    }

    /// A usable row's part in a region download's lookup.
    struct Lookup {
        var id: Int64?
        var size: Int?
        var mustRevalidate: Bool
        var expires: Int64?
        var compressed: Bool
        var isInRegion: Bool
    }

    private let db: Database
    private var prepared: [Query: Statement] = [:]

    /// Statements run in `db`.
    init(_ db: Database) {
        self.db = db
    }

    /// Writes a row as MapLibre's `putInternal` does: an update of the row with the key, or a new
    /// row (so a row keeps its id, and the regions that hold it). Returns the row's id.
    mutating func put(_ key: RowKey, kind: Int, _ body: StoredBody, headers: StoredHeaders, accessed: Int64) throws -> Int64 {
        let tiles = key.isTile
        try run(.update(tiles: tiles)) { row in
            if !tiles { row.bind(Int64(kind)) }
            row.bind(headers, accessed: accessed, body)
            row.bind(key)
        }
        if db.changesCount == 0 {
            try run(.insert(tiles: tiles)) { row in
                row.bind(key)
                if !tiles { row.bind(Int64(kind)) }
                row.bind(headers, accessed: accessed, body)
            }
            return db.lastInsertedRowID
        }
        var id: Int64 = 0
        try run(.id(tiles: tiles), bind: { $0.bind(key) }, read: { id = $0.integer(0) ?? 0 })
        return id
    }

    /// Makes row `id` (at `key`) part of `region`.
    mutating func link(_ key: RowKey, id: Int64, region: Int64) throws {
        try run(.link(tiles: key.isTile)) { row in
            row.bind(region)
            row.bind(id)
        }
    }

    /// Makes the stored row at `key` part of `region`.
    mutating func linkStored(_ key: RowKey, region: Int64) throws {
        try run(.linkStored(tiles: key.isTile)) { row in
            row.bind(region)
            row.bind(key)
        }
    }

    /// The row at `key` as a region download looks it up; nil when there is none. `revalidate`
    /// reads `must_revalidate`, which a file of an older schema lacks (read as false).
    mutating func lookUp(_ key: RowKey, revalidate: Bool) throws -> Lookup? {
        var found: Lookup?
        try run(.lookUp(tiles: key.isTile, revalidate: revalidate), bind: { $0.bind(key) }, read: { row in
            found = Lookup(id: row.integer(0), size: row.integer(1).map(Int.init), mustRevalidate: row.bool(2) ?? false, expires: row.integer(3),
                           compressed: row.bool(4) ?? false, isInRegion: row.bool(5) ?? false)
        })
        return found
    }

    /// The stored body of row `id` of `key`'s table, read as `read` makes it; nil when there is no
    /// such row or its data is NULL (no content) or a number (what another program put there).
    mutating func body<Body>(of key: RowKey, id: Int64, _ read: (UnsafeRawBufferPointer) throws -> Body) throws -> Body? {
        var body: Body?
        try run(.body(tiles: key.isTile), bind: { $0.bind(id) }, read: { row in body = try row.blob(0).map(read) })
        return body
    }

    // MARK: - Running

    /// Binds `query`'s values with `bind`, steps it to its end, and hands each row to `read`.
    private mutating func run(_ query: Query, bind: (inout Binding) -> Void, read: (Reading) throws -> Void = { _ in }) throws {
        let handle = try statement(query).sqliteStatement
        defer { sqlite3_reset(handle) }
        var binding = Binding(handle: handle)
        bind(&binding)
        if let failure = binding.failure { throw error(failure) }
        while true {
            let code = sqlite3_step(handle)
            switch code {
            case SQLITE_ROW: try read(Reading(handle: handle))
            case SQLITE_DONE: return
            default: throw error(code)
            }
        }
    }

    private func error(_ code: Int32) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
    }

    private mutating func statement(_ query: Query) throws -> Statement {
        if let statement = prepared[query] { return statement }
        let statement = try db.cachedStatement(sql: Self.sql(query))
        prepared[query] = statement
        return statement
    }

    /// The SQL of `query`, with its values in the order `put`, `link`, `lookUp` and `body` bind them.
    private static func sql(_ query: Query) -> String {
        let values = "modified = ?, etag = ?, expires = ?, must_revalidate = ?, accessed = ?, data = ?, compressed = ?"
        func key(_ tiles: Bool) -> RowKey { tiles ? .tile(template: "", pixelRatio: 1, z: 0, x: 0, y: 0) : .resource(url: "") }
        switch query {
        case .update(let tiles):
            return "UPDATE \(key(tiles).table) SET \(tiles ? "" : "kind = ?, ")\(values) WHERE \(key(tiles).condition)"
        case .insert(let tiles):
            let columns = (tiles ? "url_template, pixel_ratio, z, x, y" : "url, kind") + ", modified, etag, expires, must_revalidate, accessed, data, compressed"
            let count = columns.split(separator: ",").count
            return "INSERT INTO \(key(tiles).table) (\(columns)) VALUES (\(Array(repeating: "?", count: count).joined(separator: ", ")))"
        case .id(let tiles):
            return "SELECT id FROM \(key(tiles).table) WHERE \(key(tiles).condition)"
        case .link(let tiles):
            let link = key(tiles).regionTable
            return "INSERT OR IGNORE INTO \(link.table) (region_id, \(link.column)) VALUES (?, ?)"
        case .linkStored(let tiles):
            let link = key(tiles).regionTable
            return "INSERT OR IGNORE INTO \(link.table) (region_id, \(link.column)) SELECT ?, id FROM \(key(tiles).table) WHERE \(key(tiles).condition)"
        case .lookUp(let tiles, let revalidate):
            let (table, link) = (key(tiles).table, key(tiles).regionTable)
            return """
                SELECT id, LENGTH(data), \(revalidate ? "must_revalidate" : "0"), expires, compressed, \
                EXISTS (SELECT 1 FROM \(link.table) WHERE \(link.column) = \(table).id) FROM \(table) WHERE \(key(tiles).condition)
                """
        case .body(let tiles):
            return "SELECT data FROM \(key(tiles).table) WHERE id = ?"
        }
    }
}

/// The values bound to a statement's placeholders, in order; each copied by SQLite as it is bound.
private struct Binding {
    let handle: OpaquePointer
    private var index: Int32 = 0
    /// The first binding that failed (memory, or a value too large), to throw once bound.
    private(set) var failure: Int32?

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    mutating func bind(_ value: Int64?) {
        index += 1
        note(value.map { sqlite3_bind_int64(handle, index, $0) } ?? sqlite3_bind_null(handle, index))
    }

    mutating func bind(_ value: Int) {
        bind(Int64(value))
    }

    mutating func bind(_ value: Bool) {
        bind(Int64(value ? 1 : 0))
    }

    mutating func bind(_ value: String?) {
        index += 1
        guard var value else { return note(sqlite3_bind_null(handle, index)) }
        note(value.withUTF8 { text in
            // An empty string may have no storage, and a null pointer would bind NULL, not ''.
            guard let start = text.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, Binding.transient) }
            return start.withMemoryRebound(to: CChar.self, capacity: text.count) {
                sqlite3_bind_text64(handle, index, $0, UInt64(text.count), Binding.transient, UInt8(SQLITE_UTF8))
            }
        })
    }

    /// A blob, or NULL for nil; an empty body is a blob of no bytes, as MapLibre binds an empty string.
    /// One larger than SQLite takes is refused by it (`SQLITE_TOOBIG`), not cut.
    mutating func bind(blob value: [UInt8]?) {
        index += 1
        guard let value else { return note(sqlite3_bind_null(handle, index)) }
        note(value.withUnsafeBytes { bytes in
            bytes.isEmpty ? sqlite3_bind_zeroblob(handle, index, 0) : sqlite3_bind_blob64(handle, index, bytes.baseAddress, UInt64(bytes.count), Binding.transient)
        })
    }

    /// The key's values, as `RowKey.condition` names them.
    mutating func bind(_ key: RowKey) {
        switch key {
        case .resource(let url):
            bind(url)
        case .tile(let template, let ratio, let z, let x, let y):
            bind(template)
            bind(ratio)
            bind(z)
            bind(x)
            bind(y)
        }
    }

    /// A row's headers, time of use and body, in the order of `RowStatements`' `values`.
    mutating func bind(_ headers: StoredHeaders, accessed: Int64, _ body: StoredBody) {
        bind(headers.modified)
        bind(headers.etag)
        bind(headers.expires)
        bind(headers.mustRevalidate)
        bind(accessed)
        bind(blob: body.data)
        bind(body.compressed)
    }

    private mutating func note(_ code: Int32) {
        if code != SQLITE_OK && failure == nil { failure = code }
    }

    /// SQLite copies what is bound with this before the call returns.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}

/// The columns of the row a statement stands on.
private struct Reading {
    let handle: OpaquePointer

    /// An integer column (a real rounded toward zero, within Int64's range); nil for NULL, text or
    /// a blob.
    func integer(_ column: Int32) -> Int64? {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return sqlite3_column_int64(handle, column)
        case SQLITE_FLOAT:
            let real = sqlite3_column_double(handle, column)
            return real >= Double(Int64.min) && real < Double(Int64.max) ? Int64(real) : nil
        default:
            return nil
        }
    }

    /// A boolean column: a number, true unless zero; nil for NULL, text or a blob.
    func bool(_ column: Int32) -> Bool? {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: sqlite3_column_int64(handle, column) != 0
        case SQLITE_FLOAT: sqlite3_column_double(handle, column) != 0
        default: nil
        }
    }

    /// A blob column's bytes (a text column's, as GRDB reads text as data), valid until the
    /// statement moves on; nil for NULL or a number.
    func blob(_ column: Int32) -> UnsafeRawBufferPointer? {
        let type = sqlite3_column_type(handle, column)
        guard type == SQLITE_BLOB || type == SQLITE_TEXT else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return UnsafeRawBufferPointer(start: sqlite3_column_blob(handle, column), count: count)
    }
}
