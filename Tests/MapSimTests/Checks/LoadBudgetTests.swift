import Testing
@testable import MapSim

@Suite("LoadBudget")
struct LoadBudgetTests {
    /// A load: style-loaded at 20 ms, map-loaded at 50 ms, map-idle at 350 ms, two tiles (one
    /// failed), a glyph range, an error.
    private var summary: LoadSummary {
        var summary = LoadSummary()
        func request(_ url: String, _ kind: Resource.Kind, _ response: Response, at end: Int64) -> MapEvent {
            MapEvent(begin: .zero, end: .milliseconds(end), payload: .resourceRequest(ResourceRequest(dataSource: .network, request: Resource(url: url, kind: kind),
                                                                                                     response: response, cancelled: false)))
        }
        for event in [
            request("https://h/style.json", .style, .success(Array(repeating: 0, count: 1_500), source: .network), at: 10),
            MapEvent(begin: .milliseconds(20), end: .milliseconds(20), payload: .styleLoaded),
            request("https://h/t/1.pbf", .tile, .success(Array(repeating: 0, count: 2_000), source: .network), at: 30),
            request("https://h/t/2.pbf", .tile, .failure(.server, "HTTP 503", source: .network), at: 30),
            MapEvent(begin: .milliseconds(30), end: .milliseconds(30), payload: .mapLoadingError(MapLoadingError(type: .tile, message: "HTTP 503"))),
            request("https://h/g/0-255.pbf", .glyphs, .success(Array(repeating: 0, count: 64_000), source: .network), at: 40),
            MapEvent(begin: .milliseconds(50), end: .milliseconds(50), payload: .mapLoaded),
            MapEvent(begin: .milliseconds(350), end: .milliseconds(350), payload: .mapIdle),
        ] { summary.record(event) }
        return summary
    }

    @Test(arguments: [
        ("map-idle=2s", LoadBudget.Metric.milestone(.mapIdle), Int64(2_000_000)),
        ("style-loaded=800ms", .milestone(.styleLoaded), 800_000),
        ("map-loaded=1.5s", .milestone(.mapLoaded), 1_500_000),
        ("requests=40", .requests(nil), 40),
        ("requests.tile=12", .requests(.tile), 12),
        ("bytes=5MB", .bytes(nil), 5_000_000),
        ("bytes.glyphs=500KB", .bytes(.glyphs), 500_000),
        ("bytes.sprite-image=2KiB", .bytes(.spriteImage), 2_048),
        ("errors=0", .errors, 0),
    ])
    func budgetsAreReadAsNameEqualsLimit(_ text: String, _ metric: LoadBudget.Metric, _ limit: Int64) throws {
        let budget = try LoadBudget(parsing: text)
        #expect(budget.metric == metric && budget.limit == limit)
        #expect(try LoadBudget(parsing: budget.description) == budget, "\(budget.description) reads back")
    }

    @Test(arguments: [
        ("map-idle", "is not NAME=LIMIT"), ("idle=2s", "unknown budget \"idle\""), ("requests.tiles=3", "unknown resource kind \"tiles\""),
        ("map-idle=fast", "is not a duration"), ("bytes=lots", "is not a size"), ("requests=-1", "is not a whole number"), ("errors=1.5", "is not a whole number"),
    ])
    func aMalformedBudgetNamesWhatIsWrong(_ text: String, _ reason: String) {
        #expect { try LoadBudget(parsing: text) } throws: { error in
            (error as? BudgetError)?.code == .malformed && "\(error)".contains(reason)
        }
    }

    @Test func eachBudgetIsMeasuredFromTheSummaryAndSaysItsVerdictInOneLine() throws {
        let summary = summary
        let verdicts = try ["map-idle=100ms", "map-loaded=1s", "requests.tile=1", "requests=4", "bytes=60KB", "bytes.style=2KB", "errors=0", "errors=1"]
            .map { try LoadBudget(parsing: $0).check(summary) }
        #expect(verdicts.map(\.line) == [
            "budget map-idle: 350 ms > 100 ms",
            "budget map-loaded: 50 ms ≤ 1 s",
            "budget requests.tile: 2 > 1",
            "budget requests: 4 ≤ 4",
            "budget bytes: 67.5 KB > 60.0 KB",
            "budget bytes.style: 1.5 KB ≤ 2.0 KB",
            "budget errors: 1 > 0",
            "budget errors: 1 ≤ 1",
        ])
        #expect(verdicts.map(\.isMet) == [false, true, false, true, false, true, false, true])
    }

    @Test func aMilestoneThatNeverCameExceedsItsBudget() throws {
        let verdict = try LoadBudget(parsing: "map-idle=10s").check(LoadSummary())
        #expect(!verdict.isMet && verdict.value == nil)
        #expect(verdict.line == "budget map-idle: never reached, limit 10 s")
        #expect(try LoadBudget(parsing: "requests.image=0").check(LoadSummary()).isMet, "a kind never seen has no requests")
    }
}
