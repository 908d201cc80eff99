import Testing
@testable import MapSim

/// Requests of components attached to a map (a data manager): through the pipeline, answered once,
/// never cancelled by a style change, never retried, and failed by the map when their time is up.
@Suite("MapMachine.Fetches")
struct FetchTests {
    private let manifest = Resource(url: "https://h/manifest.json", kind: .unknown, loadingMethod: .network, storagePolicy: .volatile)

    @Test func aFetchSurvivesANewStyleAndIsAnsweredOnce() async {
        let driver = MachineDriver()
        driver.overrides["manifest.json"] = .success(Array("{}".utf8), source: .network)
        driver.load(#"{"version": 8, "sources": {}, "layers": []}"#)
        let token = driver.fetch(manifest)
        driver.feed(.setStyleURL("https://h/style.json"))
        await driver.run()
        #expect(driver.fetched[token]?.data == Array("{}".utf8), "the answer came although the style changed")
        #expect(driver.fetched.count == 1)
        let requests = driver.events.compactMap { MapEvents.resourceRequest.payload(in: $0.payload) }.filter { $0.request.url == "https://h/manifest.json" }
        #expect(requests.count == 1 && requests[0].cancelled == false, "its resource-request event is in the map's stream")
    }

    @Test func aFailureEndsAFetchInsteadOfBeingRetried() async {
        let driver = MachineDriver()
        driver.overrides["manifest.json"] = .failure(.server, "HTTP 503", source: .network)
        let token = driver.fetch(manifest)
        await driver.run(for: .seconds(60))
        #expect(driver.fetched[token]?.error?.reason == .server)
        #expect(driver.loads.filter { $0.url == "https://h/manifest.json" }.count == 1, "one attempt: the 1 s retry was cancelled")
    }

    @Test func aFetchWithoutAnAnswerInTimeFailsAndIsCancelled() async {
        let driver = MachineDriver()
        driver.feed(.setOffline(true))
        driver.feed(.setOffline(false))
        // 10 ms of latency, 5 ms allowed.
        let token = driver.fetch(manifest, timeout: .milliseconds(5))
        await driver.run(for: .seconds(1))
        #expect(driver.fetched[token] == .failure(.connection, "no answer within 5.000 ms", source: .network))
        let requests = driver.events.filter { $0.payload.request?.request.url == "https://h/manifest.json" }
        #expect(requests.count == 1 && requests[0].payload.request?.cancelled == true && requests[0].end == .milliseconds(5))
    }
}
