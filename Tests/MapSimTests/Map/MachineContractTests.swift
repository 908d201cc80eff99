import Foundation
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimJSON
import MapSimStyle

/// The machines' contract, checked from the loop: an impossible input stops the process naming the
/// state (`RequestPipelineTests`, `ContentSessionMachineTests`), and no sequence of calls a user can
/// make feeds one. A seeded random walk over the map's API — camera moves and new styles that cancel
/// what is in flight, offline spells, request timeouts, retries, fetches with deadlines, sources and
/// layers added and removed — through files and a network with latencies, timeouts and failures.
@Suite("Map.MachineContract")
struct MachineContractTests {
    /// The sample style's files, served as `https://h/…`, one tile missing.
    private static func network() throws -> StubLoader {
        let loader = StubLoader()
        let folder = SampleStyle.folder
        for path in ["style.json", "sprite.json", "sprite.png", "tiles.json", "glyphs/Mapsim Sans Regular/0-255.pbf"] {
            loader.serve("https://h/" + path.replacingOccurrences(of: " ", with: "%20"), data: [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))))
        }
        let tiles = try #require(FileManager.default.enumerator(atPath: folder + "/tiles")?.allObjects as? [String])
        for tile in tiles where tile.hasSuffix(".pbf") && tile != "10/163/396.pbf" {
            loader.serve("https://h/tiles/" + tile, data: [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/tiles/" + tile))))
        }
        return loader
    }

    /// A walk of `steps` calls drawn from `seed`; the map's events as JSON lines.
    private static func walk(seed: UInt64, steps: Int, overNetwork: Bool) async throws -> (lines: [String], cancelled: Int) {
        var options = Map.Options()
        options.loading.requestTimeout = .milliseconds(400)
        options.loading.maximumRetries = 2
        let backends: ResourceBackends = overNetwork ? .only(try network()) : .only(FileResourceLoader(assetRoot: SampleStyle.folder))
        let slow = FixedLatency(.milliseconds(30), extra: [(contains: "/10/164/", delay: .seconds(1)), (contains: "sprite", delay: .milliseconds(150))])
        let map = Map(backends: backends, viewport: Viewport(width: 800, height: 600), options: options, timing: slow)
        let recorder = EventRecorder(map)
        let styleURL = overNetwork ? "https://h/style.json" : SampleStyle.url
        var random = SplitMix64(seed: seed)
        func draw(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        for _ in 0..<steps {
            switch draw(10) {
            case 0:
                await map.setStyleURI(styleURL)
            case 1, 2:
                let center = LngLat(longitude: -122.5 + Double(draw(100)) / 100, latitude: 37.5 + Double(draw(100)) / 100)
                await map.setCamera(CameraOptions(center: center, zoom: Double(6 + draw(6))))
            case 3:
                await map.setOffline(draw(2) == 0)
            case 4:
                let url = overNetwork ? "https://h/tiles/10/16\(draw(6))/395.pbf" : SampleStyle.url
                _ = await map.fetch([Resource(url: url, kind: .unknown, loadingMethod: .network, storagePolicy: .volatile)], timeout: .milliseconds(Int64(10 + draw(500))))
            case 5:
                let id = "walk-\(draw(3))"
                let data = try JSONParser.parse(Array(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [-122.4, 37.8]}, "properties": {}}]}"#.utf8))
                if draw(2) == 0 {
                    try? await map.addSource(StyleSource(id: id, kind: .geojson, inlineData: data))
                } else {
                    try? await map.removeSource(id: id)
                }
            case 6:
                let layer = try JSONParser.parse(Array(#"{"id": "walk-layer", "type": "symbol", "source": "walk-0", "layout": {"text-field": "x"}}"#.utf8))
                if draw(2) == 0 { try? await map.addLayer(layer) } else { try? await map.removeLayer(id: "walk-layer") }
            case 7:
                _ = await map.run(until: .mapIdle, timeout: .milliseconds(Int64(draw(800))))
            default:
                await map.advance(by: .milliseconds(Int64(draw(300))))
            }
        }
        await map.setOffline(false)
        _ = await map.run(until: .mapIdle, timeout: .seconds(30))
        let cancelled = recorder.payloads.compactMap(\.request).filter(\.cancelled).count
        return (recorder.events.map(\.jsonLine), cancelled)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func noWalkFeedsAMachineAnImpossibleInputAndEveryWalkRepeats(seed: UInt64) async throws {
        for overNetwork in [true, false] {
            let first = try await Self.walk(seed: seed, steps: 600, overNetwork: overNetwork)
            let second = try await Self.walk(seed: seed, steps: 600, overNetwork: overNetwork)
            #expect(first.lines == second.lines, "the same calls give the same events")
            #expect(first.cancelled > 0, "the walk cancelled requests in flight (\(overNetwork ? "network" : "files"))")
            #expect(first.lines.count > 100)
        }
    }
}
