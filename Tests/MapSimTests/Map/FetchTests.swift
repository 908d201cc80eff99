import Testing
@testable import MapSim

/// Requests of components attached to a map (a data manager): through the pipeline, answered once,
/// never cancelled by a style change, never retried.
@Suite("Fetches of attached components")
struct FetchTests {
    @Test func aFetchSurvivesANewStyleAndIsAnsweredOnce() {
        var driver = MachineDriver()
        driver.overrides["manifest.json"] = .success(Array("{}".utf8), source: .network)
        driver.load(#"{"version": 8, "sources": {}, "layers": []}"#)
        let id = driver.fetch(Resource(url: "https://h/manifest.json", kind: .unknown, loadingMethod: .network, storagePolicy: .volatile))
        driver.feed(.setStyleURL("https://h/style.json"))
        driver.run()
        #expect(driver.fetched[id]?.data == Array("{}".utf8), "the answer came although the style changed")
        #expect(driver.fetched.count == 1)
        let requests = driver.events.compactMap { MapEvents.resourceRequest.payload(in: $0.payload) }.filter { $0.request.url == "https://h/manifest.json" }
        #expect(requests.count == 1 && requests[0].cancelled == false, "its resource-request event is in the map's stream")
    }

    @Test func aFailureEndsAFetchInsteadOfBeingRetried() {
        var driver = MachineDriver()
        driver.overrides["manifest.json"] = .failure(.server, "HTTP 503", source: .network)
        let id = driver.fetch(Resource(url: "https://h/manifest.json", kind: .unknown, loadingMethod: .network, storagePolicy: .volatile))
        driver.run(for: .seconds(60))
        #expect(driver.fetched[id]?.error?.reason == .server)
        #expect(driver.loads.filter { $0.url == "https://h/manifest.json" }.count == 1, "one attempt: the 1 s retry was cancelled")
    }

    @Test func aVolatileResourceIsNeverWrittenToTheCache() {
        var pipeline = RequestPipeline(configuration: .init(usesCache: true))
        let resource = Resource(url: "https://h/manifest.json", kind: .unknown, loadingMethod: .network, storagePolicy: .volatile)
        pipeline.request(RequestID(value: 0), resource, at: .zero)
        _ = pipeline.takeActions()
        pipeline.answer(.success([1, 2], source: .network), for: RequestID(value: 0), attempt: AttemptID(value: 0), from: .network, at: .zero)
        let actions = pipeline.takeActions()
        #expect(actions.contains { if case .deliver = $0 { true } else { false } })
        #expect(!actions.contains { if case .store = $0 { true } else { false } })

        var permanent = RequestPipeline(configuration: .init(usesCache: true))
        permanent.request(RequestID(value: 0), Resource(url: "https://h/a.json", kind: .unknown, loadingMethod: .network), at: .zero)
        _ = permanent.takeActions()
        permanent.answer(.success([1, 2], source: .network), for: RequestID(value: 0), attempt: AttemptID(value: 0), from: .network, at: .zero)
        #expect(permanent.takeActions().contains { if case .store = $0 { true } else { false } }, "a permanent one is")
    }
}
