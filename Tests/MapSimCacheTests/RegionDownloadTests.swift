import Foundation
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimCache
@testable import MapSimStyle

/// The region download machine, driven through the same `DriveLoop` its downloader uses, with canned
/// answers: one test per transition.
@Suite("RegionDownload")
struct RegionDownloadTests {
    private static let style = """
    {"version": 8, "sprite": "https://h/sprite", "glyphs": "https://h/{fontstack}/{range}.pbf",
     "sources": {"v": {"type": "vector", "url": "https://h/v.json"}},
     "layers": [{"id": "t", "type": "symbol", "source": "v", "source-layer": "l", "layout": {"text-field": "x", "text-font": ["A"]}}]}
    """
    private static let tileJSON = #"{"tiles": ["https://h/{z}/{x}/{y}.pbf"], "minzoom": 0, "maxzoom": 1}"#

    /// A download of zooms 0–1 of the whole world, its loads answered by `answer` (the network)
    /// after a cache that has only what `cached` holds; returns its outputs in order and the machine.
    private func run(cached: Set<String> = [], answer: @escaping @Sendable (Resource) -> Response = Self.serve)
        async -> (outputs: [RegionDownload.Output], loads: [Resource], machine: RegionDownload) {
        let region = RegionDefinition(styleURL: "https://h/style.json", bounds: LngLatBounds(west: -180, south: -85, east: 180, north: 85),
                                      minZoom: 0, maxZoom: 1)
        let loads = CannedLoads { resource in
            guard resource.loadingMethod == .cache else { return answer(resource) }
            return cached.contains(resource.url) ? .success([1], source: .cache) : .failure(.notFound, "miss", source: .cache)
        }
        let loop = DriveLoop(machine: RegionDownload(region: region, mapbox: MapboxURL(), loading: .init(), retries: 2),
                             loads: loads, timing: ImmediateDelivery())
        var outputs: [RegionDownload.Output] = []
        loop.feed(.start) { outputs.append($0) }
        await loop.run(until: .max) { outputs.append($0) }
        return (outputs, loads.started, loop.machine)
    }

    private static let serve: @Sendable (Resource) -> Response = { resource in
        switch resource.url {
        case "https://h/style.json": .success(Array(style.utf8), source: .network)
        case "https://h/v.json": .success(Array(tileJSON.utf8), source: .network)
        case let url where url.hasSuffix("/A/0-255.pbf"): .success([0x0A, 0x00], source: .network)
        case let url where url.contains("/A/"): .failure(.notFound, "no such range", source: .network)
        default: .success([1, 2, 3], source: .network)
        }
    }

    private func pinned(_ outputs: [RegionDownload.Output]) -> [String] {
        outputs.compactMap { if case .pin(let resource) = $0 { resource.url } else { nil } }
    }

    @Test func theStyleComesFirstAndItsTileJSONBringsItsTiles() async {
        let (outputs, loads, machine) = await run()
        #expect(loads.prefix(2).map(\.url) == ["https://h/style.json", "https://h/style.json"], "the cache, then the network")
        let pins = pinned(outputs)
        #expect(pins.first == "https://h/style.json")
        #expect(pins.contains("https://h/sprite.json") && pins.contains("https://h/sprite.png"))
        let tiles = pins.filter { $0.hasSuffix(".pbf") && !$0.contains("/A/") }
        #expect(tiles.count == 1 + 4, "zoom 0 and the four tiles of zoom 1")
        #expect(pins.firstIndex(of: "https://h/v.json")! < pins.firstIndex(of: tiles[0])!)
        #expect(machine.progress.isComplete && machine.progress.failures.isEmpty && machine.styleFailure == nil)
        // The style, two sprite parts, 256 glyph ranges, the TileJSON and five tiles.
        #expect(machine.progress.requiredResources == 1 + 2 + 256 + 1 + 5)
    }

    @Test func eachNetworkResponseIsStoredBeforeItIsPinned() async {
        let (outputs, _, _) = await run()
        for (index, output) in outputs.enumerated() {
            guard case .pin(let resource) = output else { continue }
            #expect(outputs[..<index].contains { if case .store(let stored, _) = $0 { stored.url == resource.url } else { false } }, "\(resource.url)")
        }
    }

    @Test func whatTheCacheHasIsPinnedWithoutARequest() async {
        let (outputs, loads, _) = await run(cached: ["https://h/sprite.json", "https://h/sprite.png"])
        #expect(!loads.contains { $0.url.hasPrefix("https://h/sprite") && $0.loadingMethod == .network })
        #expect(pinned(outputs).contains("https://h/sprite.json"))
        #expect(!outputs.contains { if case .store(let resource, _) = $0 { resource.url.hasPrefix("https://h/sprite") } else { false } })
    }

    @Test func aGlyphRangeTheServerLacksIsNoFailure() async {
        let (_, _, machine) = await run()
        #expect(machine.progress.failures.isEmpty)
        #expect(machine.progress.completedResources == machine.progress.requiredResources)
    }

    @Test func aFailingResourceIsRetriedOnThePipelinesScheduleThenReportedOnce() async {
        let (_, loads, machine) = await run { resource in
            resource.url == "https://h/sprite.png" ? .failure(.server, "HTTP 503", source: .network) : Self.serve(resource)
        }
        #expect(loads.filter { $0.url == "https://h/sprite.png" && $0.loadingMethod == .network }.count == 3, "the first attempt and two retries")
        #expect(machine.progress.failures == ["https://h/sprite.png: HTTP 503"])
        #expect(machine.progress.isComplete)
    }

    @Test func aStyleThatCannotBeLoadedOrParsedStopsTheDownload() async {
        let (_, loads, missing) = await run { _ in .failure(.notFound, "gone", source: .network) }
        #expect(missing.styleFailure == "cannot download the style https://h/style.json: gone")
        #expect(loads.count == 2)
        let (_, _, broken) = await run { _ in .success(Array("{".utf8), source: .network) }
        #expect(broken.styleFailure?.hasPrefix("cannot parse the style https://h/style.json:") == true)
    }
}
