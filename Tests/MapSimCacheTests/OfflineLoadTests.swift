import Foundation
import GRDB
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimCache
@testable import MapSimHTTP

/// The whole stack: a map loading the sample style from a real HTTP server through a real SQLite
/// cache, then offline, then back online.
@Suite("OfflineLoad", .serialized)
struct OfflineLoadTests {
    private struct Run {
        var recorder: EventRecorder
        var outcome: Map.RunOutcome
        var map: Map
    }

    private func load(_ url: String, cache: OfflineDatabase?, network: HTTPResourceLoader, offline: Bool = false) async -> Run {
        let map = Map(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), cache: cache, network: network))
        let recorder = EventRecorder(map)
        if offline { await map.setOffline(true) }
        await map.setStyleURI(url)
        let outcome = await map.run(until: .mapIdle, timeout: .seconds(30))
        return Run(recorder: recorder, outcome: outcome, map: map)
    }

    private func requests(_ run: Run) -> [ResourceRequest] {
        run.recorder.payloads(of: MapEvents.resourceRequest)
    }

    @Test func aWarmCacheLoadsOfflineWithoutTouchingTheServer() async throws {
        let server = try await FixtureServer.start(serving: SampleStyle.folder)
        let network = HTTPResourceLoader()
        let fixture = try FixtureDirectory()
        let cache = try OfflineDatabase(path: fixture.path + "/cache.db")
        let url = server.baseURL + "/style.json"

        let cold = await load(url, cache: cache, network: network)
        #expect(cold.outcome == .reached(SimTime(microseconds: 333_333)))
        #expect(requests(cold).allSatisfy { $0.dataSource == .network && $0.response?.error == nil })
        #expect(server.requestCount == 11)

        let warm = await load(url, cache: cache, network: network)
        guard case .reached = warm.outcome else { Issue.record("warm run: \(warm.outcome)"); return }
        let warmRequests = requests(warm)
        #expect(warmRequests.filter { $0.dataSource == .database }.count == 11)
        #expect(warmRequests.filter { $0.dataSource == .network }.allSatisfy { $0.response?.notModified == true && $0.request.priority == .low })
        #expect(server.received.suffix(11).allSatisfy { $0.headers["if-none-match"] != nil })
        #expect(server.requestCount == 22)

        let offline = await load(url, cache: cache, network: network, offline: true)
        #expect(offline.outcome == .reached(SimTime(microseconds: 333_333)))
        #expect(server.requestCount == 22, "nothing went to the server")
        #expect(offline.recorder.events(of: .mapLoadingError).isEmpty)
        try await network.shutdown()
        await server.stop()
    }

    @Test func aPartialCacheReportsMissingTilesGoesIdleAndLoadsThemBackOnline() async throws {
        let server = try await FixtureServer.start(serving: SampleStyle.folder)
        let network = HTTPResourceLoader()
        let fixture = try FixtureDirectory()
        let cache = try OfflineDatabase(path: fixture.path + "/cache.db")
        let url = server.baseURL + "/style.json"
        _ = await load(url, cache: cache, network: network)
        await cache.flush()
        try await DatabaseQueue(path: cache.path).write { try $0.execute(sql: "DELETE FROM tiles WHERE x = 164") }

        let offline = await load(url, cache: cache, network: network, offline: true)
        #expect(offline.outcome == .reached(SimTime(microseconds: 333_333)), "offline, the map still goes idle")
        let missing = offline.recorder.payloads(of: MapEvents.mapLoadingError)
        #expect(missing.map(\.type) == [.tile, .tile])
        #expect(missing.compactMap(\.tileID?.x) == [164, 164])
        let offlineErrors = requests(offline).compactMap(\.response?.error?.reason)
        #expect(offlineErrors == [.inOfflineMode, .inOfflineMode])
        let before = server.requestCount

        await offline.map.setOffline(false)
        _ = await offline.map.run(until: .mapIdle, timeout: .seconds(30))
        let reloaded = offline.recorder.payloads(of: MapEvents.sourceDataLoaded).filter { $0.type == .tile }.compactMap(\.tileID?.x)
        #expect(reloaded.filter { $0 == 164 }.count == 2, "the missing tiles load once back online")
        // Every request that failed offline restarts: 8 revalidations of cached copies, 2 missing tiles.
        let restarted = server.received.dropFirst(before)
        #expect(restarted.count == 11)
        #expect(restarted.filter { $0.headers["if-none-match"] == nil }.map(\.path).sorted() == ["/tiles/10/164/395.pbf", "/tiles/10/164/396.pbf"])
        try await network.shutdown()
        await server.stop()
    }

    @Test func aTileJSONServerErrorIsRetriedAndTheMapRecovers() async throws {
        let server = try await FixtureServer.start(serving: SampleStyle.folder)
        server.reply("/tiles.json", with: .status(500), times: 2)
        let network = HTTPResourceLoader()
        let run = await load(server.baseURL + "/style.json", cache: nil, network: network)
        let errors = run.recorder.events(of: .mapLoadingError)
        #expect(errors.count == 2)
        #expect(errors.map(\.end) == [.zero, .seconds(1)], "retried after 1 s, then 1 s again")
        let metadata = try #require(run.recorder.events.first { MapEvents.sourceDataLoaded.payload(in: $0.payload)?.type == .metadata })
        #expect(metadata.end == .seconds(2))
        guard case .reached(let idle) = run.outcome else { Issue.record("not idle: \(run.outcome)"); return }
        #expect(idle > .seconds(2))
        #expect(server.received.filter { $0.path == "/tiles.json" }.count == 3)
        try await network.shutdown()
        await server.stop()
    }
}
