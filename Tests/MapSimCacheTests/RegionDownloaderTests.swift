import Foundation
import Synchronization
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimCache
@testable import MapSimStyle

@Suite("RegionDownloader")
struct RegionDownloaderTests {
    private let network = SimulatedNetwork(mirrors: [.init(prefix: "https://maps.test/", directory: SampleStyle.folder)])
    private let region = RegionDefinition(styleURL: "https://maps.test/style.json",
                                          bounds: LngLatBounds(west: -122.62, south: 37.70, east: -122.28, north: 37.90), minZoom: 0, maxZoom: 11)

    private func downloader(_ cache: SQLiteCache) -> RegionDownloader {
        RegionDownloader(cache: cache, backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), cache: cache, network: network),
                         timing: ImmediateDelivery())
    }

    @Test func downloadsEverythingPinnedWithProgress() async throws {
        let fixture = try FixtureDirectory()
        let cache = try SQLiteCache(path: fixture.path + "/cache.db")
        let reports = Mutex<[RegionProgress]>([])
        let (id, progress) = try await downloader(cache).download(region) { report in reports.withLock { $0.append(report) } }
        let tileFiles = try FileManager.default.subpathsOfDirectory(atPath: SampleStyle.folder + "/tiles").filter { $0.hasSuffix(".pbf") }
        // The style, two sprite parts, 256 glyph ranges, the TileJSON and every tile.
        #expect(progress.requiredResources == 1 + 2 + 256 + 1 + tileFiles.count)
        #expect(progress.isComplete && progress.failures.isEmpty)
        let stats = try cache.statistics()
        #expect(stats.tiles == tileFiles.count && stats.regions == 1)
        #expect(stats.pinnedEntries == stats.tiles + stats.resources)
        let seen = reports.withLock { $0 }
        #expect(seen.count > 100)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.completedResources <= $1.completedResources })
        #expect(try cache.regions().map(\.id) == [id])
    }

    @Test func pinnedRegionsSurviveEviction() async throws {
        let fixture = try FixtureDirectory()
        let cache = try SQLiteCache(path: fixture.path + "/cache.db", options: .init(maximumSize: 400 * 1024))
        _ = try await downloader(cache).download(region)
        let pinned = try cache.statistics().tiles
        for x in 0..<60 {
            let id = CanonicalTileID(z: 14, x: x, y: 0)
            cache.store(Resource(url: "https://other/\(x)", kind: .tile, tileData: .init(urlTemplate: "https://other/{z}/{x}/{y}", pixelRatio: 1, id: id)),
                        .success([UInt8](repeating: 1, count: 20_000), source: .network))
        }
        #expect(try cache.statistics().databaseBytes <= 400 * 1024)
        #expect(try cache.statistics().pinnedEntries >= pinned)
        let tile = Resource(url: "https://maps.test/tiles/11/327/791.pbf", kind: .tile,
                            tileData: .init(urlTemplate: "https://maps.test/tiles/{z}/{x}/{y}.pbf", pixelRatio: 1, id: CanonicalTileID(z: 11, x: 327, y: 791)))
        #expect(await cache.load(tile).error == nil)
    }

    @Test func aMissingStyleIsAnError() async throws {
        let fixture = try FixtureDirectory()
        let cache = try SQLiteCache(path: fixture.path + "/cache.db")
        var missing = region
        missing.styleURL = "https://maps.test/none.json"
        await #expect(throws: CacheError.self) {
            _ = try await downloader(cache).download(missing)
        }
    }
}
