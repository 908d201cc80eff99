import Foundation
import Synchronization
import Testing
import MapSim
import MapSimCache
import MapSimHTTP
import MapSimJSON
import MapSimStyle
import MapSimTesting
@testable import MapSimServe

/// `mapsim serve --proxy --cache`: a style on another server, fetched once from its origin into a
/// MapLibre offline database, then served from that database alone, to a real map.
@Suite("Serving other servers' resources", .serialized)
struct RemoteResourcesTests {
    @Test func remoteURLsMapBelowTheServerAndBack() {
        #expect(RemoteResources.servedPath("https://tiles.example/v1/{z}/{x}/{y}.pbf?key=a%20b") == "_remote/https/tiles.example/v1/{z}/{x}/{y}.pbf?key=a%20b")
        #expect(RemoteResources.originalURL("/_remote/https/tiles.example/v1/1/2/3.pbf?key=a%20b") == "https://tiles.example/v1/1/2/3.pbf?key=a%20b")
        #expect(RemoteResources.servedPath("mapbox://styles/x") == nil && RemoteResources.servedPath("file:///a") == nil)
        #expect(RemoteResources.originalURL("/_remote/ftp/host/x") == nil && RemoteResources.originalURL("/tiles/1/2/3.pbf") == nil)
    }

    @Test func aProxyFillsTheCacheOnceAndTheCacheAloneServesTheMapOffline() async throws {
        let fixture = try FixtureDirectory()
        let databasePath = fixture.path + "/offline.db"
        let origin = try await FixtureServer.start(serving: SampleStyle.folder)
        let styleURL = origin.baseURL + "/style.json"

        // Through the proxy, twice: the origin sees each resource once.
        let http = HTTPResourceLoader()
        let database = try OfflineDatabase(path: databasePath)
        let proxy = try await StyleServer.start(.init(style: styleURL, port: 0, remote: RemoteResources(cache: database, origin: http))) { _ in }
        let style = try JSONParser.parse(await Self.fetch(proxy.baseURL + "style.json"))
        let remoteBase = proxy.baseURL + "_remote/http/127.0.0.1:\(origin.baseURL.split(separator: ":").last ?? "")/"
        #expect(style["sprite"] == .string(remoteBase + "sprite"))
        #expect(style["sources"]?["city"]?["url"] == .string(remoteBase + "tiles.json"))
        let tileJSON = try JSONParser.parse(await Self.fetch(remoteBase + "tiles.json"))
        #expect(tileJSON["tiles"] == .array([.string(remoteBase + "tiles/{z}/{x}/{y}.pbf")]))
        let first = try await Self.load(proxy.baseURL + "style.json")
        let second = try await Self.load(proxy.baseURL + "style.json")
        #expect(first.reachedIdle && second.reachedIdle && first.failures == 0 && second.failures == 0)
        await proxy.stop()
        await database.flush()
        try await http.shutdown()
        let fetched = origin.received.map(\.path)
        #expect(Set(fetched).count == fetched.count, "each resource fetched once: \(fetched.sorted())")
        #expect(fetched.contains("/tiles/10/163/395.pbf") && fetched.contains("/style.json"))
        await origin.stop()

        // The origin is gone: the database alone serves the map, with the tiles the proxy kept.
        let events = Mutex<[MapEvent]>([])
        let cacheOnly = try await StyleServer.start(.init(style: styleURL, port: 0,
                                                          remote: RemoteResources(cache: try OfflineDatabase(path: databasePath, options: .init(readOnly: true)),
                                                                                  origin: nil))) { event in events.withLock { $0.append(event) } }
        let offline = try await Self.load(cacheOnly.baseURL + "style.json")
        #expect(offline.reachedIdle && offline.failures == 0)
        // A tile the proxy never fetched is not there: 404, which a map takes as no content.
        let missing = try await Self.status(cacheOnly.baseURL + "_remote/http/127.0.0.1:1/tiles/3/0/0.pbf")
        await cacheOnly.stop()
        #expect(missing == 404)
        let requests = events.withLock { $0 }.compactMap { event -> ResourceRequest? in
            if case .resourceRequest(let request) = event.payload { request } else { nil }
        }
        #expect(requests.filter { $0.request.kind == .tile && $0.response?.error == nil }.count == 5, "the view's four tiles and the one MapLibre Native prefetches four zooms below")
        #expect(requests.contains { $0.request.tileData?.id == CanonicalTileID(z: 10, x: 163, y: 395) })
    }

    @Test func aStyleOnAnotherServerNeedsACacheOrAnOriginAndWhatIsNotThereIsNamed() async throws {
        await #expect { _ = try await StyleServer.start(.init(style: "http://127.0.0.1:1/style.json", port: 0)) { _ in } } throws: {
            "\($0)".contains("--cache") && "\($0)".contains("--proxy")
        }
        let fixture = try FixtureDirectory()
        let empty = try OfflineDatabase(path: fixture.path + "/empty.db")
        await #expect { _ = try await StyleServer.start(.init(style: "http://127.0.0.1:1/style.json", port: 0,
                                                             remote: RemoteResources(cache: empty, origin: nil))) { _ in } } throws: {
            "\($0)".contains("http://127.0.0.1:1/style.json") && "\($0)".contains("not in the cache")
        }
    }

    /// What a map does through the server: whether it went idle, and how many requests failed.
    static func load(_ url: String) async throws -> (reachedIdle: Bool, failures: Int) {
        let network = HTTPResourceLoader()
        let map = Map(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), cache: nil, network: network))
        let failures = Mutex(0)
        let subscription = map.subscribeAll { event in
            if case .resourceRequest(let request) = event.payload, request.response?.error != nil { failures.withLock { $0 += 1 } }
        }
        await map.setStyleURI(url)
        let outcome = await map.run(until: .mapIdle, timeout: .seconds(60))
        subscription.cancel()
        try await network.shutdown()
        if case .reached = outcome { return (true, failures.withLock { $0 }) }
        return (false, failures.withLock { $0 })
    }

    static func fetch(_ url: String) async throws -> [UInt8] {
        let network = HTTPResourceLoader()
        let response = await network.load(Resource(url: url, kind: .unknown))
        try await network.shutdown()
        return response.data ?? []
    }

    static func status(_ url: String) async throws -> Int {
        let network = HTTPResourceLoader()
        let response = await network.load(Resource(url: url, kind: .source))
        try await network.shutdown()
        return response.error?.message.contains("404") == true ? 404 : response.error == nil ? 200 : 0
    }
}
