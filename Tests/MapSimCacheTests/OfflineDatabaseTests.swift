import CompressNIO
import Foundation
import GRDB
import NIOCore
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimCache
import MapSimJSON
@testable import MapSimStyle

@Suite("OfflineDatabase")
struct OfflineDatabaseTests {
    static func tile(_ x: Int, template: String = "https://h/{z}/{x}/{y}.pbf", ratio: Double = 1, scheme: StyleSource.Scheme = .xyz) -> Resource {
        .tile(TileURLTemplate(template, scheme: scheme), id: CanonicalTileID(z: 12, x: x, y: 5), pixelRatio: ratio)
    }

    static func response(_ bytes: Int, fill: UInt8 = 1) -> Response {
        var response = Response.success([UInt8](repeating: fill, count: bytes), source: .network)
        response.etag = "\"e\(fill)\""
        response.expires = HTTPDate(secondsSince1970: 2_000_000_000)
        response.modified = HTTPDate(secondsSince1970: 1_000)
        response.mustRevalidate = true
        return response
    }

    /// Bytes that do not compress.
    static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    private func raw(_ path: String) throws -> DatabaseQueue {
        try DatabaseQueue(path: path)
    }

    @Test func storesAndReturnsRowsAsMapLibreKeepsThem() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/cache.db"
        let cache = try OfflineDatabase(path: path)
        let style = Resource.style("https://h/style.json")
        #expect(await cache.load(style).error?.reason == .notFound)
        #expect(!FileManager.default.fileExists(atPath: path), "a lookup creates no file")
        cache.store(style, Self.response(1000))
        var sprite = Self.response(0)
        sprite.data = Self.noise(300, seed: 1)
        cache.store(Resource.spriteImage(base: "https://h/sprite", pixelRatio: 2), sprite)
        cache.store(Self.tile(1), Self.response(20, fill: 2))
        cache.store(Self.tile(2), Response(noContent: true, source: .network))
        var empty = Self.response(0)
        empty.data = []
        cache.store(Self.tile(3), empty)
        let hit = await cache.load(style)
        #expect(hit.source == .cache && hit.data == [UInt8](repeating: 1, count: 1000))
        #expect(hit.etag == "\"e1\"" && hit.mustRevalidate && hit.expires == HTTPDate(secondsSince1970: 2_000_000_000))
        #expect(hit.modified == HTTPDate(secondsSince1970: 1_000))
        #expect(await cache.load(Self.tile(1)).data?.count == 20)
        let noContent = await cache.load(Self.tile(2))
        #expect(noContent.noContent && noContent.data == nil && noContent.error == nil)
        let emptyBody = await cache.load(Self.tile(3))
        #expect(!emptyBody.noContent && emptyBody.data == [], "an empty body is not no content")
        await cache.flush()
        let rows = try raw(path).read { db in
            try Row.fetchAll(db, sql: "SELECT url, kind, compressed, LENGTH(data) AS size, expires, modified, etag, must_revalidate FROM resources ORDER BY id")
        }
        // A compressible body is stored deflated (zlib), one that does not shrink as it is.
        #expect(rows.map { $0["url"] as String } == ["https://h/style.json", "https://h/sprite@2x.png"])
        #expect(rows.map { $0["kind"] as Int } == [1, 5])
        #expect(rows.map { $0["compressed"] as Bool } == [true, false])
        #expect((rows[0]["size"] as Int) < 100 && rows[1]["size"] as Int == 300)
        #expect(rows[0]["expires"] as Int64 == 2_000_000_000 && rows[0]["modified"] as Int64 == 1_000 && rows[0]["must_revalidate"] as Bool)
        let stored = try await raw(path).read { db in try Data.fetchOne(db, sql: "SELECT data FROM resources WHERE id = 1") } ?? Data()
        #expect(stored.prefix(2) == Data([0x78, 0x9C]), "zlib, as MapLibre's util::compress")
        let tiles = try raw(path).read { db in
            try Row.fetchAll(db, sql: "SELECT z, x, y, pixel_ratio, data IS NULL AS empty, typeof(data) AS type FROM tiles ORDER BY x")
        }
        #expect(tiles.map { $0["empty"] as Bool } == [false, true, false], "no content is a NULL body")
        #expect(tiles.map { $0["type"] as String } == ["blob", "null", "blob"], "an empty body is a blob of no bytes, as MapLibre binds it")
        #expect(tiles.allSatisfy { $0["pixel_ratio"] as Int == 1 })
    }

    @Test func valuesOfAnotherTypeInAnyColumnAreReadNotTrappedOn() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/cache.db"
        let cache = try OfflineDatabase(path: path)
        let style = Resource.style("https://h/style.json")
        cache.store(style, Self.response(10))
        await cache.flush()
        _ = try cache.createRegion(try OfflineRegionDefinition(styleURL: "https://h/s.json", area: .bounds(.world), minZoom: 0, maxZoom: 1), metadata: nil)
        // What another program (or damage) may leave: SQLite keeps a value's own type in any column.
        try await raw(path).write { db in
            try db.execute(sql: "UPDATE resources SET compressed = 'yes', expires = 'soon', modified = X'FF', etag = X'FFFE', must_revalidate = 'no'")
            try db.execute(sql: "UPDATE regions SET definition = X'FF00', description = 'text'")
        }
        let reopened = try OfflineDatabase(path: path, options: .init(readOnly: true))
        let hit = await reopened.load(style)
        #expect(hit.expires == nil && hit.modified == nil && hit.etag == nil, "what does not convert is absent, not a trap")
        #expect(try reopened.regions().count == 1)
    }

    @Test func keysTilesAsMapLibreDoes() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/cache.db"
        let cache = try OfflineDatabase(path: path)
        // The pixel ratio is 2 only for a {ratio} template asked for above 1; the row is the URL's.
        cache.store(Self.tile(1, template: "https://h/{z}/{x}/{y}{ratio}.png", ratio: 2), Self.response(10))
        cache.store(Self.tile(2, template: "https://h/{z}/{x}/{y}.png", ratio: 2), Self.response(10))
        cache.store(Self.tile(3, template: "https://h/tms/{z}/{x}/{y}.png", scheme: .tms), Self.response(10))
        await cache.flush()
        let rows = try raw(path).read { db in try Row.fetchAll(db, sql: "SELECT x, y, pixel_ratio FROM tiles ORDER BY x") }
        #expect(rows.map { $0["pixel_ratio"] as Int } == [2, 1, 1])
        #expect(rows.map { $0["y"] as Int } == [5, 5, (1 << 12) - 1 - 5])
        // A template without {ratio} serves every screen from one row.
        #expect(await cache.load(Self.tile(2, template: "https://h/{z}/{x}/{y}.png", ratio: 1)).data?.count == 10)
        #expect(await cache.load(Self.tile(1, template: "https://h/{z}/{x}/{y}{ratio}.png", ratio: 1)).error?.reason == .notFound)
        #expect(await cache.load(Self.tile(3, template: "https://h/tms/{z}/{x}/{y}.png", scheme: .tms)).data?.count == 10)
    }

    @Test func aTemplateNamesItsRatioOnlyWithTheWholePlaceholder() {
        #expect(RowKey.namesRatio("https://h/{z}/{x}/{y}{ratio}.png"))
        #expect(RowKey.namesRatio("{ratio}") && RowKey.namesRatio("https://h/{{ratio}/{z}"))
        #expect(RowKey.namesRatio("https://hé/{z}/{ratio}"), "after a byte beyond ASCII")
        #expect(!RowKey.namesRatio("https://h/{z}/{x}/{y}.png") && !RowKey.namesRatio("https://h/{ratio") && !RowKey.namesRatio(""))
        #expect(!RowKey.namesRatio("https://h/{rat}io}/{r atio}"))
    }

    @Test func keysByteRangesAsMapLibreNativeDoes() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/cache.db"
        let cache = try OfflineDatabase(path: path)
        cache.store(Resource.archiveRange("https://h/a.pmtiles", 0...126), Self.response(127))
        cache.store(Resource.archiveRange("https://h/a.pmtiles?v=2", 127...246), Self.response(120))
        await cache.flush()
        let urls = try await raw(path).read { db in try String.fetchAll(db, sql: "SELECT url FROM resources ORDER BY id") }
        #expect(urls == ["https://h/a.pmtiles?_mlnRange=0-126", "https://h/a.pmtiles?v=2&_mlnRange=127-246"])
        #expect(await cache.load(Resource.archiveRange("https://h/a.pmtiles", 0...126)).data?.count == 127)
        #expect(await cache.load(Resource.archiveRange("https://h/a.pmtiles", 0...127)).error?.reason == .notFound, "another range is another row")
    }

    @Test func storesMapboxURLsInTheirCanonicalFormWithoutTokens() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/cache.db"
        let mapbox = MapboxURL(baseURL: "https://api.mapbox.com", accessToken: "pk.secret")
        let cache = try OfflineDatabase(path: path, options: .init(mapbox: mapbox))
        let resources = StyleResources(styleURL: mapbox.style("mapbox://styles/user/style"), mapbox: mapbox)
        let source = resources.metadata(of: StyleSource(id: "s", kind: .vector, url: "mapbox://mapbox.streets"))!
        let glyphs = Resource.glyphs(template: resources.glyphTemplate("mapbox://fonts/user/{fontstack}/{range}.pbf"), fontStack: ["Open Sans Regular"], rangeStart: 0)
        let sprite = resources.spriteJSON(SpriteSource(id: "default", url: "mapbox://sprites/user/style"), pixelRatio: 2)
        let template = resources.tileTemplate(TileJSON(tiles: ["mapbox://tiles/mapbox.streets/{z}/{x}/{y}.vector.pbf"]), base: source.url)!
        for resource in [resources.style, source, glyphs, sprite, Resource.tile(template, id: CanonicalTileID(z: 1, x: 0, y: 1), pixelRatio: 1)] {
            #expect(resource.url.contains("access_token=pk.secret"), "requests carry the token: \(resource.url)")
            cache.store(resource, Self.response(10))
        }
        await cache.flush()
        let urls = try await raw(path).read { db in try String.fetchAll(db, sql: "SELECT url FROM resources ORDER BY id") }
        #expect(urls == ["mapbox://styles/user/style", "mapbox://mapbox.streets", "mapbox://fonts/user/Open%20Sans%20Regular/0-255.pbf",
                         "mapbox://sprites/user/style@2x.json"])
        #expect(try await raw(path).read { db in try String.fetchAll(db, sql: "SELECT url_template FROM tiles") } == ["mapbox://tiles/mapbox.streets/{z}/{x}/{y}.vector.pbf"])
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(file.range(of: Data("pk.secret".utf8)) == nil, "the access token is never written")
        #expect(await cache.load(resources.style).data?.count == 10)
    }

    @Test func theSchemaIsMapLibreNativesTableByTableAndColumnByColumn() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/cache.db"
        let cache = try OfflineDatabase(path: path)
        cache.store(Self.tile(1), Self.response(10))
        await cache.flush()
        let mapLibre = try DatabaseQueue(path: SampleStyle.stylesFolder + "/offline/mln-ambient.db", configuration: {
            var configuration = Configuration()
            configuration.readonly = true
            return configuration
        }())
        func schema(_ database: DatabaseQueue) throws -> [String: [String]] {
            try database.read { db in
                var tables: [String: [String]] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name") {
                    let name: String = row["name"]
                    var description = [row["sql"] as String? ?? ""]
                    if row["type"] as String == "table" {
                        description += try Row.fetchAll(db, sql: "PRAGMA table_info(\(name))").map { column in
                            "\(column["name"] as String) \(column["type"] as String) notnull=\(column["notnull"] as Int) default=\(column["dflt_value"] as String? ?? "-") pk=\(column["pk"] as Int)"
                        }
                    }
                    tables[name] = description
                }
                return tables
            }
        }
        let ours = try schema(try raw(path))
        let theirs = try schema(mapLibre)
        #expect(Set(ours.keys) == Set(theirs.keys))
        for (name, description) in theirs { #expect(ours[name] == description, "\(name)") }
        let pragmas = try await raw(path).read { db in
            (try Int.fetchOne(db, sql: "PRAGMA user_version"), try Int.fetchOne(db, sql: "PRAGMA auto_vacuum"), try String.fetchOne(db, sql: "PRAGMA journal_mode"))
        }
        #expect(pragmas.0 == 6 && pragmas.1 == 2 && pragmas.2 == "delete")
    }

    /// A new file takes its auto-vacuum mode in the transaction that makes its tables, so making a
    /// cache and a region in it is two transactions: the header's change counter, which SQLite
    /// adds one to at each commit in rollback-journal mode, says how many (three before, when the
    /// mode was a transaction of its own).
    @Test func aNewCacheIsMadeInOneTransactionWithIncrementalAutoVacuum() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/new.db"
        let cache = try OfflineDatabase(path: path)
        _ = try cache.createRegion(try OfflineRegionDefinition(styleURL: "https://h/s.json", area: .bounds(.world), minZoom: 0, maxZoom: 1), metadata: nil)
        let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(100))
        let changes = header[24..<28].reduce(0) { $0 << 8 | Int($1) }
        #expect(changes == 2)
        let pragmas = try await raw(path).read { db in (try Int.fetchOne(db, sql: "PRAGMA auto_vacuum"), try Int.fetchOne(db, sql: "PRAGMA user_version")) }
        #expect(pragmas.0 == 2 && pragmas.1 == 6)
    }

    @Test func loadsADatabaseMapLibreNativeWrote() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/app.db"
        try FileManager.default.copyItem(atPath: SampleStyle.stylesFolder + "/offline/mln-ambient.db", toPath: path)
        let record = try JSONParser.parse(try InputFile.read(SampleStyle.stylesFolder + "/offline/mln-ambient.json", limit: 1 << 20))
        let styleURL = record["style"]?.stringValue ?? ""
        let cache = try OfflineDatabase(path: path)
        #expect(cache.warnings.isEmpty, "\(cache.warnings)")
        let network = StubLoader()
        // MapLibre Native wrote the database rendering a still image (pymgl), which prefetches no lower zoom.
        let map = Map(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), cache: cache, network: network), options: Map.Options(mode: .still))
        let recorder = EventRecorder(map)
        await map.setOffline(true)
        await map.setCamera(CameraOptions(center: LngLat(longitude: -122.4, latitude: 37.8), zoom: 10))
        await map.setStyleURI(styleURL)
        let outcome = await map.run(until: .mapIdle, timeout: .seconds(30))
        guard case .reached = outcome else {
            Issue.record("\(outcome)")
            return
        }
        let requests = recorder.events.compactMap { if case .resourceRequest(let request) = $0.payload { request } else { nil } }
        #expect(!requests.isEmpty && requests.allSatisfy { $0.response?.source == .cache && $0.response?.error == nil }, "\(requests)")
        #expect(!recorder.events.contains { $0.type == .mapLoadingError })
        let tables = try await raw(path).read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'mapsim%'") }
        #expect(tables.isEmpty, "an app's database used as a cache gets no tables of mapsim's")
    }

    @Test func readsRowsBuiltIndependentlyToMapLibresSchema() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/independent.db"
        let body = Array(String(repeating: "{\"hello\": \"world\"}", count: 20).utf8)
        var input = ByteBuffer(bytes: body)
        let zlib = Array(try input.compress(with: .zlib()).readableBytesView)
        input = ByteBuffer(bytes: body)
        let gzip = Array(try input.compress(with: .gzip()).readableBytesView)
        try await raw(path).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
            try db.execute(sql: OfflineSchema.mapLibreTables)
            try db.execute(sql: "PRAGMA user_version = 6")
            try db.execute(sql: "INSERT INTO resources (url, kind, data, compressed, accessed) VALUES ('https://h/a.json', 2, ?, 1, 1)", arguments: [Data(zlib)])
            try db.execute(sql: "INSERT INTO resources (url, kind, data, compressed, accessed) VALUES ('https://h/b.json', 2, ?, 1, 1)", arguments: [Data(gzip)])
            try db.execute(sql: "INSERT INTO resources (url, kind, data, compressed, accessed) VALUES ('https://h/c.json', 2, ?, 0, 1)", arguments: [Data(body)])
            try db.execute(sql: "INSERT INTO tiles (url_template, pixel_ratio, z, x, y, data, compressed, accessed) VALUES ('https://h/{z}/{x}/{y}.pbf', 1, 12, 1, 5, NULL, 0, 1)")
            try db.execute(sql: "INSERT INTO regions (definition, description) VALUES (?, x'00ff')",
                           arguments: [#"{"style_url":"https://h/style.json","min_zoom":0.0,"max_zoom":2.0,"pixel_ratio":1.0,"bounds":[-10.0,-10.0,10.0,10.0]}"#])
            try db.execute(sql: "INSERT INTO region_resources (region_id, resource_id) VALUES (1, 1)")
        }
        let cache = try OfflineDatabase(path: path)
        for name in ["a", "b", "c"] { #expect(await cache.load(.source("https://h/\(name).json")).data == body, "\(name)") }
        #expect(await cache.load(Self.tile(1)).noContent)
        let region = try #require(try cache.regions().first)
        #expect(region.metadata == [0x00, 0xFF] && region.metadataText == nil)
        let definition = try region.definition.get()
        #expect(definition.includeIdeographs, "MapLibre reads a missing include_ideographs as true")
        #expect(definition.area == .bounds(LngLatBounds(west: -10, south: -10, east: 10, north: 10)))
        // A body marked compressed that does not inflate is a damaged row, named.
        try await raw(path).write { db in try db.execute(sql: "UPDATE resources SET data = x'78deadbeef' WHERE url = 'https://h/a.json'") }
        let damaged = await cache.load(.source("https://h/a.json"))
        #expect(damaged.error?.message.contains("https://h/a.json") == true && damaged.error?.message.contains("does not inflate") == true)
    }

    @Test func a304RefreshesExpiryRevalidationAndUseOnly() async throws {
        let fixture = try FixtureDirectory()
        let cache = try OfflineDatabase(path: fixture.path + "/cache.db")
        let style = Resource.style("https://h/style.json")
        cache.store(style, .failure(.server, "500", source: .network))
        cache.store(style, Response(notModified: true, source: .network))
        #expect(await cache.load(style).error?.reason == .notFound, "errors and 304s are never stored")
        cache.store(style, Self.response(10))
        var notModified = Response(notModified: true, source: .network)
        notModified.expires = HTTPDate(secondsSince1970: 2_100_000_000)
        notModified.etag = "\"other\""
        cache.refresh(style, notModified)
        let refreshed = await cache.load(style)
        #expect(refreshed.expires == HTTPDate(secondsSince1970: 2_100_000_000) && !refreshed.mustRevalidate)
        #expect(refreshed.etag == "\"e1\"" && refreshed.data?.count == 10)
    }

    @Test func theBytesOfQueuedRegionWritesAreCountedUntilTheyAreCommitted() async throws {
        // A download waits for the database once the bodies waiting for it pass a cap in bytes.
        let put = PendingWrite.put(RowKey.resource(url: "https://h/a"), kind: 3, StoredBody(data: Array(repeating: 1, count: 1_500), compressed: false),
                                   headers: StoredHeaders(mustRevalidate: false), accessed: 0, region: 1)
        #expect(put.byteCount == 1_500 && PendingWrite.link(RowKey.resource(url: "https://h/a"), region: 1).byteCount == 0)
        let fixture = try FixtureDirectory()
        let cache = try OfflineDatabase(path: fixture.path + "/cache.db")
        let region = try cache.createRegion(try OfflineRegionDefinition(styleURL: "https://h/s.json", area: .bounds(.world), minZoom: 0, maxZoom: 1), metadata: nil)
        for x in 0..<4 {
            cache.queueRegionWrite(Self.tile(x), region: region.id, response: Self.response(10_000), body: StoredBody(data: Self.noise(10_000, seed: UInt64(x)), compressed: false), accessed: 0)
        }
        #expect(cache.pendingWriteBytes <= 40_000 && cache.pendingWriteBytes % 10_000 == 0)
        await cache.flush()
        #expect(cache.pendingWriteBytes == 0 && cache.pendingWrites == 0)
        #expect(await cache.load(Self.tile(3)).data?.count == 10_000)
    }

    /// What an export reads: one row a tile of the template asked for — the highest pixel ratio's —
    /// by zoom, column and row, then their data many rows to a read, inflated, with the stream each
    /// compressed row was stored as.
    @Test func aRegionsTilesAreReadForExportOneATileInOrder() async throws {
        let fixture = try FixtureDirectory()
        let cache = try OfflineDatabase(path: fixture.path + "/cache.db")
        let region = try cache.createRegion(try OfflineRegionDefinition(styleURL: "https://h/s.json", area: .bounds(.world), minZoom: 0, maxZoom: 1), metadata: nil)
        func store(_ resource: Resource, _ response: Response) {
            cache.queueRegionWrite(resource, region: region.id, response: response, body: RowCompression.pack(response.data ?? []), accessed: 0)
        }
        for x in (0..<600).reversed() { store(Self.tile(x), Self.response(1_000, fill: UInt8(x % 200))) }
        for x in 0..<3 { store(Self.tile(x, ratio: 2), Self.response(1_000, fill: 250)) }
        store(Self.tile(7, template: "https://other/{z}/{x}/{y}.pbf"), Self.response(10))
        store(Self.tile(8), Response.success(Self.noise(500, seed: 8), source: .network))
        await cache.flush()

        #expect(try cache.regionTileTemplates(region.id) == ["https://h/{z}/{x}/{y}.pbf", "https://other/{z}/{x}/{y}.pbf"])
        let tiles = try cache.regionTiles(region.id, template: "https://h/{z}/{x}/{y}.pbf")
        #expect(tiles.map(\.x) == Array(0..<600) && tiles.allSatisfy { $0.z == 12 && $0.y == 5 })
        let data = try cache.tileData(rows: tiles.map(\.rowID))
        #expect(data.count == 600)
        for (x, tile) in data.enumerated() {
            let tile = try #require(tile, "tile \(x)")
            if x == 8 {
                #expect(tile.body == Self.noise(500, seed: 8) && tile.stream == nil, "stored as it is: noise does not shrink")
                continue
            }
            #expect(tile.body == [UInt8](repeating: x < 3 ? 250 : UInt8(x % 200), count: 1_000), "tile \(x): the highest pixel ratio's")
            #expect(try ZlibCodec.inflate(try #require(tile.stream, "tile \(x)")) == tile.body)
        }
        #expect(try cache.tileData(rows: [tiles[5].rowID, 999_999, tiles[4].rowID]).map { $0?.body.first } == [5, nil, 4])
    }

    @Test func evictsTheLeastRecentlyUsedAmbientRowsAndNeverARegionsOrAContentSets() async throws {
        let fixture = try FixtureDirectory()
        let cache = try OfflineDatabase(path: fixture.path + "/cache.db", options: .init(maximumAmbientCacheSize: 200_000))
        let region = try cache.createRegion(try OfflineRegionDefinition(styleURL: "https://h/s.json", area: .bounds(.world), minZoom: 0, maxZoom: 1), metadata: nil)
        func store(_ x: Int, at second: Int64) {
            var resource = Self.tile(x)
            resource.issued = HTTPDate(secondsSince1970: second)
            var response = Self.response(0)
            response.data = Self.noise(30_000, seed: UInt64(x))
            cache.store(resource, response)
        }
        store(0, at: 100)
        cache.queueRegionWrite(Self.tile(0), region: region.id, response: nil, body: StoredBody(data: nil, compressed: false), accessed: 0)
        store(100, at: 100)
        await cache.flush()
        try await cache.pinContentSet("site@1", resources: [Self.tile(100)], replacing: "site@")
        for x in 1...20 {
            store(x, at: 1_000 + Int64(x))
            if x > 1 {
                var used = Self.tile(1)
                used.issued = HTTPDate(secondsSince1970: 1_000 + Int64(x))
                _ = await cache.load(used)  // tile 1 stays in use
            }
        }
        await cache.flush()
        let stats = try cache.statistics()
        #expect(stats.ambientBytes <= 200_000 && stats.ambientBytes > 100_000, "\(stats)")
        #expect(await cache.load(Self.tile(0)).error == nil, "held by a region")
        #expect(await cache.load(Self.tile(100)).error == nil, "held by a content set")
        #expect(await cache.load(Self.tile(1)).error == nil, "recently used")
        #expect(await cache.load(Self.tile(20)).error == nil, "newest")
        #expect(await cache.load(Self.tile(2)).error?.reason == .notFound, "oldest unused")
        var survivors: [Int] = []
        for x in 2...20 where await cache.load(Self.tile(x)).error == nil { survivors.append(x) }
        #expect(survivors == Array(survivors.first!...20), "eviction follows the order of use")
        #expect(stats.regionRows == 2)
    }

    @Test func clearInvalidateResetAndPackAsMapLibreExposesThem() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/cache.db"
        let cache = try OfflineDatabase(path: path)
        let region = try cache.createRegion(try OfflineRegionDefinition(styleURL: "https://h/s.json", area: .bounds(.world), minZoom: 0, maxZoom: 1), metadata: nil)
        cache.store(Self.tile(0), Self.response(10))
        cache.store(Self.tile(1), Self.response(10))
        var fresh = Self.response(10)
        fresh.mustRevalidate = false
        cache.store(Self.tile(2), fresh)
        cache.queueRegionWrite(Self.tile(0), region: region.id, response: nil, body: StoredBody(data: nil, compressed: false), accessed: 0)
        await cache.flush()
        try await cache.invalidateAmbientCache()
        let invalidated = await cache.load(Self.tile(2))
        #expect(invalidated.mustRevalidate && invalidated.expires == HTTPDate(secondsSince1970: 0))
        #expect(await cache.load(Self.tile(0)).expires == HTTPDate(secondsSince1970: 2_000_000_000), "regions are spared")
        try await cache.clearAmbientCache()
        #expect(await cache.load(Self.tile(1)).error?.reason == .notFound)
        #expect(await cache.load(Self.tile(0)).error == nil)
        for x in 10..<200 { cache.store(Self.tile(x), Self.response(3_000, fill: UInt8(x % 200))) }
        await cache.flush()
        try await cache.clearAmbientCache()
        let (before, after) = try cache.vacuum(full: true)
        #expect(after <= before)
        try await cache.reset()
        let stats = try cache.statistics()
        #expect(stats.regions == 0 && stats.tiles == 0 && stats.resources == 0)
        #expect(try await raw(path).read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == 6)
        cache.store(Self.tile(1), Self.response(10))
        #expect(await cache.load(Self.tile(1)).data?.count == 10, "usable after a reset")
    }

    /// A cache of ours whose first page SQLite can no longer read: its b-tree header scribbled over,
    /// the schema's text still there.
    private static func damagedCache(at path: String) async throws {
        let writer = try OfflineDatabase(path: path)
        writer.store(Self.tile(1), Self.response(5))
        await writer.flush()
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: Data([0xFF, 0xFF, 0xFF, 0xFF]))
        try handle.close()
    }

    @Test func setsADamagedCacheOfItsOwnAsideAndStartsANewCache() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/cache.db"
        try await Self.damagedCache(at: path)
        let damaged = try Data(contentsOf: URL(fileURLWithPath: path))
        let cache = try OfflineDatabase(path: path)
        #expect(cache.warnings.count == 1)
        #expect(cache.warnings.first?.contains("is damaged") == true && cache.warnings.first?.contains("moved it to \(path).corrupt") == true, "\(cache.warnings)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".corrupt")) == damaged, "set aside, not deleted")
        cache.store(Self.tile(1), Self.response(5))
        #expect(await cache.load(Self.tile(1)).data?.count == 5)
    }

    @Test(arguments: ["garbage", "SQLite format 3\u{0}" + String(repeating: "x", count: 200), #"{"version": 8, "sources": {}, "layers": []}"#])
    func aFileThatIsNotACacheOfOursIsRefusedAndLeftAsItIs(contents: String) async throws {
        let fixture = try FixtureDirectory()
        let path = try fixture.write("style.json", contents)
        #expect { _ = try OfflineDatabase(path: path) } throws: { error in
            (error as? CacheError)?.code == .foreign && "\(error)".contains("is not a cache") && "\(error)".contains("left as it is")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == contents, "untouched")
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.path) == ["style.json"], "nothing moved aside, nothing made")
    }

    @Test func aDamagedCacheIsReadByNoCommandThatOnlyReads() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/cache.db"
        try await Self.damagedCache(at: path)
        #expect { _ = try OfflineDatabase(path: path, options: .init(readOnly: true)) } throws: { error in
            (error as? CacheError)?.code == .cannotOpen && "\(error)".contains("is damaged") && "\(error)".contains("nothing was changed")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.path) == ["cache.db"])
    }

    @Test func damageFoundOnALaterReadSetsTheFileAsideAndTheRunGoesOn() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/cache.db"
        let writer = try OfflineDatabase(path: path)
        for x in 0..<300 {
            var response = Self.response(0)
            response.data = Self.noise(2_000, seed: UInt64(x))
            writer.store(Self.tile(x), response)
        }
        await writer.flush()
        let cache = try OfflineDatabase(path: path)
        // Scribble over every page after the first two (the header and the schema stay readable).
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 4096 * 2)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: size - 4096 * 2))
        try handle.close()
        let damaged = await cache.load(Self.tile(250))
        #expect(damaged.error != nil)
        #expect(damaged.error?.message.contains("is damaged") == true, "\(damaged.error?.message ?? "")")
        #expect(FileManager.default.fileExists(atPath: path + ".corrupt"))
        #expect(cache.problems.contains { $0.contains("moved it to \(path).corrupt") }, "\(cache.problems)")
        // The run goes on with a new, empty cache in its place.
        #expect(await cache.load(Self.tile(3)).error?.reason == .notFound)
        cache.store(Self.tile(1), Self.response(5))
        #expect(await cache.load(Self.tile(1)).data?.count == 5)
        await cache.flush()
        #expect(try OfflineDatabase(path: path).warnings.isEmpty)
    }

    @Test func aDamagedFileBehindALinkIsSetAsideAtItsTarget() async throws {
        let fixture = try FixtureDirectory()
        let target = try fixture.write("real/cache.db", "")
        try await Self.damagedCache(at: target)
        try FileManager.default.createSymbolicLink(atPath: fixture.path + "/link.db", withDestinationPath: target)
        let cache = try OfflineDatabase(path: fixture.path + "/link.db")
        #expect(cache.warnings.first?.contains("\(target).corrupt") == true, "\(cache.warnings)")
        #expect(FileManager.default.fileExists(atPath: target + ".corrupt"))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: fixture.path + "/link.db")) == target, "the link stays a link")
    }

    @Test func refusesANewerVersionAndAnotherProgramsTablesAndWritesNothing() async throws {
        let fixture = try FixtureDirectory()
        let newer = fixture.path + "/newer.db"
        try await raw(newer).writeWithoutTransaction { db in
            try db.execute(sql: OfflineSchema.mapLibreTables)
            try db.execute(sql: "PRAGMA user_version = 7")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: newer))
        #expect {
            _ = try OfflineDatabase(path: newer)
        } throws: { error in
            guard let error = error as? CacheError else { return false }
            return error.code == .newerVersion && error.message.contains("schema version 7") && error.message.contains("versions up to 6")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: newer)) == before)
        let foreign = fixture.path + "/foreign.db"
        try await raw(foreign).write { try $0.execute(sql: "CREATE TABLE invoices (id INTEGER)") }
        #expect(throws: CacheError.self) { _ = try OfflineDatabase(path: foreign) }
        #expect(!FileManager.default.fileExists(atPath: foreign + ".corrupt"), "another program's database is never set aside")
    }

    /// MapLibre's version 5: version 6 without the must_revalidate columns.
    private func makeVersion5(_ path: String) async throws {
        let schema = OfflineSchema.mapLibreTables.replacingOccurrences(of: "  must_revalidate INTEGER NOT NULL DEFAULT 0,\n", with: "")
        #expect(!schema.contains("must_revalidate"))
        try await raw(path).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
            try db.execute(sql: schema)
            try db.execute(sql: "PRAGMA user_version = 5")
            try db.execute(sql: "INSERT INTO resources (url, kind, data, compressed, accessed, expires) VALUES ('https://h/s.json', 1, x'7B7D', 0, 1, 5)")
        }
    }

    @Test func migratesMapLibresVersion5AsMapLibreDoes() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/v5.db"
        try await makeVersion5(path)
        let cache = try OfflineDatabase(path: path)
        #expect(cache.warnings.isEmpty, "\(cache.warnings)")
        let hit = await cache.load(.style("https://h/s.json"))
        #expect(hit.data == Array("{}".utf8) && !hit.mustRevalidate)
        let (version, columns) = try await raw(path).read { db in
            (try Int.fetchOne(db, sql: "PRAGMA user_version"), try Row.fetchAll(db, sql: "PRAGMA table_info(tiles)").map { $0["name"] as String })
        }
        #expect(version == 6 && columns.last == "must_revalidate")
    }

    @Test func readsAnOlderVersionItCannotWriteAsItIsWithOneWarning() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/v5.db"
        try await makeVersion5(path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let cache = try OfflineDatabase(path: path, options: .init(readOnly: true))
        #expect(cache.warnings.count == 1 && cache.warnings[0].contains("version 5") && cache.warnings[0].contains("read as it is"), "\(cache.warnings)")
        #expect(await cache.load(.style("https://h/s.json")).data == Array("{}".utf8))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func replacesMapLibresFirstCacheTableAsMapLibreDoes() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/v1.db"
        try await raw(path).write { try $0.execute(sql: "CREATE TABLE http_cache (url TEXT NOT NULL PRIMARY KEY, data BLOB)") }
        let cache = try OfflineDatabase(path: path)
        #expect(cache.warnings.first?.contains("http_cache") == true)
        cache.store(Self.tile(1), Self.response(4))
        #expect(await cache.load(Self.tile(1)).data?.count == 4)
    }

    @Test func migratesMapsimsEarlierCacheOnceKeepingRowsRegionsAndContent() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/legacy.db"
        try await raw(path).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: """
                CREATE TABLE resources (
                    url TEXT NOT NULL PRIMARY KEY, kind TEXT NOT NULL, expires INTEGER, modified INTEGER, etag TEXT,
                    must_revalidate INTEGER NOT NULL DEFAULT 0, data BLOB, no_content INTEGER NOT NULL DEFAULT 0, accessed INTEGER NOT NULL);
                CREATE TABLE tiles (
                    url_template TEXT NOT NULL, pixel_ratio REAL NOT NULL, z INTEGER NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL,
                    expires INTEGER, modified INTEGER, etag TEXT, must_revalidate INTEGER NOT NULL DEFAULT 0, data BLOB,
                    no_content INTEGER NOT NULL DEFAULT 0, accessed INTEGER NOT NULL, PRIMARY KEY (url_template, pixel_ratio, z, x, y));
                CREATE INDEX resources_accessed ON resources(accessed);
                CREATE INDEX tiles_accessed ON tiles(accessed);
                CREATE TABLE regions (id INTEGER PRIMARY KEY AUTOINCREMENT, definition TEXT NOT NULL);
                CREATE TABLE region_resources (region_id INTEGER NOT NULL REFERENCES regions(id) ON DELETE CASCADE, url TEXT NOT NULL,
                    PRIMARY KEY (region_id, url));
                CREATE TABLE region_tiles (region_id INTEGER NOT NULL REFERENCES regions(id) ON DELETE CASCADE,
                    url_template TEXT NOT NULL, pixel_ratio REAL NOT NULL, z INTEGER NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL,
                    PRIMARY KEY (region_id, url_template, pixel_ratio, z, x, y));
                CREATE TABLE content_checks (manifest_url TEXT NOT NULL PRIMARY KEY, checked_at INTEGER NOT NULL);
                PRAGMA user_version = 3;
                INSERT INTO resources VALUES ('https://h/style.json', 'style', 10, 20, '"e"', 1, x'7B7D', 0, 3);
                INSERT INTO resources VALUES ('https://h/empty', 'sprite-image', NULL, NULL, NULL, 0, NULL, 1, 4);
                INSERT INTO tiles VALUES ('https://h/{z}/{x}/{y}.pbf', 1.0, 12, 1, 5, NULL, NULL, NULL, 0, x'01', 0, 5);
                INSERT INTO tiles VALUES ('https://h/{z}/{x}/{y}.pbf', 2.0, 12, 1, 5, NULL, NULL, NULL, 0, x'01', 0, 6);
                INSERT INTO regions VALUES (4, '{"style":"https://h/style.json","bounds":[-1,-2,3,4],"minzoom":0,"maxzoom":12,"pixelRatio":1}');
                INSERT INTO regions VALUES (5, 'content:site@2');
                INSERT INTO region_resources VALUES (4, 'https://h/style.json');
                INSERT INTO region_tiles VALUES (4, 'https://h/{z}/{x}/{y}.pbf', 2.0, 12, 1, 5);
                INSERT INTO region_resources VALUES (5, 'https://h/empty');
                INSERT INTO content_checks VALUES ('https://h/manifest.json', 1767225600);
                """)
        }
        let cache = try OfflineDatabase(path: path)
        #expect(cache.warnings.count == 1 && cache.warnings[0].contains("migrated") && cache.warnings[0].contains("once"), "\(cache.warnings)")
        let style = await cache.load(.style("https://h/style.json"))
        #expect(style.data == Array("{}".utf8) && style.etag == "\"e\"" && style.mustRevalidate)
        #expect(await cache.load(.spriteImage(base: "https://h/empty", pixelRatio: 1)).noContent == false, "other URL")
        #expect(await cache.load(Self.tile(1, ratio: 2)).data == [1])
        let regions = try cache.regions()
        #expect(regions.map(\.id) == [4])
        let definition = try regions[0].definition.get()
        #expect(definition.area == .bounds(LngLatBounds(west: -1, south: -2, east: 3, north: 4)) && definition.maxZoom == 12)
        #expect(try cache.completedStatus(of: 4).completedResourceCount == 2)
        #expect(try cache.contentSets() == ["site@2"])
        #expect(try cache.lastContentCheck(manifestURL: "https://h/manifest.json") == HTTPDate(secondsSince1970: 1_767_225_600))
        let (kinds, journal) = try await raw(path).read { db in
            (try Int.fetchAll(db, sql: "SELECT kind FROM resources ORDER BY url"), try String.fetchOne(db, sql: "PRAGMA journal_mode"))
        }
        #expect(kinds == [5, 1] && journal == "delete")
        #expect(try OfflineDatabase(path: path).warnings.isEmpty, "migrated once")
    }

    @Test func readOnlyDatabasesAnswerButNeverWrite() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/cache.db"
        let writer = try OfflineDatabase(path: path)
        writer.store(Self.tile(1), Self.response(5))
        await writer.flush()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let readOnly = try OfflineDatabase(path: path, options: .init(readOnly: true))
        #expect(await readOnly.load(Self.tile(1)).data?.count == 5)
        readOnly.store(Self.tile(2), Self.response(5))
        #expect(await readOnly.load(Self.tile(2)).error?.reason == .notFound)
        await #expect(throws: CacheError.self) { try await readOnly.clearAmbientCache() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "not even the times of use are written")
        #expect(throws: CacheError(.cannotOpen, path: fixture.path + "/none.db", "there is no cache at \(fixture.path)/none.db")) {
            try OfflineDatabase(path: fixture.path + "/none.db", options: .init(readOnly: true))
        }
    }

    @Test func twoDatabasesOnOneFileLoseNothing() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/cache.db"
        let first = try OfflineDatabase(path: path)
        let second = try OfflineDatabase(path: path)
        await withTaskGroup(of: Void.self) { group in
            for (offset, cache) in [first, second].enumerated() {
                group.addTask {
                    for x in 0..<200 { cache.store(Self.tile(offset * 1000 + x), Self.response(100)) }
                    await cache.flush()
                }
            }
        }
        #expect(try first.statistics().tiles == 400, "\(first.problems) \(second.problems)")
        #expect(await second.load(Self.tile(1199)).data?.count == 100)
    }

    @Test func writesAreCommittedInGroupsAndALaterLookupSeesThem() async throws {
        let fixture = try FixtureDirectory()
        let cache = try OfflineDatabase(path: fixture.path + "/cache.db")
        for x in 0..<50 { cache.store(Self.tile(x), Self.response(10 + x)) }
        #expect(await cache.load(Self.tile(49)).data?.count == 59, "no flush is needed within one database")
        #expect(try cache.statistics().tiles == 50)
        await cache.flush()
        let other = try OfflineDatabase(path: fixture.path + "/cache.db")
        #expect(await other.load(Self.tile(0)).data?.count == 10)
    }

    @Test func aProblemThatRecursIsKeptOnceWithHowManyTimes() {
        var log = ProblemLog()
        for _ in 1...3 { log.note("writes to the cache were lost: disk full") }
        log.note("the cache is damaged")
        log.note("writes to the cache were lost: disk full")
        #expect(log.lines == ["writes to the cache were lost: disk full (4 times)", "the cache is damaged"])
    }
}
