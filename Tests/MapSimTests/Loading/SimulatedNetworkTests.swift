import Testing
import MapSimTesting
@testable import MapSim

@Suite("SimulatedNetwork")
struct SimulatedNetworkTests {
    private func network(_ faults: [FaultRule] = []) -> SimulatedNetwork {
        SimulatedNetwork(mirrors: [.init(prefix: "https://maps.test/", directory: SampleStyle.folder)], faults: faults, cacheControl: "max-age=300")
    }

    @Test func servesMirroredFilesWithETagsAndConditionalRequests() async {
        let net = network()
        var resource = Resource(url: "https://maps.test/tiles.json?key=1", kind: .source)
        resource.issued = HTTPDate(secondsSince1970: 100)
        let first = await net.load(resource)
        #expect(first.error == nil && (first.data?.count ?? 0) > 100)
        #expect(first.etag != nil && first.expires == HTTPDate(secondsSince1970: 400))
        resource.prior = Resource.Prior(etag: first.etag)
        let second = await net.load(resource)
        #expect(second.notModified && second.data == nil)
    }

    @Test func missingFilesAreNotFoundAndMissingTilesNoContent() async {
        let net = network()
        #expect(await net.load(Resource(url: "https://maps.test/nope.json", kind: .style)).error?.reason == .notFound)
        #expect(await net.load(Resource(url: "https://maps.test/tiles/20/1/1.pbf", kind: .tile)).noContent)
        #expect(await net.load(Resource(url: "https://elsewhere.test/x", kind: .style)).error?.reason == .connection)
        #expect(net.localPath(for: "https://maps.test/../../etc/passwd") == nil)
    }

    @Test func faultRulesApplyPerURLAsManyTimesAsSaid() async {
        let net = network([
            FaultRule(pattern: URLPattern("*/tiles.json"), effect: .status(500), times: 2),
            FaultRule(pattern: URLPattern("*/sprite*"), effect: .dropConnection),
            FaultRule(pattern: URLPattern("*/tiles/*"), effect: .truncateBody),
        ])
        let tileJSON = Resource(url: "https://maps.test/tiles.json", kind: .source)
        #expect(await net.load(tileJSON).error?.reason == .server)
        #expect(await net.load(tileJSON).error?.reason == .server)
        #expect(await net.load(tileJSON).error == nil)
        #expect(await net.load(Resource(url: "https://maps.test/sprite.json", kind: .spriteJSON)).error?.reason == .connection)
        let whole = await network().load(Resource(url: "https://maps.test/tiles/10/163/395.pbf", kind: .tile))
        let truncated = await net.load(Resource(url: "https://maps.test/tiles/10/163/395.pbf", kind: .tile))
        #expect(truncated.size == whole.size / 2)
    }

    @Test func patternsMatchWithWildcards() {
        #expect(URLPattern("https://a/*.pbf").matches("https://a/1/2/3.pbf"))
        #expect(URLPattern("*tiles*").matches("https://x/tiles/1"))
        #expect(!URLPattern("*/tiles/*.png").matches("https://x/tiles/1.pbf"))
        #expect(URLPattern("https://a/b").matches("https://a/b") && !URLPattern("https://a/b").matches("https://a/bc"))
    }

    @Test func profilesDelayByRoundTripJitterAndBandwidth() {
        var threeG = NetworkPreset.threeG.profile(seed: 1)
        var again = NetworkPreset.threeG.profile(seed: 1)
        let response = Response.success([UInt8](repeating: 0, count: 200_000), source: .network)
        let resource = Resource(url: "https://h/t", kind: .tile)
        let delays = (0..<20).map { _ in threeG.delay(for: resource, response: response, measured: .zero) }
        #expect(delays == (0..<20).map { _ in again.delay(for: resource, response: response, measured: .zero) })
        #expect(delays.allSatisfy { $0 >= .milliseconds(1_300) && $0 <= .milliseconds(1_330) })
        #expect(Set(delays).count > 1)
        var lan = NetworkPreset.lan.profile()
        #expect(lan.delay(for: resource, response: .success([], source: .localFile), measured: .seconds(1)) == .zero)
    }

    @Test func offlineIsTheOnePresetThatStartsOfflineWithTheTimingOfALAN() {
        #expect(NetworkPreset.allCases.filter(\.startsOffline) == [.offline])
        #expect(NetworkPreset.names == ["lan", "wifi", "4g", "3g", "offline"] && NetworkPreset(rawValue: "5g") == nil)
        var offline = NetworkPreset.offline.profile(seed: 3)
        var lan = NetworkPreset.lan.profile(seed: 3)
        let response = Response.success([UInt8](repeating: 0, count: 1_000), source: .network)
        let resource = Resource.tile(TileURLTemplate("https://h/{z}/{x}/{y}"), id: CanonicalTileID(z: 0, x: 0, y: 0), pixelRatio: 1)
        for _ in 0..<5 {
            #expect(offline.delay(for: resource, response: response, measured: .zero) == lan.delay(for: resource, response: response, measured: .zero))
        }
    }
}
