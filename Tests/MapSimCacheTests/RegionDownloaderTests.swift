import Foundation
import GRDB
import Synchronization
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimCache
@testable import MapSimHTTP
@testable import MapSimStyle

/// Offline regions end to end: the sample style downloaded over real HTTP on loopback into a real
/// offline database, resumed, checked, loaded offline, deleted and merged.
@Suite("Offline regions", .serialized)
struct RegionDownloaderTests {
    /// San Francisco, zooms 0–11: every tile of the sample style.
    private static let bounds = LngLatBounds(west: -122.62, south: 37.70, east: -122.28, north: 37.90)

    private struct Setup {
        var server: FixtureServer
        var network: HTTPResourceLoader
        var fixture: FixtureDirectory
        var database: OfflineDatabase

        var styleURL: String { server.baseURL + "/style.json" }

        func definition(minZoom: Double = 0, maxZoom: Double = 11, bounds: LngLatBounds = RegionDownloaderTests.bounds) throws -> OfflineRegionDefinition {
            try OfflineRegionDefinition(styleURL: styleURL, area: .bounds(bounds), minZoom: minZoom, maxZoom: maxZoom)
        }

        func download(_ region: OfflineRegion, into database: OfflineDatabase? = nil, glyphs: RegionDownloader.GlyphChoice = .all,
                      delivery: AnswerOrder = .deterministic, observe: @escaping @Sendable (MapEvent) -> Void = { _ in }) async throws -> RegionDownloader.Result {
            let target = database ?? self.database
            return try await RegionDownloader(database: target, backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), cache: target, network: network),
                                              timing: ImmediateDelivery(), loading: .init(wallClock: .today()), glyphs: glyphs, delivery: delivery)
                .download(region, observe: observe)
        }

        func stop() async throws {
            try await network.shutdown()
            await server.stop()
        }
    }

    /// Runs `body` with a server, a client and a database, and stops the server and the client
    /// whatever happens.
    private func withSetup(_ body: (Setup) async throws -> Void) async throws {
        let fixture = try FixtureDirectory()
        let setup = Setup(server: try await FixtureServer.start(serving: SampleStyle.folder), network: HTTPResourceLoader(), fixture: fixture,
                          database: try OfflineDatabase(path: fixture.path + "/app.db"))
        do {
            try await body(setup)
        } catch {
            try await setup.stop()
            throw error
        }
        try await setup.stop()
    }

    private func check(_ setup: Setup, _ definition: OfflineRegionDefinition) throws -> RegionCheck.Report {
        try RegionCheck(database: setup.database, definition: definition, now: WallClock.today().start).run()
    }

    /// In order on a simulated network, or as answers arrive on the real one (as `region download`
    /// takes them), the database's lookups then done beside the loop.
    @Test(arguments: [AnswerOrder.deterministic, .onArrival])
    func downloadsTheRegionAndAMapLoadsItOffline(delivery: AnswerOrder) async throws {
        try await withSetup { setup in
            let region = try setup.database.createRegion(try setup.definition(), metadata: Array("San Francisco".utf8))
            let events = Mutex<[MapEvent]>([])
            let result = try await setup.download(region, delivery: delivery) { event in events.withLock { $0.append(event) } }
            #expect(result.stopReason == nil && result.failures.isEmpty && !result.wasInterrupted)
            let status = result.status
            #expect(status.isComplete && status.requiredResourceCountIsPrecise && status.downloadState == .inactive)
            let tiles = status.completedTileCount
            // The style, its TileJSON, four sprite parts, the 130 glyph ranges MapLibre downloads (no
            // CJK ideographs), and the tiles.
            #expect(status.completedResourceCount == 1 + 1 + 4 + 130 + tiles)
            let statuses = events.withLock { $0 }.compactMap { event -> OfflineRegionStatus? in
                if case .offlineRegion(.statusChanged(region.id, let status)) = event.payload { status } else { nil }
            }
            #expect(statuses.first?.downloadState == .active && statuses.last == status)
            #expect(zip(statuses, statuses.dropFirst()).allSatisfy { $0.completedResourceCount <= $1.completedResourceCount })
            #expect(setup.server.requestCount == status.completedResourceCount)

            // As MapLibre's getStatus: required counts from the stored style and TileJSON, every glyph
            // range; the download's last word is this status.
            let stored = try setup.database.status(of: region)
            #expect(stored.completedResourceCount == status.completedResourceCount && stored.completedTileSize == status.completedTileSize)
            #expect(stored.requiredResourceCount == 1 + 1 + 4 + 130 + stored.requiredTileCount && stored.requiredResourceCountIsPrecise)

            #expect(try check(setup, try setup.definition()).isComplete)

            let map = Map(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), cache: setup.database, network: setup.network))
            let recorder = EventRecorder(map)
            await map.setOffline(true)
            await map.setCamera(CameraOptions(center: LngLat(longitude: -122.45, latitude: 37.8), zoom: 11.5))
            await map.setStyleURI(setup.styleURL)
            let outcome = await map.run(until: .mapIdle, timeout: .seconds(30))
            guard case .reached = outcome else {
                Issue.record("\(outcome)")
                return
            }
            #expect(recorder.events(of: .mapLoadingError).isEmpty)
            #expect(recorder.payloads(of: MapEvents.resourceRequest).allSatisfy { $0.response?.source == .cache })
        }
    }

    @Test(arguments: [AnswerOrder.deterministic, .onArrival])
    func anInterruptedDownloadResumesWithOnlyWhatIsMissing(delivery: AnswerOrder) async throws {
        try await withSetup { setup in
            let region = try setup.database.createRegion(try setup.definition(), metadata: nil)
            let seen = Mutex(0)
            let task = Task {
                try await setup.download(region, delivery: delivery) { event in
                    guard case .offlineRegion(.statusChanged) = event.payload else { return }
                    if seen.withLock({ $0 += 1; return $0 }) == 20 { withUnsafeCurrentTask { $0?.cancel() } }
                }
            }
            let first = try await task.value
            #expect(first.wasInterrupted && first.stopReason == "interrupted")
            let firstRequests = setup.server.received.map(\.path)
            let partial = try setup.database.completedStatus(of: region.id)
            let storedPaths = try Self.storedPaths(setup.database)
            #expect(!storedPaths.isEmpty && storedPaths.isSubset(of: firstRequests), "what was stored was asked for: \(storedPaths.subtracting(firstRequests).sorted())")
            #expect(partial.completedResourceCount > 0 && partial.completedResourceCount < 40, "\(partial)")
            let second = try await setup.download(region, delivery: delivery)
            #expect(second.status.isComplete && second.failures.isEmpty)
            let again = Set(setup.server.received.map(\.path).dropFirst(firstRequests.count)).intersection(firstRequests)
            #expect(again.isDisjoint(with: storedPaths), "nothing stored is asked again: \(again.intersection(storedPaths).sorted())")
            // Over the real network, a request under way when the download stopped reached the
            // server; its answer was not stored, so it is asked again.
            #expect(again.filter { !$0.hasPrefix("/glyphs/") }.count <= (delivery == .onArrival ? RequestPipeline.Configuration.defaultMaximumConcurrentRequests : 0),
                    "only the glyph ranges the server lacks are asked again, and what was under way: \(again.sorted())")
            // A complete region is resumed from the database alone.
            let before = setup.server.requestCount
            let third = try await setup.download(region, delivery: delivery)
            #expect(third.status.completedResourceCount == second.status.completedResourceCount)
            #expect(setup.server.received.dropFirst(before).allSatisfy { $0.path.hasPrefix("/glyphs/") })
        }
    }

    /// The server paths of the sample's rows a database holds.
    private static func storedPaths(_ database: OfflineDatabase) throws -> Set<String> {
        let queue = try DatabaseQueue(path: database.path)
        return try queue.read { db in
            let resources = try String.fetchAll(db, sql: "SELECT url FROM resources").compactMap { URL(string: $0)?.path(percentEncoded: true) }
            let tiles = try Row.fetchAll(db, sql: "SELECT z, x, y FROM tiles").map { row -> String in
                let (z, x, y): (Int, Int, Int) = (row[0], row[1], row[2])
                return "/tiles/\(z)/\(x)/\(y).pbf"
            }
            return Set(resources + tiles)
        }
    }

    /// A file damaged under a download (by another program) fails the lookup the download makes
    /// next: the download ends at once with the error, in either mode, and never waits for a lookup
    /// that failed beside its loop.
    @Test(.timeLimit(.minutes(1)), arguments: [AnswerOrder.deterministic, .onArrival])
    func aDatabaseDamagedUnderADownloadEndsItWithTheError(delivery: AnswerOrder) async throws {
        try await withSetup { setup in
            let region = try setup.database.createRegion(try setup.definition(), metadata: nil)
            await setup.database.flush()
            let path = setup.database.path
            let damaged = Mutex(false)
            do {
                _ = try await setup.download(region, delivery: delivery) { _ in
                    // The first status comes before the first lookup.
                    guard !damaged.withLock({ done in defer { done = true }; return done }) else { return }
                    Self.damage(path)
                }
                Issue.record("the download ended without an error")
            } catch let error as CacheError {
                #expect(error.code == .damaged && error.message.contains(path), "\(error)")
            }
            #expect(setup.server.requestCount == 0, "nothing was asked of the server")
        }
    }

    /// Overwrites every page but the first with garbage and marks the file changed, as another
    /// program's damage would be seen by a connection that has it open.
    private static func damage(_ path: String) {
        guard let file = FileHandle(forUpdatingAtPath: path) else {
            Issue.record("cannot open \(path)")
            return
        }
        defer { try? file.close() }
        let size = (try? file.seekToEnd()) ?? 0
        try? file.seek(toOffset: 4_096)
        file.write(Data(repeating: 0xA5, count: Int(size) - 4_096))
        try? file.seek(toOffset: 24)
        file.write(Data([0x7F, 0x7F, 0x7F, 0x7F]))
    }

    @Test func checkNamesWhatWasRemovedByHandAndWhatExpired() async throws {
        try await withSetup { setup in
            let definition = try setup.definition()
            let region = try setup.database.createRegion(definition, metadata: nil)
            _ = try await setup.download(region)
            await setup.database.flush()
            // As by hand, in sqlite3, whose foreign keys are off.
            var configuration = Configuration()
            configuration.foreignKeysEnabled = false
            let raw = try DatabaseQueue(path: setup.database.path, configuration: configuration)
            try await raw.write { db in
                try db.execute(sql: "DELETE FROM tiles WHERE z = 11 AND x = 327 AND y = 791")
                try db.execute(sql: "DELETE FROM tiles WHERE z = 4 AND x = 2 AND y = 6")
                try db.execute(sql: "DELETE FROM resources WHERE url LIKE '%/256-511.pbf'")
            }
            let report = try check(setup, definition)
            #expect(!report.isComplete)
            #expect(report.missing.filter { $0.kind == .tile }.compactMap(\.tile?.description) == ["4/2/6", "11/327/791"])
            #expect(report.missing.filter { $0.kind == .glyphs }.map(\.url) == [setup.server.baseURL + "/glyphs/Mapsim%20Sans%20Regular/256-511.pbf"])
            #expect(report.zooms.first { $0.zoom == 11 }?.missingTiles == 1 && report.zooms.first { $0.zoom == 4 }?.missingTiles == 1)
            #expect(report.zooms.reduce(0) { $0 + $1.missingGlyphRanges } == 1)
            try await setup.database.invalidateRegion(region.id)
            let expired = try check(setup, definition)
            #expect(expired.missing.first?.kind == .style, "an expired row to revalidate cannot be used offline")
        }
    }

    @Test func deleteRemovesWhatNoOtherRegionHolds() async throws {
        try await withSetup { setup in
            let big = try setup.database.createRegion(try setup.definition(maxZoom: 11), metadata: nil)
            let small = try setup.database.createRegion(try setup.definition(minZoom: 0, maxZoom: 4), metadata: nil)
            _ = try await setup.download(big)
            _ = try await setup.download(small)
            let smallStatus = try setup.database.completedStatus(of: small.id)
            let removed = try await setup.database.deleteRegion(big.id)
            #expect(removed > 0)
            #expect(try setup.database.regions().map(\.id) == [small.id])
            #expect(try setup.database.completedStatus(of: small.id) == smallStatus, "what the other region holds stays")
            let stats = try setup.database.statistics()
            #expect(stats.resources + stats.tiles == smallStatus.completedResourceCount && stats.ambientRows == 0)
        }
    }

    @Test func mergeSideLoadsAnotherDatabasesRegions() async throws {
        try await withSetup { setup in
            let side = try OfflineDatabase(path: setup.fixture.path + "/side.db")
            let downloaded = try side.createRegion(try setup.definition(), metadata: Array("from the side".utf8))
            _ = try await setup.download(downloaded, into: side)
            side.store(Resource.style(setup.server.baseURL + "/ambient.json"), .success([1], source: .network))
            await side.flush()
            let own = try setup.database.createRegion(try setup.definition(maxZoom: 2), metadata: nil)
            let merged = try await setup.database.mergeRegions(from: side.path)
            #expect(merged.map(\.metadataText) == ["from the side"] && merged.first?.id != own.id)
            #expect(try setup.database.regions().count == 2)
            let mergedID = try #require(merged.first?.id)
            #expect(try setup.database.completedStatus(of: mergedID) == side.completedStatus(of: downloaded.id))
            #expect(await setup.database.load(.style(setup.server.baseURL + "/ambient.json")).error?.reason == .notFound, "the side's ambient cache stays behind")
            #expect(try check(setup, try setup.definition()).isComplete)
            #expect(try await setup.database.mergeRegions(from: side.path).map(\.id) == [mergedID], "merging again repeats nothing")
            #expect(try setup.database.regions().count == 2)
        }
    }

    @Test func mergeChecksTheOtherFileFirst() async throws {
        let fixture = try FixtureDirectory()
        let database = try OfflineDatabase(path: fixture.path + "/app.db")
        let old = fixture.path + "/v5.db"
        try await DatabaseQueue(path: old).writeWithoutTransaction { db in
            try db.execute(sql: OfflineSchema.mapLibreTables.replacingOccurrences(of: "  must_revalidate INTEGER NOT NULL DEFAULT 0,\n", with: ""))
            try db.execute(sql: "PRAGMA user_version = 5")
        }
        await #expect {
            _ = try await database.mergeRegions(from: old)
        } throws: { error in
            (error as? CacheError)?.message.contains("schema version 5") == true
        }
        let garbage = try fixture.write("garbage.db", String(repeating: "garbage ", count: 600))
        await #expect(throws: CacheError.self) { _ = try await database.mergeRegions(from: garbage) }
        #expect(FileManager.default.fileExists(atPath: garbage), "the other file is only read, never set aside")
        // Regions whose mapbox:// tiles would pass the limit are refused, with nothing changed.
        let side = fixture.path + "/mapbox.db"
        try await DatabaseQueue(path: side).writeWithoutTransaction { db in
            try db.execute(sql: OfflineSchema.mapLibreTables)
            try db.execute(sql: "PRAGMA user_version = 6")
            try db.execute(sql: "INSERT INTO regions (definition) VALUES ('{}')")
            for x in 0..<5 {
                try db.execute(sql: "INSERT INTO tiles (url_template, pixel_ratio, z, x, y, accessed) VALUES ('mapbox://tiles/a.b/{z}/{x}/{y}.vector.pbf', 1, 3, ?, 0, 1)",
                               arguments: [x])
                try db.execute(sql: "INSERT INTO region_tiles (region_id, tile_id) VALUES (1, ?)", arguments: [x + 1])
            }
        }
        let limited = try OfflineDatabase(path: fixture.path + "/limited.db", options: .init(mapboxTileCountLimit: 4))
        await #expect {
            _ = try await limited.mergeRegions(from: side)
        } throws: { error in
            (error as? CacheError)?.code == .tileLimitExceeded
        }
        #expect(try limited.regions().isEmpty)
    }

    @Test func regionsSurviveEvictionOfTheAmbientCache() async throws {
        try await withSetup { setup in
            let database = try OfflineDatabase(path: setup.fixture.path + "/small.db", options: .init(maximumAmbientCacheSize: 100_000))
            let region = try database.createRegion(try setup.definition(), metadata: nil)
            _ = try await setup.download(region, into: database)
            let held = try database.statistics().regionRows
            for x in 0..<60 {
                var response = Response.success(OfflineDatabaseTests.noise(20_000, seed: UInt64(x)), source: .network)
                response.expires = nil
                database.store(.tile(TileURLTemplate("https://other/{z}/{x}/{y}"), id: CanonicalTileID(z: 14, x: x, y: 0), pixelRatio: 1), response)
            }
            await database.flush()
            let stats = try database.statistics()
            #expect(stats.ambientBytes <= 100_000 && stats.regionRows == held)
            #expect(try RegionCheck(database: database, definition: try setup.definition(), now: WallClock.today().start).run().isComplete)
        }
    }
}
