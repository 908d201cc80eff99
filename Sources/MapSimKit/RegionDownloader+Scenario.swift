import MapSim
import MapSimCache
import MapSimTrace
import MapSimTrace

extension RegionDownloader {
    /// Downloads a scenario's offline region, for `ScenarioRunner.downloadRegion`; the cache must be
    /// an `SQLiteCache`.
    @Sendable public static func forScenario(style: String, region: Scenario.Region, network: any ResourceLoader, cache: any ResourceCache) async throws {
        guard let sqlite = cache as? SQLiteCache else { throw CacheError("offline regions need an SQLite cache") }
        let definition = RegionDefinition(styleURL: style, bounds: region.bounds, minZoom: region.minZoom, maxZoom: region.maxZoom)
        let (_, progress) = try await RegionDownloader(cache: sqlite, file: FileResourceLoader(assetRoot: "/"), network: network).download(definition)
        guard progress.failures.isEmpty else { throw CacheError("the region download failed: \(progress.failures.joined(separator: "; "))") }
    }
}
