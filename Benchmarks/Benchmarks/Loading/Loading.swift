import Benchmark
import Foundation
import GRDBSQLite
import MapSim
import MapSimCache
import MapSimHTTP
import MapSimTesting
import CompressNIO
import NIOCore

/// Cache and network figures: 10,000 tile puts and gets through `OfflineDatabase` (MapLibre's
/// offline database: each body deflated, rows written in group commits, the time of use recorded),
/// next to the same rows through SQLite's C API in the same run (the same compression, statements
/// and schema, all puts in one transaction, the times of use in transactions of 256); HTTP loads
/// with 20 in flight on loopback. The tile is a real vector tile of the sample style.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .peakMemoryResident], maxDuration: .seconds(20), maxIterations: 10)
    let tileCount = 10_000
    let payload = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: SampleStyle.folder + "/tiles/10/163/395.pbf")))) ?? []

    // The requests are made before the clock starts: the C API side has none to make.
    let tiles = (0..<tileCount).map { n in
        Resource.tile(TileURLTemplate("https://h/{z}/{x}/{y}.pbf"), id: CanonicalTileID(z: 14, x: n % 16_384, y: n / 16_384), pixelRatio: 1)
    }

    Benchmark("OfflineDatabase put 10k tiles") { benchmark in
        let folder = try FixtureDirectory()
        let cache = try OfflineDatabase(path: folder.path + "/cache.db")
        let response = Response.success(payload, source: .network)
        benchmark.startMeasurement()
        for tile in tiles { cache.store(tile, response) }
        await cache.flush()
        benchmark.stopMeasurement()
    }

    Benchmark("SQLite C API put 10k tiles (same rows)") { benchmark in
        let folder = try FixtureDirectory()
        let raw = try RawSQLite(path: folder.path + "/raw.db")
        benchmark.startMeasurement()
        raw.put(count: tileCount, payload)
        benchmark.stopMeasurement()
    }

    Benchmark("OfflineDatabase get 10k tiles") { benchmark in
        let folder = try FixtureDirectory()
        let cache = try OfflineDatabase(path: folder.path + "/cache.db")
        let response = Response.success(payload, source: .network)
        for tile in tiles { cache.store(tile, response) }
        await cache.flush()
        benchmark.startMeasurement()
        for tile in tiles { blackHole(await cache.load(tile).size) }
        await cache.flush()
        benchmark.stopMeasurement()
    }

    Benchmark("SQLite C API get 10k tiles (same statements)") { benchmark in
        let folder = try FixtureDirectory()
        let raw = try RawSQLite(path: folder.path + "/raw.db")
        raw.put(count: tileCount, payload)
        benchmark.startMeasurement()
        blackHole(raw.get(count: tileCount))
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

/// The offline database's rows through SQLite's C API: MapLibre's schema, rollback journal and
/// incremental vacuum, each body deflated with the same zlib settings (one deflate stream, reset for
/// each body), the puts as MapLibre writes
/// them (an update, then an insert) in one transaction, the gets as a lookup and an inflate each,
/// with the times of use written in transactions of 256.
final class RawSQLite {
    private var db: OpaquePointer?
    private var update: OpaquePointer?
    private var insert: OpaquePointer?
    private var select: OpaquePointer?
    private var touch: OpaquePointer?
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(path: String) throws {
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw CocoaError(.fileReadUnknown) }
        sqlite3_exec(db, "PRAGMA auto_vacuum = INCREMENTAL; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;", nil, nil, nil)
        sqlite3_exec(db, """
            CREATE TABLE tiles (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, url_template TEXT NOT NULL, pixel_ratio INTEGER NOT NULL,
              z INTEGER NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL, expires INTEGER, modified INTEGER, etag TEXT, data BLOB,
              compressed INTEGER NOT NULL DEFAULT 0, accessed INTEGER NOT NULL, must_revalidate INTEGER NOT NULL DEFAULT 0,
              UNIQUE (url_template, pixel_ratio, z, x, y));
            CREATE INDEX tiles_accessed ON tiles (accessed);
            """, nil, nil, nil)
        let key = "WHERE url_template = ?8 AND pixel_ratio = ?9 AND z = ?10 AND x = ?11 AND y = ?12"
        sqlite3_prepare_v2(db, "UPDATE tiles SET modified = ?1, etag = ?2, expires = ?3, must_revalidate = ?4, accessed = ?5, data = ?6, compressed = ?7 \(key)",
                           -1, &update, nil)
        sqlite3_prepare_v2(db, """
            INSERT INTO tiles (modified, etag, expires, must_revalidate, accessed, data, compressed, url_template, pixel_ratio, z, x, y)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
            """, -1, &insert, nil)
        sqlite3_prepare_v2(db, "SELECT data, compressed, expires, modified, etag, must_revalidate FROM tiles WHERE url_template = ?1 AND pixel_ratio = ?2 AND z = ?3 AND x = ?4 AND y = ?5",
                           -1, &select, nil)
        sqlite3_prepare_v2(db, "UPDATE tiles SET accessed = ?1 WHERE url_template = ?2 AND pixel_ratio = ?3 AND z = ?4 AND x = ?5 AND y = ?6", -1, &touch, nil)
    }

    private func bindKey(_ statement: OpaquePointer?, _ n: Int, from index: Int32) {
        sqlite3_bind_text(statement, index, "https://h/{z}/{x}/{y}.pbf", -1, Self.transient)
        sqlite3_bind_int64(statement, index + 1, 1)
        sqlite3_bind_int64(statement, index + 2, 14)
        sqlite3_bind_int64(statement, index + 3, Int64(n % 16_384))
        sqlite3_bind_int64(statement, index + 4, Int64(n / 16_384))
    }

    func put(count: Int, _ body: [UInt8]) {
        guard let compressor = try? ZlibCompressor(algorithm: .zlib) else { return }
        sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
        for n in 0..<count {
            var input = ByteBuffer(bytes: body)
            var output = ByteBufferAllocator().buffer(capacity: compressor.maxSize(from: input))
            try? compressor.deflate(from: &input, to: &output, flush: .finish)
            try? compressor.reset()
            let deflated = Array(output.readableBytesView)
            let compressed = deflated.count < body.count
            let data = compressed ? deflated : body
            for statement in [update, insert] {
                sqlite3_bind_null(statement, 1)
                sqlite3_bind_null(statement, 2)
                sqlite3_bind_null(statement, 3)
                sqlite3_bind_int64(statement, 4, 0)
                sqlite3_bind_int64(statement, 5, 1_767_225_600)
                data.withUnsafeBytes { _ = sqlite3_bind_blob(statement, 6, $0.baseAddress, Int32(data.count), Self.transient) }
                sqlite3_bind_int64(statement, 7, compressed ? 1 : 0)
                bindKey(statement, n, from: 8)
                if statement == update {
                    sqlite3_step(statement)
                    sqlite3_reset(statement)
                    if sqlite3_changes(db) > 0 { break }
                } else {
                    sqlite3_step(statement)
                    sqlite3_reset(statement)
                }
            }
        }
        sqlite3_exec(db, "COMMIT", nil, nil, nil)
    }

    func get(count: Int) -> Int {
        var total = 0
        for n in 0..<count {
            bindKey(select, n, from: 1)
            if sqlite3_step(select) == SQLITE_ROW, let bytes = sqlite3_column_blob(select, 0) {
                var input = ByteBuffer(bytes: UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(select, 0))))
                if sqlite3_column_int(select, 1) == 1, let inflated = try? input.decompress(with: .zlib()) {
                    total += inflated.readableBytes
                }
            }
            sqlite3_reset(select)
            if n % 256 == 255 || n == count - 1 {
                sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
                for touched in (n - n % 256)...n {
                    sqlite3_bind_int64(touch, 1, 1_767_225_601)
                    bindKey(touch, touched, from: 2)
                    sqlite3_step(touch)
                    sqlite3_reset(touch)
                }
                sqlite3_exec(db, "COMMIT", nil, nil, nil)
            }
        }
        return total
    }

    deinit {
        for statement in [update, insert, select, touch] { sqlite3_finalize(statement) }
        sqlite3_close(db)
    }
}
