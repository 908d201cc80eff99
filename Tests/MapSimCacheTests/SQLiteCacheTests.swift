import Foundation
import GRDB
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimCache

@Suite("SQLiteCache")
struct SQLiteCacheTests {
    private func tile(_ x: Int, template: String = "https://h/{z}/{x}/{y}.pbf") -> Resource {
        let id = CanonicalTileID(z: 12, x: x, y: 0)
        return Resource(url: "https://h/12/\(x)/0.pbf", kind: .tile, tileData: .init(urlTemplate: template, pixelRatio: 1, id: id))
    }

    private func response(_ bytes: Int, fill: UInt8 = 1) -> Response {
        var response = Response.success([UInt8](repeating: fill, count: bytes), source: .network)
        response.etag = "\"e\(fill)\""
        response.expires = HTTPDate(secondsSince1970: 2_000_000_000)
        response.modified = HTTPDate(secondsSince1970: 1_000)
        response.mustRevalidate = true
        return response
    }

    @Test func storesAndReturnsResourcesAndTiles() async throws {
        let fixture = try FixtureDirectory()
        let cache = try SQLiteCache(path: fixture.path + "/cache.db")
        let style = Resource(url: "https://h/style.json", kind: .style)
        #expect(await cache.load(style).error?.reason == .notFound)
        cache.store(style, response(10))
        cache.store(tile(1), response(20, fill: 2))
        cache.store(tile(2), Response(noContent: true, source: .network))
        let hit = await cache.load(style)
        #expect(hit.source == .cache && hit.data == [UInt8](repeating: 1, count: 10))
        #expect(hit.etag == "\"e1\"" && hit.mustRevalidate && hit.expires == HTTPDate(secondsSince1970: 2_000_000_000))
        #expect(hit.modified == HTTPDate(secondsSince1970: 1_000))
        #expect(await cache.load(tile(1)).data?.count == 20)
        #expect(await cache.load(tile(2)).noContent)
        // Tiles are keyed by template and coordinates, not by URL.
        #expect(await cache.load(tile(1, template: "https://other/{z}/{x}/{y}.pbf")).error?.reason == .notFound)
        let stats = try cache.statistics()
        #expect(stats.resources == 1 && stats.tiles == 2 && stats.dataBytes == 30 && stats.regions == 0 && stats.pinnedEntries == 0)
        // The pages in use hold the data and the schema: more than the data, and whole 4 KiB pages.
        #expect(stats.databaseBytes > stats.dataBytes && stats.databaseBytes % 4096 == 0)
    }

    @Test func errorsAreNeverStoredAndA304RefreshesOnlyTheExpiry() async throws {
        let fixture = try FixtureDirectory()
        let cache = try SQLiteCache(path: fixture.path + "/cache.db")
        let style = Resource(url: "https://h/style.json", kind: .style)
        cache.store(style, .failure(.server, "500", source: .network))
        cache.store(style, Response(notModified: true, source: .network))
        #expect(await cache.load(style).error?.reason == .notFound)
        cache.store(style, response(10))
        var notModified = Response(notModified: true, source: .network)
        notModified.expires = HTTPDate(secondsSince1970: 2_100_000_000)
        notModified.etag = "\"other\""
        cache.refresh(style, notModified)
        let refreshed = await cache.load(style)
        #expect(refreshed.expires == HTTPDate(secondsSince1970: 2_100_000_000))
        #expect(refreshed.etag == "\"e1\"" && refreshed.data?.count == 10)
    }

    @Test func evictsTheLeastRecentlyUsedFirstAndNeverPinnedEntries() async throws {
        let fixture = try FixtureDirectory()
        let cache = try SQLiteCache(path: fixture.path + "/cache.db", options: .init(maximumSize: 256 * 1024, evictionBatch: 4))
        let region = try cache.createRegion(definition: #"{"name": "pinned"}"#)
        cache.store(tile(0), response(30_000, fill: 9))
        try cache.pin(tile(0), to: region)
        for x in 1...40 {
            cache.store(tile(x), response(30_000, fill: UInt8(x)))
            if x > 1 { _ = await cache.load(tile(1)) }  // tile 1 stays in use
        }
        #expect(try cache.statistics().databaseBytes <= 256 * 1024)
        #expect(await cache.load(tile(0)).error == nil, "pinned")
        #expect(await cache.load(tile(1)).error == nil, "recently used")
        #expect(await cache.load(tile(40)).error == nil, "newest")
        #expect(await cache.load(tile(2)).error?.reason == .notFound, "oldest unused")
        let survivors = await (2...40).asyncFilter { await cache.load(tile($0)).error == nil }
        #expect(survivors == Array(survivors.first!...40), "eviction follows the order of use")
        #expect(try cache.statistics().pinnedEntries == 1)
    }

    @Test func invalidateAndClearSpareRegions() async throws {
        let fixture = try FixtureDirectory()
        let cache = try SQLiteCache(path: fixture.path + "/cache.db")
        let region = try cache.createRegion(definition: "{}")
        cache.store(tile(0), response(10))
        try cache.pin(tile(0), to: region)
        cache.store(tile(1), response(10))
        var fresh = response(10)
        fresh.mustRevalidate = false
        cache.store(tile(2), fresh)
        try cache.invalidate()
        let invalidated = await cache.load(tile(2))
        #expect(invalidated.mustRevalidate && invalidated.expires == HTTPDate(secondsSince1970: 0))
        #expect(await cache.load(tile(0)).expires == HTTPDate(secondsSince1970: 2_000_000_000))
        try cache.clear()
        #expect(await cache.load(tile(1)).error?.reason == .notFound)
        #expect(await cache.load(tile(0)).error == nil)
        try cache.deleteRegion(region)
        #expect(try cache.statistics().regions == 0 && cache.statistics().pinnedEntries == 0)
    }

    @Test(arguments: ["garbage", "SQLite format 3\u{0}" + String(repeating: "x", count: 200)])
    func setsACorruptFileAsideAndStartsANewCache(contents: String) async throws {
        let fixture = try FixtureDirectory()
        let path = try fixture.write("cache.db", contents)
        let cache = try SQLiteCache(path: path)
        #expect(cache.warnings.count == 1)
        #expect(cache.warnings.first?.contains("moved it to \(path).corrupt") == true)
        #expect(try String(contentsOfFile: path + ".corrupt", encoding: .utf8) == contents, "set aside, not deleted")
        cache.store(tile(1), response(5))
        #expect(await cache.load(tile(1)).data?.count == 5)
    }

    @Test func setsAForeignDatabaseAside() throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/cache.db"
        try DatabaseQueue(path: path).write { try $0.execute(sql: "CREATE TABLE invoices (id INTEGER)") }
        let cache = try SQLiteCache(path: path)
        #expect(cache.warnings.first?.contains("tables of another program") == true)
        #expect(FileManager.default.fileExists(atPath: path + ".corrupt"))
    }

    @Test func migratesAVersionOneCacheKeepingItsEntries() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/cache.db"
        try await DatabaseQueue(path: path).write { db in
            try CacheSchema.createVersion1(db)
            try db.execute(sql: "INSERT INTO resources (url, kind, etag, data, accessed) VALUES ('https://h/s.json', 'style', '\"old\"', x'7B7D', 1)")
        }
        let cache = try SQLiteCache(path: path)
        #expect(cache.warnings.isEmpty)
        let hit = await cache.load(Resource(url: "https://h/s.json", kind: .style))
        #expect(hit.data == Array("{}".utf8) && hit.etag == "\"old\"" && !hit.mustRevalidate)
        let version = try await cache.database.read { try Int.fetchOne($0, sql: "PRAGMA user_version") }
        #expect(version == CacheSchema.currentVersion)
        _ = try cache.createRegion(definition: "{}")
        #expect(try cache.lastContentCheck(manifestURL: "https://h/manifest.json") == nil)
        try cache.recordContentCheck(manifestURL: "https://h/manifest.json", at: HTTPDate(secondsSince1970: 1_767_225_600))
        #expect(try cache.lastContentCheck(manifestURL: "https://h/manifest.json") == HTTPDate(secondsSince1970: 1_767_225_600),
                "version 3 records content checks")
    }

    @Test func readOnlyCachesAnswerButNeverWrite() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/cache.db"
        let writer = try SQLiteCache(path: path)
        writer.store(tile(1), response(5))
        await writer.flush()
        let readOnly = try SQLiteCache(path: path, options: .init(readOnly: true))
        #expect(await readOnly.load(tile(1)).data?.count == 5)
        readOnly.store(tile(2), response(5))
        #expect(await readOnly.load(tile(2)).error?.reason == .notFound)
        #expect(throws: CacheError.self) { try readOnly.clear() }
        #expect(throws: CacheError(.cannotOpen, path: fixture.path + "/none.db", "there is no cache at \(fixture.path)/none.db")) { try SQLiteCache(path: fixture.path + "/none.db", options: .init(readOnly: true)) }
    }

    @Test func twoCachesOnOneFileLoseNothing() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/cache.db"
        let first = try SQLiteCache(path: path)
        let second = try SQLiteCache(path: path)
        await withTaskGroup(of: Void.self) { group in
            for (offset, cache) in [first, second].enumerated() {
                group.addTask {
                    for x in 0..<200 { cache.store(tile(offset * 1000 + x), response(100)) }
                    await cache.flush()
                }
            }
        }
        #expect(try first.statistics().tiles == 400)
        #expect(await second.load(tile(1199)).data?.count == 100)
    }

    @Test func writesAreQueuedAndALaterLookupSeesThem() async throws {
        let fixture = try FixtureDirectory()
        let cache = try SQLiteCache(path: fixture.path + "/cache.db")
        for x in 0..<50 { cache.store(tile(x), response(10 + x)) }
        // Lookups run on the same queue as the writes, after them: no flush is needed within one cache.
        #expect(await cache.load(tile(49)).data?.count == 59)
        #expect(try cache.statistics().tiles == 50)
        await cache.flush()
        let other = try SQLiteCache(path: fixture.path + "/cache.db")
        #expect(await other.load(tile(0)).data?.count == 10)
    }
}

extension Sequence {
    func asyncFilter(_ predicate: (Element) async -> Bool) async -> [Element] {
        var kept: [Element] = []
        for element in self where await predicate(element) { kept.append(element) }
        return kept
    }
}
