import Benchmark
import MapSim
import MapSimTrace
import MapSimTesting
import Synchronization

/// Loads the sample style to map-idle at 1920×1080 from real files, with three observers on the
/// event stream (a counter, a typed subscription and a JSON-line encoder), as `mapsim load --events` does.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .peakMemoryResident, .mallocCountTotal],
                                           maxDuration: .seconds(10), maxIterations: 500)

    Benchmark("Load sample style to map-idle at 1920x1080") { benchmark in
        for _ in benchmark.scaledIterations {
            let events = await loadSampleToIdle()
            blackHole(events)
        }
    }

    // Load to idle must scale linearly in the number of tiles: the time per tile stays flat from
    // about 1k to 16k tiles (a view of 33², 65² and 129² tiles of 512 px).
    for side in [32, 64, 128] {
        let tiles = (side + 1) * (side + 1)
        Benchmark("Load \(tiles) tiles to map-idle", configuration: .init(metrics: [.wallClock, .peakMemoryResident], maxDuration: .seconds(20), maxIterations: 5)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(await loadManyTilesToIdle(viewSide: side * 512, expected: tiles))
            }
        }
    }

    // Recording to JSON lines streams: memory must stay flat whatever the trace length.
    for count in [100_000, 1_000_000] {
        Benchmark("Record \(count / 1000)k events to JSON lines", configuration: .init(metrics: [.wallClock, .peakMemoryResident], maxIterations: 3)) { benchmark in
            let folder = try FixtureDirectory()
            let writer = try EventLineWriter(path: folder.path + "/trace.jsonl", header: Trace.Header(scenario: "benchmark").json)
            let request = MapEvent(begin: SimTime(microseconds: 1_000), end: SimTime(microseconds: 21_000), payload: .resourceRequest(ResourceRequest(
                dataSource: .network, request: Resource(url: "https://maps.test/tiles/10/163/395.pbf", kind: .tile),
                response: .success([UInt8](repeating: 0, count: 996), source: .network), cancelled: false)))
            let frame = MapEvent(begin: SimTime(microseconds: 16_666), end: SimTime(microseconds: 16_666),
                                 payload: .renderFrameFinished(RenderFrameFinished(renderMode: .full, needsRepaint: true, placementChanged: false)))
            benchmark.startMeasurement()
            for n in 0..<count { writer.write(n % 4 == 0 ? request : frame) }
            try writer.close()
            benchmark.stopMeasurement()
        }
    }

    Benchmark("Dispatch 100k events to three observers, no encoding") { benchmark in
        let dispatcher = EventDispatcher()
        let counter = Mutex(0)
        let a = dispatcher.subscribe { _ in counter.withLock { $0 += 1 } }
        let b = dispatcher.subscribe(MapEvents.renderFrameFinished) { blackHole($0.payload.needsRepaint) }
        let c = dispatcher.subscribe(MapEvents.mapIdle) { blackHole($0) }
        let frame = MapEvent(begin: .zero, end: .zero, payload: .renderFrameFinished(RenderFrameFinished(renderMode: .full, needsRepaint: true, placementChanged: false)))
        benchmark.startMeasurement()
        for _ in 0..<100_000 { dispatcher.dispatch(frame) }
        benchmark.stopMeasurement()
        blackHole((a, b, c))
    }

    Benchmark("Encode 100k events as JSON lines") { benchmark in
        let frame = MapEvent(begin: .zero, end: .zero, payload: .renderFrameFinished(RenderFrameFinished(renderMode: .full, needsRepaint: true, placementChanged: false)))
        var bytes = 0
        benchmark.startMeasurement()
        for _ in 0..<100_000 { bytes += frame.jsonLine.utf8.count }
        benchmark.stopMeasurement()
        blackHole(bytes)
    }

    Benchmark("Dispatch 100k events to three observers, one encoding JSON lines") { benchmark in
        let dispatcher = EventDispatcher()
        let counter = Mutex(0)
        let bytes = Mutex(0)
        let a = dispatcher.subscribe { _ in counter.withLock { $0 += 1 } }
        let b = dispatcher.subscribe(MapEvents.renderFrameFinished) { blackHole($0.payload.needsRepaint) }
        let c = dispatcher.subscribe { event in bytes.withLock { $0 += event.jsonLine.utf8.count } }
        let frame = MapEvent(begin: .zero, end: .zero, payload: .renderFrameFinished(RenderFrameFinished(renderMode: .full, needsRepaint: true, placementChanged: false)))
        benchmark.startMeasurement()
        for _ in 0..<100_000 { dispatcher.dispatch(frame) }
        benchmark.stopMeasurement()
        blackHole((a, b, c))
    }
}

/// One full load; returns the number of events dispatched.
func loadSampleToIdle() async -> Int {
    let map = Map(backends: .only(FileResourceLoader(assetRoot: SampleStyle.folder)), viewport: Viewport(width: 1920, height: 1080))
    let count = Mutex(0)
    let bytes = Mutex(0)
    let counter = map.subscribeAll { _ in count.withLock { $0 += 1 } }
    let typed = map.subscribe(MapEvents.sourceDataLoaded) { blackHole($0.payload.id) }
    let encoder = map.subscribeAll { event in bytes.withLock { $0 += event.jsonLine.utf8.count } }
    await map.setStyleURI(SampleStyle.url)
    let outcome = await map.run(until: .mapIdle, timeout: .seconds(30))
    precondition(outcome == .reached(SimTime(microseconds: 333_333)), "unexpected outcome \(outcome)")
    blackHole((counter, typed, encoder))
    return count.withLock { $0 }
}

/// A map of `viewSide`² pixels over a vector source every tile of which is one small real tile, from
/// a loader that answers every URL at once; returns the number of tiles loaded.
func loadManyTilesToIdle(viewSide: Int, expected: Int) async -> Int {
    var encoder = VectorTileEncoder()
    encoder.addLayer("water", points: [[("name", "bay")]])
    let loader = EveryURLLoader(body: encoder.bytes)
    let style = #"{"version": 8, "center": [0.0001, 0.0001], "zoom": 10, "sources": {"v": {"type": "vector", "tiles": ["https://h/{z}/{x}/{y}.pbf"], "maxzoom": 14}},"#
        + #" "layers": [{"id": "water", "type": "fill", "source": "v", "source-layer": "water"}]}"#
    let map = Map(backends: .only(loader), viewport: Viewport(width: viewSide, height: viewSide), options: Map.Options(maximumTilesPerSource: 100_000))
    let loaded = Mutex(0)
    let counter = map.subscribe(MapEvents.sourceDataLoaded) { event in if event.payload.type == .tile { loaded.withLock { $0 += 1 } } }
    await map.setStyleJSON(style, baseURL: "https://h/style.json")
    let outcome = await map.run(until: .mapIdle, timeout: .seconds(60))
    precondition(outcome != .styleFailed(""), "unexpected outcome \(outcome)")
    blackHole(counter)
    let count = loaded.withLock { $0 }
    precondition(count == expected, "loaded \(count) tiles, expected \(expected)")
    return count
}

/// Answers every URL with the same bytes, at once.
struct EveryURLLoader: ResourceLoader {
    var body: [UInt8]

    func load(_ resource: Resource) async -> Response {
        .success(body, source: .network)
    }

    func handles(_ url: String) -> Bool { true }
}
