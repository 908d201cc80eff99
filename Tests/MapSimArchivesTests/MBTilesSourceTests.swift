import Foundation
import GRDB
import MapSim
import MapSimArchives
import MapSimJSON
import MapSimTesting
import Testing

/// `mbtiles://` sources: the TileJSON MapLibre Native makes, TMS rows, gzip, damage named, read-only.
@Suite struct MBTilesSourceTests {
    @Test func mbtilesLoadsToMapIdleWithTheSampleTiles() async throws {
        let fixture = try ArchiveFixture()
        let path = try fixture.writeMBTiles()
        let (_, recorder, outcome) = await loadArchiveStyle(try fixture.style(sourceURL: "mbtiles://\(path)"))
        guard case .reached = outcome else { Issue.record("not idle: \(outcome)"); return }
        #expect(recorder.loadingErrors.isEmpty)
        #expect(recorder.loadedTiles == (await PMTilesSourceTests.folderTiles()))
        let tileURLs = recorder.requests.filter { $0.request.kind == .tile }.map(\.request.url)
        #expect(tileURLs.contains("mbtiles://\(path)?file=163/395/10.pbf"))
        #expect(recorder.requests.allSatisfy { $0.dataSource == .fileSystem })
    }

    @Test func tileJSONIsMadeAsMapLibreNativeMakesIt() throws {
        let fixture = try ArchiveFixture()
        let path = try fixture.writeMBTiles(metadata: [("name", "t"), ("format", "png"), ("bounds", "-10,-5,10,5"), ("attribution", "© t"),
                                                       ("json", #"{"vector_layers":[{"id":"water"}],"extra":1}"#)])
        let json = try JSONParser.parse(try MBTilesArchive(path: path).tileJSON(url: "mbtiles://\(path)"))
        #expect(json["tilejson"]?.stringValue == "2.0.0")
        #expect(json["scheme"]?.stringValue == "xyz")
        #expect(json["tiles"]?.arrayValue?.first?.stringValue == "mbtiles://\(path)?file={x}/{y}/{z}.png")
        #expect(json["minzoom"]?.numberValue == 0, "from the tiles' zoom levels when the metadata has none")
        #expect(json["maxzoom"]?.numberValue == 11)
        #expect(json["center"]?.arrayValue?.compactMap(\.numberValue) == [0, 0, 5])
        #expect(json["bounds"]?.arrayValue?.count == 4, "bounds are kept for formats other than pbf")
        #expect(json["vector_layers"]?.arrayValue?.first?["id"]?.stringValue == "water")
        #expect(json["attribution"]?.stringValue == "© t")
        let pbf = try fixture.writeMBTiles("pbf.mbtiles")
        let vector = try JSONParser.parse(try MBTilesArchive(path: pbf).tileJSON(url: "mbtiles://\(pbf)"))
        #expect(vector["bounds"] == nil, "MapLibre Native leaves bounds out for pbf")
    }

    @Test func metadataNamesAndValuesOfAnyStorageClassAreReadAsText() throws {
        let fixture = try ArchiveFixture()
        let path = try fixture.writeMBTiles("blobs.mbtiles", metadata: [("format", "png")])
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO metadata (name, value) VALUES (?, ?), (?, ?)",
                           arguments: [Data([0xFF, 0xFE, 0x3A]), "x", "minzoom", Data([0xC3, 0x28])])
        }
        let metadata = try MBTilesArchive(path: path).metadata()
        #expect(metadata.count == 3, "a name or value that is no UTF-8 is read, not a trap: \(metadata)")
    }

    @Test func rowsAreTMSAndGzipIsInflated() throws {
        let fixture = try ArchiveFixture()
        let path = try fixture.writeMBTiles()
        let archive = try MBTilesArchive(path: path)
        let tile = try #require(try ArchiveFixture.sampleTiles().first { $0.z == 10 })
        #expect(try archive.tile(z: tile.z, x: tile.x, y: tile.y) == tile.bytes)
        let stored = try DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                             arguments: [tile.z, tile.x, (1 << tile.z) - 1 - tile.y])
        }
        #expect(stored == 1, "the row is flipped")
        #expect(try archive.tile(z: 10, x: 0, y: 0) == nil)
    }

    @Test func aMissingTileIsNoContentAndRelativePathsAreRefused() async throws {
        let fixture = try ArchiveFixture()
        let path = try fixture.writeMBTiles()
        let loader = MBTilesResourceLoader()
        let missing = await loader.load(Resource(url: "mbtiles://\(path)?file=0/0/5.pbf", kind: .tile))
        #expect(missing.noContent && missing.error == nil)
        let relative = await loader.load(Resource(url: "mbtiles://city.mbtiles", kind: .source))
        #expect(relative.error?.message.contains("absolute path") == true)
        let absent = await loader.load(Resource(url: "mbtiles://\(path)-gone", kind: .source))
        #expect(absent.error?.reason == .notFound)
    }

    @Test func aFileThatIsNotMBTilesIsASourceErrorNamingWhatIsMissing() async throws {
        let fixture = try ArchiveFixture()
        let noMetadata = fixture.path("no-metadata.mbtiles")
        try Self.makeDatabase(noMetadata, "CREATE TABLE tiles (zoom_level, tile_column, tile_row, tile_data)")
        let noColumn = fixture.path("no-column.mbtiles")
        try Self.makeDatabase(noColumn, "CREATE TABLE metadata (name, value); CREATE TABLE tiles (zoom_level, tile_column, tile_row)")
        let garbage = try fixture.directory.write("sample/garbage.mbtiles", [UInt8](repeating: 0x42, count: 8192))
        for (path, expected) in [(noMetadata, "no metadata table"), (noColumn, "no column tile_data"), (garbage, "not a database")] {
            let (_, recorder, _) = await loadArchiveStyle(try fixture.style(sourceURL: "mbtiles://\(path)"))
            let error = try #require(recorder.loadingErrors.first)
            #expect(error.type == .source)
            #expect(error.message.contains(path) && error.message.contains(expected), "\(error.message)")
        }
    }

    /// A SQLite file at `path` made by `sql`.
    static func makeDatabase(_ path: String, _ sql: String) throws {
        try DatabaseQueue(path: path).writeWithoutTransaction { try $0.execute(sql: sql) }
    }

    @Test func aDamagedPageIsNamed() async throws {
        let fixture = try ArchiveFixture()
        let path = try fixture.writeMBTiles()
        // Overwrite every page after the schema's with garbage: the tiles' b-tree is damaged.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: 4096 * 2)
        try handle.write(contentsOf: Data(repeating: 0x5A, count: Int(size) - 4096 * 2))
        try handle.close()
        let (_, recorder, _) = await loadArchiveStyle(try fixture.style(sourceURL: "mbtiles://\(path)"))
        #expect(recorder.loadingErrors.contains { $0.message.contains(path) && ($0.message.contains("damaged") || $0.message.contains("not a database")) })
    }

    @Test func readingNeverWritesTheFile() async throws {
        let fixture = try ArchiveFixture()
        let path = try fixture.writeMBTiles()
        let before = try InputFile.read(path, limit: 1 << 24)
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let (_, recorder, outcome) = await loadArchiveStyle(try fixture.style(sourceURL: "mbtiles://\(path)"))
        guard case .reached = outcome else { Issue.record("not idle: \(outcome)"); return }
        #expect(recorder.loadingErrors.isEmpty)
        #expect(try InputFile.read(path, limit: 1 << 24) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == modified)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.path("")).filter { $0.hasPrefix("city.mbtiles-") }
        #expect(leftovers.isEmpty)
    }

    @Test func mbtilesNeedsNoNetworkOffline() async throws {
        let fixture = try ArchiveFixture()
        let path = try fixture.writeMBTiles()
        let (_, recorder, outcome) = await loadArchiveStyle(try fixture.style(sourceURL: "mbtiles://\(path)"), offline: true)
        guard case .reached = outcome else { Issue.record("not idle offline: \(outcome)"); return }
        #expect(recorder.loadingErrors.isEmpty)
    }
}
