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
