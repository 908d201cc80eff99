import Foundation
import GRDB
import MapSimTesting
import Testing
@testable import MapSim
@testable import MapSimJSON
@testable import MapSimKit

/// `mapsim region export`: a downloaded region as MBTiles and PMTiles, read back and loaded offline.
@Suite("mapsim region export", .serialized)
struct RegionExportCommandTests {
    private static let network = ["--network", "lan", "--mirror", "https://maps.test/=styles/sample"]
    private static let area = ["--bounds", "-122.62,37.70,-122.28,37.90", "--min-zoom", "0", "--max-zoom", "11"]

    @Test func aRegionExportsToBothFormatsWithItsTilesAndMetadata() async throws {
        let fixture = try FixtureDirectory()
        let cache = ["--cache", fixture.path + "/app.db"]
        let download = try await CommandRunner.run(["region", "download", "https://maps.test/style.json"] + Self.area + Self.network + cache)
        #expect(download.status == 0, "\(download.standardError)")
        let pmtiles = fixture.path + "/region.pmtiles"
        let mbtiles = fixture.path + "/region.mbtiles"
        let toPMTiles = try await CommandRunner.run(["region", "export", "1", "--pmtiles", pmtiles] + cache)
        #expect(toPMTiles.status == 0, "\(toPMTiles.standardError)")
        #expect(toPMTiles.standardOutput.contains("tiles of source \"city\""))
        let toMBTiles = try await CommandRunner.run(["region", "export", "1", "--mbtiles", mbtiles] + cache)
        #expect(toMBTiles.status == 0, "\(toMBTiles.standardError)")

        // Every tile of the region, as the sample has it, in both archives.
        let pm = try PMTilesFileReader(path: pmtiles)
        let mb = try MBTilesArchive(path: mbtiles)
        #expect(pm.header.tileCompression == .gzip && pm.header.tileType == .mvt && pm.header.isClustered)
        let sample = SampleStyle.folder + "/tiles"
        var count = 0
        for z in 0...11 {
            for x in (try? FileManager.default.contentsOfDirectory(atPath: "\(sample)/\(z)")) ?? [] {
                for file in try FileManager.default.contentsOfDirectory(atPath: "\(sample)/\(z)/\(x)") {
                    let y = Int(file.dropLast(4))!
                    let bytes = try InputFile.read("\(sample)/\(z)/\(x)/\(file)", limit: 1 << 24)
                    #expect(try pm.tile(z: z, x: Int(x)!, y: y) == bytes, "\(z)/\(x)/\(y)")
                    #expect(try mb.tile(z: z, x: Int(x)!, y: y) == bytes, "\(z)/\(x)/\(y)")
                    let stored = try #require(try pm.tileData(z: z, x: Int(x)!, y: y))
                    #expect(stored.starts(with: [0x1F, 0x8B]), "declared gzip, stored gzip")
                    count += 1
                }
            }
        }
        #expect(count > 0 && pm.header.addressedTiles == UInt64(count))
        let metadata = try JSONParser.parse(try pm.metadata())
        #expect(metadata["vector_layers"]?.arrayValue?.count == 5)
        let tileJSON = try JSONParser.parse(try mb.tileJSON(url: "mbtiles://\(mbtiles)"))
        #expect(tileJSON["vector_layers"]?.arrayValue?.count == 5 && tileJSON["name"]?.stringValue == "Mapsim City")

        // The same region gives the same PMTiles bytes.
        let again = fixture.path + "/again.pmtiles"
        #expect(try await CommandRunner.run(["region", "export", "1", "--pmtiles", again] + cache).status == 0)
        #expect(try InputFile.read(again, limit: 1 << 24) == InputFile.read(pmtiles, limit: 1 << 24))

        // And the archives load offline as sources.
        for url in ["pmtiles://file://\(pmtiles)", "mbtiles://\(mbtiles)"] {
            var style = String(decoding: try InputFile.read(SampleStyle.folder + "/style.json", limit: 1 << 20), as: UTF8.self)
            style = style.replacingOccurrences(of: "\"url\": \"tiles.json\"", with: "\"url\": \"\(url)\"")
            try FileManager.default.copyItem(atPath: SampleStyle.folder + "/sprite.json", toPath: fixture.path + "/sprite.json")
            try FileManager.default.copyItem(atPath: SampleStyle.folder + "/sprite.png", toPath: fixture.path + "/sprite.png")
            try FileManager.default.copyItem(atPath: SampleStyle.folder + "/glyphs", toPath: fixture.path + "/glyphs")
            try style.write(toFile: fixture.path + "/style.json", atomically: true, encoding: .utf8)
            let events = fixture.path + "/events.jsonl"
            let load = try await CommandRunner.run(["load", fixture.path + "/style.json", "--offline", "--no-cache", "--events", events])
            #expect(load.status == 0, "\(url): \(load.standardError)")
            let lines = try String(contentsOfFile: events, encoding: .utf8)
            #expect(lines.contains("\"type\":\"map-idle\""), "\(url)")
            #expect(!lines.contains("\"type\":\"map-loading-error\""), "\(url)")
            for name in ["sprite.json", "sprite.png", "glyphs", "style.json", "events.jsonl"] { try FileManager.default.removeItem(atPath: fixture.path + "/" + name) }
        }
    }

    /// A region of more tiles than one read takes: every tile is written, each row's deflate stream
    /// kept (rewrapped as gzip, not deflated again), and the highest pixel ratio's row wins.
    @Test func aRegionOfManyTilesExportsEveryTileFromItsStoredStream() async throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/app.db"
        #expect(try await CommandRunner.run(["region", "download", "https://maps.test/style.json"] + Self.area + Self.network + ["--cache", path]).status == 0)
        // 400 more tiles at zoom 14, each a copy of a stored one, and one at pixel ratio 2 beside its
        // ratio-1 row; stored as deflate streams of one stored block, which no deflater at level 6
        // writes, so that the archive shows whether the stream was kept.
        func storedBlockStream(_ body: [UInt8]) -> [UInt8] {
            let length = UInt16(body.count)
            let adler = ZlibCodec.adler32(body)
            return [0x78, 0x9C, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)] + body
                + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        }
        let database = try DatabaseQueue(path: path)
        let (template, stored) = try await database.read { db -> (String, Data) in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT url_template, data FROM tiles WHERE compressed = 1 ORDER BY length(data) DESC LIMIT 1"))
            return (row[0], row[1])
        }
        let body = try ZlibCodec.inflate([UInt8](stored))
        let other = [UInt8](repeating: 7, count: 3_000)
        let (stream, ratioTwoStream) = (storedBlockStream(body), storedBlockStream(other))
        try await database.write { db in
            for index in 0..<401 {
                let (x, y, ratio, data) = index < 400 ? (index / 20, index % 20, 1, stream) : (0, 0, 2, ratioTwoStream)
                try db.execute(sql: "INSERT INTO tiles (url_template, pixel_ratio, z, x, y, data, compressed, accessed) VALUES (?, ?, 14, ?, ?, ?, 1, 1)",
                               arguments: [template, ratio, x, y, Data(data)])
                try db.execute(sql: "INSERT INTO region_tiles (region_id, tile_id) VALUES (1, ?)", arguments: [db.lastInsertedRowID])
            }
        }
        try database.close()
        let pmtiles = fixture.path + "/region.pmtiles"
        let mbtiles = fixture.path + "/region.mbtiles"
        for format in ["--pmtiles", "--mbtiles"] {
            let export = try await CommandRunner.run(["region", "export", "1", format, format == "--pmtiles" ? pmtiles : mbtiles, "--cache", path])
            #expect(export.status == 0, "\(export.standardError)")
        }
        let pm = try PMTilesFileReader(path: pmtiles)
        let mb = try MBTilesArchive(path: mbtiles)
        #expect(pm.header.addressedTiles == 429 && pm.header.maxZoom == 14)
        for x in 0..<20 {
            for y in 0..<20 {
                let expected = x == 0 && y == 0 ? other : body
                #expect(try pm.tile(z: 14, x: x, y: y) == expected, "14/\(x)/\(y)")
                #expect(try mb.tile(z: 14, x: x, y: y) == expected, "14/\(x)/\(y)")
                let kept = x == 0 && y == 0 ? ratioTwoStream : stream
                for stored in [try pm.tileData(z: 14, x: x, y: y), try mb.tileData(z: 14, x: x, y: y)] {
                    let member = try #require(stored)
                    #expect(member.starts(with: [0x1F, 0x8B]) && Array(member.dropFirst(10).dropLast(8)) == Array(kept.dropFirst(2).dropLast(4)),
                            "14/\(x)/\(y): the row's deflate stream, not deflated again")
                }
            }
        }
    }

    @Test func aStyleWithSeveralSourcesNeedsSourceAndAnUnknownOneIsNamed() async throws {
        let fixture = try FixtureDirectory()
        let cache = ["--cache", fixture.path + "/app.db"]
        #expect(try await CommandRunner.run(["region", "download", "https://maps.test/style.json"] + Self.area + Self.network + cache).status == 0)
        let unknown = try await CommandRunner.run(["region", "export", "1", "--pmtiles", fixture.path + "/x.pmtiles", "--source", "roads"] + cache)
        #expect(unknown.status == 1)
        #expect(unknown.standardError.contains("no tiled source \"roads\"") && unknown.standardError.contains("\"city\""))
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/x.pmtiles"))
        let both = try await CommandRunner.run(["region", "export", "1", "--pmtiles", "a", "--mbtiles", "b"] + cache)
        #expect(both.status == 64)
        let missing = try await CommandRunner.run(["region", "export", "7", "--pmtiles", fixture.path + "/x.pmtiles"] + cache)
        #expect(missing.status == 1 && missing.standardError.contains("no region 7"))
    }
}
