import Foundation
import GRDB
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimJSON

/// `mapsim region` and `mapsim cache` on one database, through the simulated network serving the sample.
@Suite("mapsim region", .serialized)
struct RegionCommandTests {
    private static let network = ["--network", "lan", "--mirror", "https://maps.test/=styles/sample"]
    private static let area = ["--bounds", "-122.62,37.70,-122.28,37.90", "--min-zoom", "0", "--max-zoom", "11"]

    private func mapsim(_ arguments: [String]) async throws -> CommandRunner.Result {
        try await CommandRunner.run(arguments)
    }

    private func json(_ result: CommandRunner.Result) throws -> JSONValue {
        try JSONParser.parse(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func whatTheServerLacksLeavesTheRegionIncompleteInEveryCommandNamedOnce() async throws {
        let server = try await FixtureServer.start(serving: SampleStyle.folder)
        defer { Task { await server.stop() } }
        // A glyph server with the first two ranges only.
        server.reply(prefix: "/glyphs/", with: .status(404))
        server.reply("/glyphs/Mapsim%20Sans%20Regular/0-255.pbf", with: .headers([]))
        server.reply("/glyphs/Mapsim%20Sans%20Regular/256-511.pbf", with: .headers([]))
        let fixture = try FixtureDirectory()
        let cache = ["--cache", fixture.path + "/app.db"]
        let download = try await mapsim(["region", "download", server.baseURL + "/style.json"] + Self.area + cache + ["-q"])
        #expect(download.status == 1, "incomplete: \(download.standardOutput)")
        let lines = download.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("region 1 incomplete: 37 of 165 resources") == true, "\(lines)")
        #expect(lines.contains("  missing: 128 glyph ranges of Mapsim Sans Regular the server does not have (404): 512-767, 768-1023, 1024-1279, …, 65024-65279, 65280-65535"),
                "\(lines)")
        #expect(!download.standardOutput.contains("run the same command again"), "nothing is left to download: the server lacks it")

        let status = try json(try await mapsim(["region", "status", "1", "--json"] + cache))
        #expect(status["complete"] == .bool(false) && status["missing-resource-count"] == .number(128) && status["absent-on-server"]?.arrayValue?.count == 128)
        #expect(status["missing"]?.arrayValue?.count == 1)
        let text = try await mapsim(["region", "status", "1"] + cache)
        #expect(text.standardOutput.contains("complete                        false") && text.standardOutput.contains("  missing: 128 glyph ranges of Mapsim Sans Regular"))
        let listed = try json(try await mapsim(["region", "list", "--json"] + cache))
        #expect(listed.arrayValue?.first?["complete"] == .bool(false))
        let check = try await mapsim(["region", "check", "1"] + cache)
        #expect(check.status == 1 && check.standardOutput.hasPrefix("region 1 is not complete: 37 of 165 required resources stored (as `region status` says); "))
        #expect(check.standardOutput.contains("tiles and") && check.standardOutput.contains("other resources checked offline"),
                "a map in the region needs none of the absent ranges")
        #expect(check.standardOutput.components(separatedBy: "region 1 is").count == 2, "one verdict: \(check.standardOutput)")

        // The same region, resumed with every range served: complete in every command.
        server.reply(prefix: "/glyphs/", with: .headers([]))
        let resumed = try await mapsim(["region", "download", server.baseURL + "/style.json"] + Self.area + cache + ["-q"])
        #expect(resumed.status == 0 && resumed.standardOutput.hasPrefix("region 1 complete: 165 of 165 resources"), "\(resumed.standardOutput)")
        #expect(try json(try await mapsim(["region", "status", "1", "--json"] + cache))["complete"] == .bool(true))
        #expect(try await mapsim(["region", "check", "1"] + cache).status == 0)
    }

    @Test func aServerThatFailsEveryGlyphRangeGetsTenLinesAndTheCountNotOneLineEach() async throws {
        let server = try await FixtureServer.start(serving: SampleStyle.folder)
        defer { Task { await server.stop() } }
        server.reply(prefix: "/glyphs/", with: .status(500))
        let fixture = try FixtureDirectory()
        let download = ["region", "download", server.baseURL + "/style.json", "--cache", fixture.path + "/app.db", "--retries", "0",
                        "--bounds", "-122.5,37.7,-122.4,37.8", "--min-zoom", "8", "--max-zoom", "9"]
        let text = try await mapsim(download)
        let failed = text.standardError.split(separator: "\n").filter { $0.hasPrefix("mapsim: failed: ") && $0.contains("/glyphs/") }
        #expect(text.status == 1 && failed.count == 10, "\(text.standardError)")
        #expect(text.standardError.contains("mapsim: … and 120 more failed (--json lists every one)"), "\(text.standardError)")
        let listed = try json(try await mapsim(download + ["--json"]))
        #expect(listed["failures"]?.arrayValue?.count == 130, "\(listed)")
    }

    @Test func downloadListStatusCheckLoadAndDeleteARegion() async throws {
        let fixture = try FixtureDirectory()
        let cache = ["--cache", fixture.path + "/app.db"]
        let events = fixture.path + "/download.jsonl"
        let download = try await mapsim(["region", "download", "https://maps.test/style.json"] + Self.area + Self.network + cache
                                        + ["--description", "San Francisco", "--events", events])
        #expect(download.status == 0, "\(download.standardError)")
        #expect(download.standardOutput.hasPrefix("region 1 complete: "), "\(download.standardOutput)")
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        #expect(lines.first?.contains("\"download-state\":\"active\"") == true && lines.last?.contains("\"download-state\":\"inactive\"") == true)

        let again = try await mapsim(["region", "download", "https://maps.test/style.json"] + Self.area + Self.network + cache + ["--description", "San Francisco"])
        #expect(again.status == 0 && again.standardError.contains("resuming region 1"), "\(again.standardError)")

        let list = try await mapsim(["region", "list"] + cache)
        #expect(list.status == 0 && list.standardOutput.contains("region 1") && list.standardOutput.contains("description  San Francisco"))
        #expect(list.standardOutput.contains(#""style_url":"https://maps.test/style.json","min_zoom":0.0,"max_zoom":11.0"#), "\(list.standardOutput)")
        #expect(list.standardOutput.contains("complete     yes: "), "\(list.standardOutput)")
        let listed = try json(try await mapsim(["region", "list", "--json"] + cache))
        #expect(listed.arrayValue?.count == 1 && listed.arrayValue?.first?["description"] == .string("San Francisco")
                && listed.arrayValue?.first?["complete"] == .bool(true))

        let status = try json(try await mapsim(["region", "status", "1", "--json"] + cache))
        for key in ["download-state", "completed-resource-count", "completed-resource-size", "completed-tile-count", "completed-tile-size",
                    "required-tile-count", "required-resource-count", "required-resource-count-is-precise"] {
            #expect(status[key] != nil, "\(key)")
        }
        #expect(status["required-resource-count-is-precise"] == .bool(true) && status["download-state"] == .string("inactive"))

        let check = try await mapsim(["region", "check", "1"] + cache)
        #expect(check.status == 0 && check.standardOutput.hasPrefix("region 1 is complete: "), "\(check.standardOutput)\(check.standardError)")

        // As by hand, in sqlite3, whose foreign keys are off.
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        try await DatabaseQueue(path: fixture.path + "/app.db", configuration: configuration).write { db in
            try db.execute(sql: "DELETE FROM tiles WHERE z = 11 AND x = 327 AND y = 791")
        }
        let missing = try await mapsim(["region", "check", "1"] + cache)
        #expect(missing.status == 1)
        #expect(missing.standardOutput.contains("missing tile 11/327/791"), "\(missing.standardOutput)")
        let report = try json(try await mapsim(["region", "check", "1", "--json"] + cache))
        #expect(report["complete"] == .bool(false) && report["missing"]?.arrayValue?.first?["tile"] == .string("11/327/791"))
        let area = try await mapsim(["region", "check", "--style", "https://maps.test/style.json"] + Self.area + cache)
        #expect(area.status == 1 && area.standardOutput.contains("missing tile 11/327/791"))

        let resume = try await mapsim(["region", "download", "1"] + Self.network + cache)
        #expect(resume.status == 0, "\(resume.standardError)")
        #expect(try await mapsim(["region", "check", "1"] + cache).status == 0, "the resumed download restored the tile")

        let offline = try await mapsim(["load", "https://maps.test/style.json", "--offline", "-q"] + Self.network + cache)
        #expect(offline.status == 0 && offline.standardOutput.contains("answered by    database 11"), "\(offline.standardOutput)")

        #expect(try await mapsim(["region", "invalidate", "1"] + cache).status == 0)
        #expect(try await mapsim(["region", "check", "1"] + cache).status == 1, "invalidated rows must be revalidated: offline, they are missing")

        let stats = try json(try await mapsim(["cache", "stats", "--json"] + cache))
        #expect(stats["regions"] == .number(1) && stats["ambient-rows"] == .number(0))
        #expect(try await mapsim(["cache", "clear"] + cache).status == 0)
        #expect(try json(try await mapsim(["cache", "stats", "--json"] + cache))["region-rows"] == stats["region-rows"], "clear spares regions")
        let deleted = try await mapsim(["region", "delete", "1"] + cache)
        #expect(deleted.status == 0 && deleted.standardOutput.contains("deleted region 1"))
        #expect(try await mapsim(["region", "list"] + cache).standardOutput.contains("no regions"))
        let pack = try await mapsim(["cache", "pack"] + cache)
        #expect(pack.status == 0 && pack.standardOutput.contains("packed"))
        let reset = try await mapsim(["cache", "reset"] + cache)
        #expect(reset.status == 0)
        #expect(try json(try await mapsim(["cache", "stats", "--json"] + cache))["tiles"] == .number(0))
    }

    @Test func aGeometryRegionCoversTheTilesItTouches() async throws {
        let fixture = try FixtureDirectory()
        let line = try fixture.write("route.geojson", #"{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[-122.5, 37.75], [-122.3, 37.85]]}}"#)
        let cache = ["--cache", fixture.path + "/app.db"]
        let download = try await mapsim(["region", "download", "https://maps.test/style.json", "--geometry", line, "--min-zoom", "10", "--max-zoom", "11",
                                        "--json"] + Self.network + cache)
        #expect(download.status == 0, "\(download.standardError)")
        let result = try json(download)
        #expect(result["definition"]?.stringValue?.contains(#""geometry":{"type":"LineString","coordinates":[[-122.5,37.75],[-122.3,37.85]]}"#) == true,
                "\(download.standardOutput)")
        let tiles = result["status"]?["completed-tile-count"]?.numberValue ?? 0
        #expect(tiles > 0 && tiles < 13, "a line crosses a few tiles, not its bounding box: \(tiles)")
    }

    @Test func onlyTheGlyphRangesTheTilesNeedAndTheBytesSaved() async throws {
        let fixture = try FixtureDirectory()
        let cache = ["--cache", fixture.path + "/app.db"]
        let download = try await mapsim(["region", "download", "https://maps.test/style.json", "--glyphs", "needed"] + Self.area + Self.network + cache)
        #expect(download.status == 0, "\(download.standardError)")
        let status = try await mapsim(["region", "status", "1"] + cache)
        #expect(status.standardOutput.contains("glyph ranges                    2 of the 130 MapLibre downloads"), "\(status.standardOutput)")
        let saved = try json(try await mapsim(["region", "status", "1", "--json"] + cache))["glyph-ranges"]
        #expect(saved?["downloaded"] == .number(2) && (saved?["bytes-saved"]?.numberValue ?? 0) > 0)
        #expect(try await mapsim(["region", "check", "1"] + cache).status == 0, "what the tiles need is there")
    }

    @Test func mistakesAreClearErrors() async throws {
        let fixture = try FixtureDirectory()
        let cache = ["--cache", fixture.path + "/app.db"]
        let noArea = try await mapsim(["region", "download", "https://maps.test/style.json", "--min-zoom", "0", "--max-zoom", "1"] + Self.network + cache)
        #expect(noArea.status == 64 && noArea.standardError.contains("--bounds"))
        // Latitude first, as `lat,lon` pairs are written: said, for download and check alike.
        for command in [["region", "download", "https://maps.test/style.json"] + Self.network, ["region", "check", "--style", "https://maps.test/style.json"]] {
            let swapped = try await mapsim(command + ["--bounds", "37.7,-122.5,37.9,-122.3", "--min-zoom", "0", "--max-zoom", "1"] + cache)
            #expect(swapped.status == 64 && swapped.standardError.contains("--bounds: south -122.5 is not a latitude (-90 to 90); the order is west,south,east,north"),
                    "\(command): \(swapped.standardError)")
        }
        #expect(try await mapsim(["cache", "reset"] + cache).status == 0, "an empty database")
        let noRegion = try await mapsim(["region", "status", "9"] + cache)
        #expect(noRegion.status == 1 && noRegion.standardError.contains("there is no region 9"), "\(noRegion.standardError)")
        let notADatabase = try fixture.write("other.db", String(repeating: "x", count: 5000))
        let merge = try await mapsim(["region", "merge", notADatabase] + cache)
        #expect(merge.status == 74 && merge.standardError.contains("cannot merge"), "\(merge.standardError)")
        let missingStyle = try await mapsim(["region", "download", "https://maps.test/none.json", "--bounds", "0,0,1,1", "--min-zoom", "0", "--max-zoom", "1"]
                                           + Self.network + cache)
        #expect(missingStyle.status == 1 && missingStyle.standardOutput.contains("stopped: cannot download the style"), "\(missingStyle.standardOutput)")
    }

    @Test func mergesAnotherDatabasesRegions() async throws {
        let fixture = try FixtureDirectory()
        let side = ["--cache", fixture.path + "/side.db"]
        let main = ["--cache", fixture.path + "/main.db"]
        #expect(try await mapsim(["region", "download", "https://maps.test/style.json"] + Self.area + Self.network + side).status == 0)
        let merged = try await mapsim(["region", "merge", fixture.path + "/side.db"] + main)
        #expect(merged.status == 0 && merged.standardOutput.contains("merged 1 region"), "\(merged.standardOutput)\(merged.standardError)")
        #expect(try await mapsim(["region", "check", "1"] + main).status == 0)
    }
}
