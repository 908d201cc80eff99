import Foundation
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimCache
@testable import MapSimKit

@Suite("LoadingEnvironment")
struct LoadingEnvironmentTests {
    private let style = "https://maps.test/style.json"
    private let mirror = SimulatedNetwork.Mirror(prefix: "https://maps.test/", directory: SampleStyle.folder)

    private func environment(_ network: LoadingEnvironment.NetworkChoice, cache: LoadingEnvironment.CacheChoice = .none,
                             startsOffline: Bool = false) -> LoadingEnvironment {
        LoadingEnvironment(.init(cache: cache, network: network, startsOffline: startsOffline), styleURL: style)
    }

    @Test func theOfflinePresetAndTheOfflineFlagStartMapsOffline() async {
        let preset = environment(.simulated(.init(preset: .offline, mirrors: [mirror])))
        #expect(preset.mapOptions.loading.startsOffline)
        #expect(await preset.makeMap().isOffline)
        let flag = environment(.simulated(.init(preset: .lan, mirrors: [mirror])), startsOffline: true)
        #expect(await flag.makeMap().isOffline)
        let online = environment(.simulated(.init(preset: .threeG, mirrors: [mirror])))
        #expect(await !online.makeMap().isOffline)
    }

    @Test func theRealNetworkRunsOnTodaysDateAndASimulatedOneOnAFixedDate() {
        let simulated = environment(.simulated(.init(offlineWindows: [SimTime.seconds(1)..<SimTime.seconds(2)])))
        #expect(simulated.mapOptions.loading.wallClock == WallClock.simulated)
        #expect(simulated.mapOptions.loading.offlineWindows == [SimTime.seconds(1)..<SimTime.seconds(2)])
        let real = environment(.real())
        let today = WallClock.today().start.secondsSince1970
        #expect(abs(real.mapOptions.loading.wallClock.start.secondsSince1970 - today) <= 5)
        #expect(real.makeMap().clock == real.mapOptions.loading.wallClock, "the map reckons with the environment's clock")
    }

    @Test func aMapOnTheSimulatedNetworkLoadsOnTheVirtualClock() async {
        let environment = environment(.simulated(.init(preset: .fourG, mirrors: [mirror])))
        let map = environment.makeMap()
        await map.setStyleURI(style)
        guard case .reached(let time) = await map.run(until: .mapIdle, timeout: .seconds(60)) else {
            Issue.record("the sample style did not go idle")
            return
        }
        // Four round trips of 170 ms at least: style, then sprite and TileJSON, then tiles, then glyphs.
        #expect(time > .milliseconds(4 * 170))
        await environment.shutdown()
    }

    @Test func withoutACacheNothingIsCached() {
        let environment = environment(.simulated(.init()))
        #expect(environment.cache == nil && environment.backends.cache == nil && environment.warnings.isEmpty)
    }

    @Test func aCacheFileAskedForInAFolderThatIsNoneIsAnErrorNamingIt() async throws {
        let fixture = try FixtureDirectory()
        try fixture.write("file", "not a folder")
        let environment = environment(.simulated(.init(mirrors: [mirror])), cache: .file(fixture.path + "/file/cache.db"))
        #expect(environment.cache == nil && environment.warnings.isEmpty)
        #expect(environment.cacheError?.message.hasSuffix("\(fixture.path)/file is not a folder") == true, "\(String(describing: environment.cacheError))")
        let missing = self.environment(.simulated(.init(mirrors: [mirror])), cache: .file(fixture.path + "/none/cache.db"))
        #expect(missing.cacheError?.message.hasSuffix("the folder \(fixture.path)/none does not exist") == true)
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/none"), "no folder is made for a file asked for")
    }

    @Test func theFaultlessEnvironmentSharesTheCacheAndDropsFaultsAndOutages() async throws {
        let fixture = try FixtureDirectory()
        let faults = [FaultRule(pattern: URLPattern("*"), effect: .status(503, headers: []))]
        let environment = environment(.simulated(.init(preset: .offline, mirrors: [mirror], faults: faults, offlineWindows: [SimTime.zero..<SimTime.seconds(5)])),
                                      cache: .file(fixture.path + "/cache.db"))
        let faultless = environment.faultless
        #expect(faultless.cache === environment.cache)
        #expect(!faultless.mapOptions.loading.startsOffline && faultless.mapOptions.loading.offlineWindows.isEmpty)
        let map = faultless.makeMap()
        await map.setStyleURI(style)
        let outcome = await map.run(until: .mapIdle, timeout: .seconds(60))
        guard case .reached = outcome else {
            Issue.record("the faultless map did not go idle: \(outcome)")
            return
        }
        await faultless.shutdown()
        #expect(try #require(environment.cache).statistics().tiles == 5, "four tiles and the prefetched one")
    }

    @Test func assetURLsResolveUnderTheStylesFolderUnlessToldOtherwise() async throws {
        let environment = LoadingEnvironment(.init(cache: .none, network: .simulated(.init())), styleURL: SampleStyle.url)
        let sprite = await environment.backends.file.load(.spriteJSON(base: "asset://sprite", pixelRatio: 1))
        #expect(sprite.error == nil && sprite.data != nil)
        let elsewhere = LoadingEnvironment(.init(assetRoot: "/", cache: .none, network: .simulated(.init())), styleURL: SampleStyle.url)
        #expect(await elsewhere.backends.file.load(.spriteJSON(base: "asset://sprite", pixelRatio: 1)).error?.reason == .notFound)
    }

    @Test func aRegionNeedsACache() async {
        let environment = environment(.simulated(.init(mirrors: [mirror])))
        let region = OfflineRegion(id: 1, encodedDefinition: try! OfflineRegionDefinition(styleURL: style, area: .bounds(.world), minZoom: 0, maxZoom: 0).encoded,
                                   metadata: nil)
        await #expect { try await environment.downloadRegion(region) } throws: { ($0 as? CacheError)?.code == .cannotWrite }
    }
}
