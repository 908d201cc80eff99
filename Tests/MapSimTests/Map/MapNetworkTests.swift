import Testing
import MapSimTesting
@testable import MapSim

/// The map over the simulated network: the concurrency cap, offline windows, profiles.
@Suite("Map.Network")
struct MapNetworkTests {
    private let network = SimulatedNetwork(mirrors: [.init(prefix: "https://maps.test/", directory: SampleStyle.folder)])

    private func load(timing: some DeliveryTiming, loading: RequestPipeline.Configuration = .init(), viewport: Viewport = Viewport(width: 512, height: 512))
        async -> (EventRecorder, Map.RunOutcome) {
        let map = Map(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), network: network), viewport: viewport,
                      options: .init(loading: loading), timing: timing)
        let recorder = EventRecorder(map)
        await map.setStyleURI("https://maps.test/style.json")
        return (recorder, await map.run(until: .mapIdle, timeout: .seconds(60)))
    }

    /// The most requests whose [begin, end) intervals overlap at any instant.
    private func peakConcurrency(_ recorder: EventRecorder) -> Int {
        let requests = recorder.events(of: .resourceRequest)
        var edges = requests.flatMap { [($0.begin, 1), ($0.end, -1)] }
        edges.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        var current = 0
        var peak = 0
        for (_, change) in edges {
            current += change
            peak = max(peak, current)
        }
        return peak
    }

    @Test func neverHasMoreRequestsInFlightThanTheCap() async {
        let (capped, outcome) = await load(timing: FixedLatency(.milliseconds(50)), loading: .init(maximumConcurrentRequests: 2))
        guard case .reached = outcome else { Issue.record("not idle: \(outcome)"); return }
        #expect(peakConcurrency(capped) == 2)
        let (free, _) = await load(timing: FixedLatency(.milliseconds(50)))
        #expect(peakConcurrency(free) == 5, "four tiles and the prefetched one at once without a cap")
    }

    @Test func aStillImageStopsAtATilesGlyphsOrSpritesFailureButNotAtATileThatIsNotThere() async throws {
        func outcome(_ fault: String, mode: MapMode) async throws -> Map.RunOutcome {
            let faulty = SimulatedNetwork(mirrors: [.init(prefix: "https://maps.test/", directory: SampleStyle.folder)],
                                          faults: [try #require(FaultRule(commandLine: fault))])
            var options = Map.Options()
            options.mode = mode
            let map = Map(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), network: faulty), options: options)
            await map.setStyleURI("https://maps.test/style.json")
            return await map.run(until: .mapIdle, timeout: .seconds(60))
        }
        // As MapLibre's still mode: any resource error fails the image, naming it.
        for (fault, named) in [("*/tiles/*=503", "tile 10/"), ("*/glyphs/*=500", "glyphs"), ("*/sprite*=503", "sprite")] {
            guard case .styleFailed(let message) = try await outcome(fault, mode: .still) else { Issue.record("\(fault): the still image was drawn"); continue }
            #expect(message.contains(named), "\(fault): \(message)")
            // An interactive map draws without what failed.
            guard case .reached = try await outcome(fault, mode: .continuous) else { Issue.record("\(fault): the map does not go idle"); continue }
        }
        // A tile that is not there (404) is no content, even for a still image.
        guard case .reached = try await outcome("*/tiles/*=404", mode: .still) else { Issue.record("a missing tile stopped the still image"); return }
    }

    @Test func anOfflineWindowDelaysTheLoadUntilTheNetworkReturns() async throws {
        let (_, outcome) = await load(timing: NetworkPreset.lan.profile(), loading: .init(offlineWindows: [SimTime.zero..<SimTime.seconds(5)]))
        // The style request fails offline (fatal), exactly as a map started without a network.
        guard case .styleFailed(let message) = outcome else { Issue.record("expected a style failure: \(outcome)"); return }
        #expect(message.contains("offline"))
        // Offline from 10 ms: the tiles fail, the map still goes idle; when the window ends they load.
        let map = Map(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), network: network),
                      options: .init(loading: .init(offlineWindows: [SimTime.milliseconds(10)..<SimTime.seconds(5)])), timing: NetworkPreset.lan.profile())
        let lateRecorder = EventRecorder(map)
        await map.setStyleURI("https://maps.test/style.json")
        guard case .reached(let firstIdle) = await map.run(until: .mapIdle, timeout: .seconds(60)) else { Issue.record("not idle"); return }
        #expect(firstIdle < .seconds(1))
        #expect(lateRecorder.events(of: .mapLoadingError).count == 5, "four tiles and the prefetched one failed offline")
        await map.advance(by: .seconds(5))
        guard case .reached(let secondIdle) = await map.run(until: .mapIdle, timeout: .seconds(60)) else { Issue.record("not idle again"); return }
        #expect(secondIdle > .seconds(5))
        let loadedTiles = lateRecorder.events.filter { $0.payload.sourceData?.type == .tile && $0.end >= .seconds(5) }
        #expect(loadedTiles.count == 5, "the tiles load once the network is back")
    }

    @Test func slowerProfilesTakeLonger() async {
        var times: [SimTime] = []
        for name in ["lan", "wifi", "4g", "3g"] {
            let (_, outcome) = await load(timing: NetworkPreset(rawValue: name)!.profile())
            guard case .reached(let time) = outcome else { Issue.record("\(name): \(outcome)"); return }
            times.append(time)
        }
        #expect(times == times.sorted() && Set(times).count == 4)
    }
}
