import Benchmark
import Foundation
import GRDBSQLite
import MapSim
import MapSimCache
import MapSimHTTP
import MapSimTesting

/// Cache and network figures: 10,000 tile puts and gets through `SQLiteCache`, next to the same
/// statements through SQLite's C API in the same run; HTTP loads with 20 in flight on loopback.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .peakMemoryResident], maxDuration: .seconds(20), maxIterations: 10)
    let tileCount = 10_000
    let payload = [UInt8](repeating: 7, count: 2_000)

    func tile(_ n: Int) -> Resource {
        let id = CanonicalTileID(z: 14, x: n % 16_384, y: n / 16_384)
        return Resource(url: "https://h/14/\(id.x)/\(id.y).pbf", kind: .tile,
                        tileData: .init(urlTemplate: "https://h/{z}/{x}/{y}.pbf", pixelRatio: 1, id: id))
    }

    Benchmark("SQLiteCache put 10k tiles") { benchmark in
        let folder = try FixtureDirectory()
        let cache = try SQLiteCache(path: folder.path + "/cache.db")
        let response = Response.success(payload, source: .network)
        benchmark.startMeasurement()
        for n in 0..<tileCount { cache.store(tile(n), response) }
        await cache.flush()
        benchmark.stopMeasurement()
    }

    Benchmark("SQLite C API put 10k tiles (same statements)") { benchmark in
        let folder = try FixtureDirectory()
        let raw = try RawSQLite(path: folder.path + "/raw.db")
        benchmark.startMeasurement()
        for n in 0..<tileCount { raw.put(n, payload) }
        benchmark.stopMeasurement()
    }

    Benchmark("SQLiteCache get 10k tiles") { benchmark in
        let folder = try FixtureDirectory()
        let cache = try SQLiteCache(path: folder.path + "/cache.db")
        let response = Response.success(payload, source: .network)
        for n in 0..<tileCount { cache.store(tile(n), response) }
        await cache.flush()
        benchmark.startMeasurement()
        for n in 0..<tileCount { blackHole(await cache.load(tile(n)).size) }
        benchmark.stopMeasurement()
    }

    Benchmark("SQLite C API get 10k tiles (same statements)") { benchmark in
        let folder = try FixtureDirectory()
        let raw = try RawSQLite(path: folder.path + "/raw.db")
        for n in 0..<tileCount { raw.put(n, payload) }
        benchmark.startMeasurement()
        for n in 0..<tileCount { blackHole(raw.get(n)) }
        benchmark.stopMeasurement()
    }

    Benchmark("HTTP 2000 tile loads, 20 in flight, loopback") { benchmark in
        let server = try await FixtureServer.start(serving: SampleStyle.folder)
        let loader = HTTPResourceLoader()
        let resource = Resource(url: server.baseURL + "/tiles/10/163/395.pbf", kind: .tile)
        benchmark.startMeasurement()
        await withTaskGroup(of: Int.self) { group in
            var started = 0
            for _ in 0..<20 {
                group.addTask { await loader.load(resource).size }
                started += 1
            }
            while let size = await group.next() {
                blackHole(size)
                if started < 2_000 {
                    group.addTask { await loader.load(resource).size }
                    started += 1
                }
            }
        }
        benchmark.stopMeasurement()
        try await loader.shutdown()
        await server.stop()
    }
}

/// The cache's put and get statements through SQLite's C API, with the same schema, a WAL journal
/// with `synchronous = NORMAL` (as GRDB sets for WAL) and one transaction per operation, for comparison.
final class RawSQLite {
    private var db: OpaquePointer?
    private var insert: OpaquePointer?
    private var select: OpaquePointer?
    private var touch: OpaquePointer?
    private var pragmas: [OpaquePointer?] = []
    private static let next = "(SELECT MAX(COALESCE((SELECT MAX(accessed) FROM resources), 0), COALESCE((SELECT MAX(accessed) FROM tiles), 0)) + 1)"

    init(path: String) throws {
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw CocoaError(.fileReadUnknown) }
        sqlite3_exec(db, """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            CREATE TABLE resources (url TEXT NOT NULL PRIMARY KEY, kind TEXT NOT NULL, expires INTEGER, modified INTEGER, etag TEXT,
                must_revalidate INTEGER NOT NULL DEFAULT 0, data BLOB, no_content INTEGER NOT NULL DEFAULT 0, accessed INTEGER NOT NULL);
            CREATE TABLE tiles (url_template TEXT NOT NULL, pixel_ratio REAL NOT NULL, z INTEGER NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL,
                expires INTEGER, modified INTEGER, etag TEXT, must_revalidate INTEGER NOT NULL DEFAULT 0, data BLOB,
                no_content INTEGER NOT NULL DEFAULT 0, accessed INTEGER NOT NULL, PRIMARY KEY (url_template, pixel_ratio, z, x, y));
            CREATE INDEX resources_accessed ON resources(accessed);
            CREATE INDEX tiles_accessed ON tiles(accessed);
            """, nil, nil, nil)
        sqlite3_prepare_v2(db, """
            INSERT OR REPLACE INTO tiles (url_template, pixel_ratio, z, x, y, expires, modified, etag, must_revalidate, data, no_content, accessed)
            VALUES (?, ?, ?, ?, ?, NULL, NULL, NULL, 0, ?, 0, \(Self.next))
            """, -1, &insert, nil)
        sqlite3_prepare_v2(db, "SELECT data, no_content, must_revalidate, expires, modified, etag FROM tiles WHERE url_template = ? AND pixel_ratio = ? AND z = ? AND x = ? AND y = ?", -1, &select, nil)
        sqlite3_prepare_v2(db, "UPDATE tiles SET accessed = \(Self.next) WHERE url_template = ? AND pixel_ratio = ? AND z = ? AND x = ? AND y = ?", -1, &touch, nil)
        for pragma in ["PRAGMA page_count", "PRAGMA freelist_count", "PRAGMA page_size"] {
            var statement: OpaquePointer?
            sqlite3_prepare_v2(db, pragma, -1, &statement, nil)
            pragmas.append(statement)
        }
    }

    private func bindKey(_ statement: OpaquePointer?, _ n: Int) {
        sqlite3_bind_text(statement, 1, "https://h/{z}/{x}/{y}.pbf", -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        sqlite3_bind_double(statement, 2, 1)
        sqlite3_bind_int64(statement, 3, 14)
        sqlite3_bind_int64(statement, 4, Int64(n % 16_384))
        sqlite3_bind_int64(statement, 5, Int64(n / 16_384))
    }

    func put(_ n: Int, _ data: [UInt8]) {
        sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
        bindKey(insert, n)
        data.withUnsafeBytes { _ = sqlite3_bind_blob(insert, 6, $0.baseAddress, Int32(data.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self)) }
        sqlite3_step(insert)
        sqlite3_reset(insert)
        for pragma in pragmas {
            sqlite3_step(pragma)
            sqlite3_reset(pragma)
        }
        sqlite3_exec(db, "COMMIT", nil, nil, nil)
    }

    func get(_ n: Int) -> Int {
        sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
        bindKey(select, n)
        var size = 0
        if sqlite3_step(select) == SQLITE_ROW { size = Int(sqlite3_column_bytes(select, 0)) }
        sqlite3_reset(select)
        bindKey(touch, n)
        sqlite3_step(touch)
        sqlite3_reset(touch)
        sqlite3_exec(db, "COMMIT", nil, nil, nil)
        return size
    }

    deinit {
        for statement in [insert, select, touch] + pragmas { sqlite3_finalize(statement) }
        sqlite3_close(db)
    }
}
