import Testing
@testable import MapSim

@Suite("CriticalPath")
struct CriticalPathTests {
    private func span(_ kind: Resource.Kind, _ url: String, _ begin: Int64, _ end: Int64, failed: Bool = false, cancelled: Bool = false) -> LoadSummary.RequestSpan {
        LoadSummary.RequestSpan(kind: kind, url: url, begin: .milliseconds(begin), end: .milliseconds(end), failed: failed, cancelled: cancelled)
    }

    @Test func theChainRunsFromTheStyleThroughWhatCompletedItToTheLastArrival() {
        // In the order answered: the style; the TileJSON before the sprite; tiles once both are in;
        // glyph ranges once a tile arrived.
        let requests = [
            span(.style, "style.json", 0, 300),
            span(.source, "tiles.json", 300, 600),
            span(.spriteJSON, "sprite.json", 300, 640),
            span(.tile, "t/1.pbf", 650, 950),
            span(.tile, "t/2.pbf", 650, 960),
            span(.glyphs, "g/0-255.pbf", 950, 1_500),
            span(.glyphs, "g/256-511.pbf", 950, 1_700),
        ]
        let path = CriticalPath(requests: requests, milestone: .mapIdle, at: .milliseconds(2_000))
        #expect(path.steps.map(\.url) == ["style.json", "sprite.json", "t/1.pbf", "g/256-511.pbf"])
        #expect(path.milestone == .mapIdle && path.time == .milliseconds(2_000))
    }

    @Test func atOneInstantTheCauseIsOfAKindThatCausesItNotASibling() {
        // Files answer at once: everything in the same instant, and tiles side by side.
        let requests = [
            span(.style, "style.json", 0, 0), span(.source, "tiles.json", 0, 0), span(.spriteImage, "sprite.png", 0, 0),
            span(.tile, "t/1.pbf", 16, 16), span(.tile, "t/2.pbf", 16, 16), span(.glyphs, "g/0-255.pbf", 16, 16),
        ]
        let path = CriticalPath(requests: requests, milestone: .mapIdle, at: .milliseconds(333))
        #expect(path.steps.map(\.url) == ["style.json", "sprite.png", "t/2.pbf", "g/0-255.pbf"])
    }

    @Test func aRetriedRequestWaitedForItsFailedAttemptAndCancelledOnesAreNoCause() {
        let requests = [
            span(.style, "style.json", 0, 10),
            span(.source, "tiles.json", 10, 20),
            span(.tile, "t/1.pbf", 20, 30, failed: true),
            span(.tile, "t/9.pbf", 20, 40, cancelled: true),
            span(.tile, "t/2.pbf", 20, 500),
            span(.tile, "t/1.pbf", 1_030, 1_040),
        ]
        let path = CriticalPath(requests: requests, milestone: .mapLoaded, at: .milliseconds(1_050))
        #expect(path.steps.map(\.url) == ["style.json", "tiles.json", "t/1.pbf", "t/1.pbf"])
        #expect(path.steps.map(\.failed) == [false, false, true, false])
    }

    @Test func aRequestThatWaitedForAFreeSlotWaitedForTheOneThatFreedIt() {
        let requests = [span(.style, "style.json", 0, 10), span(.source, "tiles.json", 10, 20), span(.tile, "t/1.pbf", 20, 80), span(.tile, "t/2.pbf", 80, 90)]
        #expect(CriticalPath(requests: requests, milestone: .mapIdle, at: .milliseconds(100)).steps.map(\.url) == ["style.json", "tiles.json", "t/1.pbf", "t/2.pbf"])
        #expect(CriticalPath(requests: [], milestone: .mapIdle, at: .zero).steps.isEmpty)
        #expect(CriticalPath(requests: requests, milestone: .mapLoaded, at: .milliseconds(15)).steps.map(\.url) == ["style.json"],
                "what came after the milestone is no part of its path")
    }

    @Test func aSummaryKeepingOnlyTheURLsThePathReadsFindsTheSamePath() {
        // Retries, failures later than a request of their URL, cancellations and answers at one
        // instant, in a pseudo-random load: each step the same request, each offset its place.
        var generator = SplitMix64(seed: 7)
        var events: [MapEvent] = []
        var time: Int64 = 0
        for index in 0..<2_000 {
            let url = "t/\(generator.next() % 40).pbf"
            let begin = time
            time += Int64(generator.next() % 3)
            let roll = generator.next() % 10
            let response: Response? = roll == 0 ? nil : roll < 3 ? .failure(.server, "HTTP 503", source: .network) : .success([1], source: .network)
            let kind: Resource.Kind = index == 0 ? .style : index % 7 == 0 ? .glyphs : .tile
            events.append(MapEvent(begin: .milliseconds(begin), end: .milliseconds(time), payload: .resourceRequest(ResourceRequest(
                dataSource: .network, request: Resource(url: index == 0 ? "style.json" : url, kind: kind), response: response, cancelled: response == nil))))
        }
        events.append(MapEvent(begin: .milliseconds(time), end: .milliseconds(time), payload: .mapIdle))
        var full = LoadSummary()
        var lean = LoadSummary(keepingEveryRequestURL: false)
        for event in events {
            full.record(event)
            lean.record(event)
        }
        let fullPath = full.criticalPath
        let leanPath = lean.criticalPath
        #expect(fullPath?.offsets == leanPath?.offsets && (fullPath?.steps.count ?? 0) > 3)
        #expect(fullPath?.steps.map(\.begin) == leanPath?.steps.map(\.begin))
        #expect(fullPath.map { path in path.offsets.map { full.requests[$0] } } == fullPath?.steps)
        #expect(lean.requests.contains { $0.url.isEmpty } && lean.requests.allSatisfy { !$0.failed || !$0.url.isEmpty })
        #expect(full.total == lean.total && full.timedOut == lean.timedOut)
    }
}
