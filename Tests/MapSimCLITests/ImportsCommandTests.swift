import Foundation
import GRDB
import Testing
import MapSimTesting
import MapSimJSON
import MapSim

/// `mapsim region download` and `mapsim validate --deep` on a style with Mapbox imports
/// (styles/mapbox-standard: an import, an import nested in it, a model), served over loopback with
/// every mapbox:// URL pointed at the server.
@Suite("mapsim region and validate with Mapbox imports", .serialized)
struct ImportsCommandTests {
    static let folder = SampleStyle.stylesFolder + "/mapbox-standard"
    static let area = ["--bounds", "-122.46,37.76,-122.38,37.82", "--min-zoom", "10", "--max-zoom", "11"]

    /// The options that load the example as the Mapbox SDK does from `server`.
    static func mapbox(_ server: FixtureServer, engine: String = "mapbox") -> [String] {
        ["--engine", engine, "--mapbox-api-url", server.baseURL, "--access-token", "pk.test"]
    }

    /// A region (`area`) of the example's style `file`, served from its folder, downloaded for the
    /// Mapbox SDK into a new database; the server runs on for the test to stop.
    static func downloaded(_ file: String) async throws -> (server: FixtureServer, fixture: FixtureDirectory, database: String, style: String,
                                                            download: CommandRunner.Result) {
        let server = try await FixtureServer.start(serving: folder)
        let fixture = try FixtureDirectory()
        let database = fixture.path + "/app.db"
        let style = server.baseURL + "/" + file
        let download = try await CommandRunner.run(["region", "download", style, "--cache", database, "-q"] + area + mapbox(server))
        return (server, fixture, database, style, download)
    }

    @Test func aRegionHoldsEveryImportAndAMapLoadsItOfflineFromTheDatabaseAlone() async throws {
        let (server, fixture, database, style, download) = try await Self.downloaded("style.json")
        defer { withExtendedLifetime(fixture) {} }
        // The example's fonts have the first two ranges of each glyphs URL (the root's Mapbox
        // default, the imports' mapsim fonts): all else is what the server lacks, and nothing else.
        let lines = download.standardOutput.split(separator: "\n").map(String.init)
        #expect(download.status == 1 && lines.first?.hasPrefix("region 1 incomplete: ") == true, "\(download.standardOutput)\(download.standardError)")
        // One font stack from two glyphs URLs: a line for each, named by its URL.
        #expect(lines.filter { $0.hasPrefix("  missing: ") } == ["mapbox", "mapsim"].map {
            "  missing: 128 glyph ranges of Mapsim Sans Regular from \(server.baseURL)/fonts/v1/\($0)/ the server does not have (404): 512-767, 768-1023, 1024-1279, …, 65024-65279, 65280-65535"
        }, "\(download.standardOutput)")
        // The region's status counts the imports' resources as the download did.
        let status = try JSONParser.parse(try await CommandRunner.run(["region", "status", "1", "--json", "--cache", database]).standardOutput)
        #expect(status["missing-resource-count"] == .number(256) && status["required-resource-count-is-precise"] == .bool(true), "\(status)")
        let stored = try await DatabaseQueue(path: database).read { db in try String.fetchAll(db, sql: "SELECT url FROM resources") }
        for url in ["mapbox://styles/mapsim/standard", "mapbox://styles/mapsim/landmarks", "mapbox://mapsim.streets",
                    "mapbox://sprites/mapsim/standard-sprite@2x.png", "\(server.baseURL)/models/v1/mapsim/tower.glb?access_token=pk.test"] {
            #expect(stored.contains(url), "\(url) is not stored: \(stored)")
        }
        #expect(stored.contains { $0.hasPrefix("mapbox://fonts/mapsim/Mapsim%20Sans%20Regular/") }, "\(stored)")

        // `region check` for the Mapbox SDK walks every imported style's tiles; MapLibre Native's
        // map has the root style alone (no tiles), so its check finds nothing of the imports'.
        func check() async throws -> (mapbox: JSONValue, maplibre: JSONValue) {
            let mapbox = try await CommandRunner.run(["region", "check", "1", "--json", "--cache", database] + Self.mapbox(server))
            let maplibre = try await CommandRunner.run(["region", "check", "1", "--json", "--cache", database, "--mapbox-api-url", server.baseURL, "--access-token", "pk.test"])
            return (try JSONParser.parse(mapbox.standardOutput), try JSONParser.parse(maplibre.standardOutput))
        }
        let before = try await check()
        #expect(before.mapbox["offline-complete"] == .bool(true) && before.mapbox["zooms"]?.arrayValue?.isEmpty == false, "\(before.mapbox)")
        #expect((before.mapbox["checked"]?.numberValue ?? 0) > (before.maplibre["checked"]?.numberValue ?? 0), "\(before)")
        #expect(before.maplibre["offline-complete"] == .bool(true) && before.maplibre["zooms"] == .array([]), "\(before.maplibre)")
        await server.stop()

        // A view inside the region (a still map: no prefetch of zooms the region does not have).
        let offline = try await CommandRunner.run(["load", style, "--offline", "--cache", database, "--fail-on-error", "-q", "--mode", "still",
                                                   "--center", "-122.42,37.79", "--zoom", "11", "--size", "100x100"] + Self.mapbox(server))
        #expect(offline.status == 0, "\(offline.standardOutput)\(offline.standardError)")
        #expect(offline.standardOutput.contains("answered by    database"), "\(offline.standardOutput)")
        #expect(!offline.standardOutput.contains("failed"), "\(offline.standardOutput)")

        // A tile of an imported style lost: the Mapbox check names it.
        let lost = try await DatabaseQueue(path: database).write { db in
            let row = try Row.fetchOne(db, sql: "SELECT id, z, x, y FROM tiles ORDER BY z DESC, x, y LIMIT 1")
            try db.execute(sql: "DELETE FROM region_tiles WHERE tile_id = ?", arguments: [row?["id"] as Int64?])
            try db.execute(sql: "DELETE FROM tiles WHERE id = ?", arguments: [row?["id"] as Int64?])
            return "\(row?["z"] as Int? ?? -1)/\(row?["x"] as Int? ?? -1)/\(row?["y"] as Int? ?? -1)"
        }
        let after = try await check()
        let missing = after.mapbox["missing"]?.arrayValue ?? []
        #expect(missing.count == 1 && missing.first?["kind"] == .string("tile") && missing.first?["tile"] == .string(lost), "\(after.mapbox)")
        #expect(after.maplibre["offline-complete"] == .bool(true), "\(after.maplibre)")
    }

    /// imports.json: a relative import with a relative sprite, inline imports (one inside another)
    /// whose sources share the basemap's tileset, the basemap's nested import imported twice.
    @Test func aRegionOfImportsOfEveryKindHoldsThemAllAndLoadsOffline() async throws {
        let (server, fixture, database, style, download) = try await Self.downloaded("imports.json")
        defer { withExtendedLifetime(fixture) {} }
        // Incomplete for the glyph ranges the server lacks alone, as the example's own region.
        #expect(download.status == 1 && download.standardOutput.split(separator: "\n").filter { $0.hasPrefix("  missing: ") }.count == 2,
                "\(download.standardOutput)\(download.standardError)")
        let stored = try await DatabaseQueue(path: database).read { db in try String.fetchAll(db, sql: "SELECT url FROM resources") }
        for url in [style, "\(server.baseURL)/imports/extra.json", "\(server.baseURL)/imports/sprite@2x.json", "\(server.baseURL)/imports/sprite@2x.png",
                    "mapbox://styles/mapsim/standard", "mapbox://styles/mapsim/landmarks", "mapbox://mapsim.streets"] {
            #expect(stored.contains(url), "\(url) is not stored: \(stored)")
        }
        await server.stop()

        let offline = try await CommandRunner.run(["load", style, "--offline", "--cache", database, "--fail-on-error", "--mode", "still",
                                                   "--center", "-122.42,37.79", "--zoom", "11", "--size", "100x100"] + Self.mapbox(server))
        #expect(offline.status == 0, "\(offline.standardOutput)\(offline.standardError)")
        // Every resource from the database: the three sources on the basemap's tileset each have their tile.
        let answered = offline.standardOutput.split(separator: "\n").first { $0.hasPrefix("answered by") }.map(String.init) ?? ""
        #expect(answered.hasPrefix("answered by    database") && !answered.contains("network"), "\(offline.standardOutput)")
        let lines = offline.standardOutput.split(separator: "\n")
        for scope in ["basemap", "overlay", "overlay/deep"] {
            #expect(lines.contains { $0.contains("resource-request") && $0.contains("/v4/mapsim.streets/11/") && $0.contains("(import \(scope)) ") },
                    "no tile of \(scope): \(offline.standardOutput)")
        }
        #expect(lines.contains { $0.contains("sprite-json \(server.baseURL)/imports/sprite.json (import extra)") }, "\(offline.standardOutput)")
    }

    @Test func aGlyphsURLOnTheAPIIsTheSameRowAsItsMapboxFormForTheDownloadAndTheStatus() async throws {
        // An import that names the Mapbox API's fonts by their http URL (relative, on the API's
        // server) beside the basemap's mapbox://fonts/mapsim/…: one row per range in the database,
        // so the download asks once, and it and `region status` (which is told no API URL) agree.
        let fixture = try FixtureDirectory()
        try fixture.copy(folder: Self.folder, to: "site")
        var root = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: fixture.path + "/site/style.json")))).objectValue ?? JSONObject()
        root["imports"] = .array((root["imports"]?.arrayValue ?? []) + [.object(JSONObject([("id", .string("extra")), ("url", .string("extra.json"))]))])
        _ = try fixture.write("site/style.json", JSONWriter.string(.object(root)))
        _ = try fixture.write("site/extra.json", #"""
            {"version": 8, "glyphs": "fonts/v1/mapsim/{fontstack}/{range}.pbf",
             "sources": {"pins": {"type": "geojson", "data": {"type": "Point", "coordinates": [-122.42, 37.79]}}},
             "layers": [{"id": "pin", "type": "symbol", "source": "pins", "layout": {"text-field": "pin", "text-font": ["Mapsim Sans Regular"]}}]}
            """#)
        let server = try await FixtureServer.start(serving: fixture.path + "/site")
        let database = fixture.path + "/app.db"
        let download = try await CommandRunner.run(["region", "download", server.baseURL + "/style.json", "--cache", database, "-q"] + Self.area + Self.mapbox(server))
        await server.stop()
        let glyphRequests = server.received.map(\.path).filter { $0.contains("/fonts/v1/mapsim/") }.map { $0.split(separator: "?").first.map(String.init) ?? $0 }
        #expect(glyphRequests.count == Set(glyphRequests).count, "each range of the API's fonts asked for once: \(glyphRequests.count)")
        let summary = download.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
        let status = try JSONParser.parse(try await CommandRunner.run(["region", "status", "1", "--json", "--cache", database]).standardOutput)
        let required = status["required-resource-count"]?.numberValue.map { Int($0) } ?? -1
        let completed = status["completed-resource-count"]?.numberValue.map { Int($0) } ?? -1
        #expect(summary.contains("\(completed) of \(required) resources"), "the download said \(summary); the status \(status)")
        #expect(status["missing-resource-count"] == .number(256), "the two glyphs URLs' 404s, nothing else: \(status)")
    }

    @Test func aRegionExportsTheSourcesOfItsImportedStylesByTheirImportsName() async throws {
        let server = try await FixtureServer.start(serving: Self.folder)
        defer { Task { await server.stop() } }
        let fixture = try FixtureDirectory()
        let cache = ["--cache", fixture.path + "/app.db"]
        _ = try await CommandRunner.run(["region", "download", server.baseURL + "/style.json", "-q"] + cache + Self.area + Self.mapbox(server))
        // The root style has no source of its own: its tiles are the import basemap's.
        let archive = fixture.path + "/region.pmtiles"
        let export = try await CommandRunner.run(["region", "export", "1", "--pmtiles", archive] + cache)
        #expect(export.status == 0 && export.standardOutput.hasPrefix("wrote 2 pbf tiles of source \"basemap/streets\" of region 1"),
                "\(export.standardOutput)\(export.standardError)")
        let pm = try PMTilesFileReader(path: archive)
        for (z, x, y) in [(10, 163, 395), (11, 327, 791)] {
            let served = try InputFile.read("\(Self.folder)/v4/mapsim.streets/\(z)/\(x)/\(y).vector.pbf", limit: 1 << 20)
            #expect(try pm.tile(z: z, x: x, y: y) == served, "\(z)/\(x)/\(y)")
        }
        #expect(try JSONParser.parse(try pm.metadata())["name"] == .string("Mapsim City"))
        // Named by its id alone (no other style has one of that id), or wrongly: the names are listed.
        let byID = try await CommandRunner.run(["region", "export", "1", "--mbtiles", fixture.path + "/region.mbtiles", "--source", "streets"] + cache)
        #expect(byID.status == 0 && byID.standardOutput.contains("of source \"basemap/streets\""), "\(byID.standardOutput)\(byID.standardError)")
        let unknown = try await CommandRunner.run(["region", "export", "1", "--mbtiles", fixture.path + "/x.mbtiles", "--source", "composite"] + cache)
        #expect(unknown.status == 1 && unknown.standardError.contains("has no tiled source \"composite\"; its tiled sources are \"basemap/streets\""), "\(unknown.standardError)")
    }

    @Test func maplibreNativeDownloadsNoImports() async throws {
        let server = try await FixtureServer.start(serving: Self.folder)
        defer { Task { await server.stop() } }
        let fixture = try FixtureDirectory()
        let database = fixture.path + "/app.db"
        let download = try await CommandRunner.run(["region", "download", server.baseURL + "/style.json", "--cache", database, "-q"] + Self.area
                                                   + ["--mapbox-api-url", server.baseURL, "--access-token", "pk.test"])
        #expect(download.status == 0 && download.standardOutput.hasPrefix("region 1 complete: 1 of 1 resources"), "\(download.standardOutput)\(download.standardError)")
        let mapboxGLJS = try await CommandRunner.run(["region", "download", server.baseURL + "/style.json", "--cache", database] + Self.area + Self.mapbox(server, engine: "mapbox-gl-js"))
        #expect(mapboxGLJS.status == 64 && mapboxGLJS.standardError.contains("Mapbox GL JS downloads no offline regions"), "\(mapboxGLJS.standardError)")
        let check = try await CommandRunner.run(["region", "check", "1", "--cache", database, "--engine", "mapbox-gl-js"])
        #expect(check.status == 64 && check.standardError.contains("a browser's map keeps no offline region"), "\(check.standardError)")
    }

    @Test func deepValidationChecksEveryImportForAMapboxEngineAndSaysOnceThatMapLibreIgnoresThem() async throws {
        let server = try await FixtureServer.start(serving: Self.folder)
        defer { Task { await server.stop() } }
        let file = Self.folder + "/style.json"
        let mapbox = try await CommandRunner.run(["validate", "--deep", "--no-cache", file] + Self.mapbox(server))
        let deep = mapbox.standardOutput.split(separator: "\n").filter { $0.contains("import ") || $0.contains("failed") || $0.contains("could not") }
        #expect(deep.isEmpty, "\(mapbox.standardOutput)")
        #expect(server.received.contains { $0.path.hasPrefix("/styles/v1/mapsim/landmarks") } && server.received.contains { $0.path.hasPrefix("/models/v1/mapsim/tower.glb") })

        let every = try await CommandRunner.run(["validate", "--deep", "--no-cache", file, "--mapbox-api-url", server.baseURL, "--access-token", "pk.test"])
        // The MapLibre check says so, and the MapLibre engines' loads do not say it again.
        let ignored = every.standardOutput.split(separator: "\n").filter { $0.contains("MapLibre ignores") || $0.contains("MapLibre has no style imports") }
        #expect(ignored.count == 1 && ignored[0].contains(#"warning: imports: MapLibre ignores "imports""#), "\(every.standardOutput)")
    }

    @Test func deepValidationLoadsAMapboxLayerTypeForTheMapboxEnginesAndTheMapLibreOnesRefuseIt() async throws {
        // A `model` layer in the root: Mapbox's loader takes it, MapLibre's refuses it.
        let server = try await FixtureServer.start(serving: Self.folder)
        defer { Task { await server.stop() } }
        let fixture = try FixtureDirectory()
        let file = try fixture.write("style.json", #"""
            {"version": 8, "imports": [{"id": "basemap", "url": "mapbox://styles/mapsim/standard"}],
             "models": {"pin": "mapbox://models/mapsim/tower.glb"},
             "sources": {"spots": {"type": "geojson", "data": {"type": "Point", "coordinates": [-122.42, 37.78]}}},
             "layers": [{"id": "pins", "type": "model", "source": "spots", "slot": "top", "layout": {"model-id": "pin"}}]}
            """#)
        for engine in ["mapbox", "mapbox-gl-js"] {
            let result = try await CommandRunner.run(["validate", "--deep", "--no-cache", file] + Self.mapbox(server, engine: engine))
            #expect(!result.standardOutput.contains("refuses") && !result.standardOutput.contains("failed to parse"), "\(engine): \(result.standardOutput)")
        }
        #expect(server.received.contains { $0.path.hasPrefix("/styles/v1/mapsim/standard") })
        let every = try await CommandRunner.run(["validate", "--deep", "--no-cache", file, "--mapbox-api-url", server.baseURL, "--access-token", "pk.test"])
        let lines = every.standardOutput.split(separator: "\n")
        #expect(every.status == 1 && !every.standardOutput.contains("the loader refuses"), "\(every.standardOutput)")
        // Native stops at the layer it cannot read; GL JS says what its check of the style says.
        #expect(lines.contains { $0.contains("maplibre-native: style: failed to parse the style") && $0.contains(#""model" is not one of"#) },
                "\(every.standardOutput)")
        #expect(lines.contains { $0.contains("maplibre-gl-js: style: the style") && $0.contains(#"does not load: layers[0].type: expected one of"#) && $0.hasSuffix(#""model" found"#) },
                "\(every.standardOutput)")
    }

    @Test func deepValidationNamesABrokenImportByItsChain() async throws {
        let server = try await FixtureServer.start(serving: Self.folder)
        defer { Task { await server.stop() } }
        let fixture = try FixtureDirectory()
        let file = try fixture.write("style.json", #"""
            {"version": 8, "imports": [{"id": "basemap", "url": "", "data": {"version": 8, "sources": {}, "layers": [],
              "imports": [{"id": "landmarks", "url": "mapbox://styles/mapsim/missing"}]}}], "sources": {}, "layers": []}
            """#)
        let result = try await CommandRunner.run(["validate", "--deep", "--no-cache", file] + Self.mapbox(server))
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("import basemap → landmarks: failed to load its style \(server.baseURL)/styles/v1/mapsim/missing"), "\(result.standardOutput)")
    }

    @Test func deepValidationLoadsWithTheConfigGivenAndRefusesItWithoutDeep() async throws {
        let file = Self.folder + "/style.json"
        var ranges: [String: Bool] = [:]
        for shown in [false, true] {
            let server = try await FixtureServer.start(serving: Self.folder)
            let result = try await CommandRunner.run(["validate", "--deep", "--no-cache", file, "--config", "basemap.showPointOfInterestLabels=\(shown)"]
                                                     + Self.mapbox(server, engine: "mapbox-gl-js"))
            #expect(result.status == 0, "\(result.standardOutput)")
            ranges["\(shown)"] = server.received.contains { $0.path.contains("/256-511.pbf") }
            await server.stop()
        }
        // The points of interest's names need a range the rest of the map does not.
        #expect(ranges == ["false": false, "true": true])
        let refused = try await CommandRunner.run(["validate", file, "--config", "basemap.showPlaceLabels=false"])
        #expect(refused.status == 64 && refused.standardError.contains("--config sets config values for the load --deep makes"), "\(refused.standardError)")
    }
}
