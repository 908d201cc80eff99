import Foundation
import Synchronization
import Testing
import MapSimJSON
import MapSimTesting
@testable import MapSim
@testable import MapSimHTTP
@testable import MapSimServe

/// What `mapsim serve`'s page reads from the server: the requests served after a number, kept
/// within a bound; the conditions in words; the page's own paths, which are no served resources.
@Suite("mapsim serve's page data")
struct ServePageDataTests {
    private func event(_ index: Int) -> MapEvent {
        MapEvent(begin: .milliseconds(Int64(index)), end: .milliseconds(Int64(index) + 1), payload: .resourceRequest(ResourceRequest(
            dataSource: .network, request: Resource(url: "http://127.0.0.1:8080/tiles/1/0/\(index % 2).pbf", kind: .tile),
            response: .success([1, 2, 3], source: .network), cancelled: false)))
    }

    @Test func theLogAnswersWhatCameAfterANumberAndKeepsABoundedShare() throws {
        let log = ServedRequestLog(capacity: 100)
        for index in 0..<5 { log.record(event(index)) }
        log.record(MapEvent(begin: .zero, end: .zero, payload: .mapIdle))
        let first = try JSONParser.parse(log.json(after: 3, now: .seconds(2)))
        #expect(first["next"] == .number(5) && first["dropped"] == .number(0) && first["now"] == .number(2_000_000))
        #expect(first["rows"]?.arrayValue?.map { $0.arrayValue?[3] } == [.string("tiles/1/0/1.pbf"), .string("tiles/1/0/0.pbf")])
        for index in 5..<250 { log.record(event(index)) }
        let later = try JSONParser.parse(log.json(after: 0, now: .zero))
        let kept = later["rows"]?.arrayValue?.count ?? 0
        #expect(later["next"] == .number(250) && kept <= 100 && kept >= 90 && later["dropped"] == .number(Double(250 - kept)))
        #expect(try JSONParser.parse(log.json(after: 250, now: .zero))["rows"] == .array([]))
        #expect(try JSONParser.parse(log.json(after: 10_000, now: .zero))["rows"] == .array([]), "a number from the future is nothing new")
    }

    @Test func theConditionsAreSaidInWords() {
        let conditions = ServeConditions(profile: NetworkPreset.threeG.profile(seed: 3), profileName: "3g",
                                         faults: [FaultRule(commandLine: "*/tiles/*=503x2")!, FaultRule(commandLine: "*.png=drop")!,
                                                  FaultRule(pattern: URLPattern("*/g/*"), effect: .status(429, headers: [(name: "Retry-After", value: "3")]))],
                                         offlineWindows: [SimTime.seconds(5)..<SimTime.seconds(10)])
        let facts = Dictionary(uniqueKeysWithValues: conditions.facts)
        #expect(facts["network"] == "3g: 300 ms round trip ± 30 ms, 200.0 KB/s")
        #expect(facts["faults"] == "*/tiles/*=503x2; *.png=drop; */g/*=429 (Retry-After: 3)")
        #expect(facts["offline"] == "5 s–10 s after the server started")
        #expect(Dictionary(uniqueKeysWithValues: ServeConditions().facts)["network"] == "no delay: answers at once")
        #expect(FaultRule(commandLine: "*=delay:250x1")?.description == "*=delay:250x1")
    }

    @Test func thePagesPathsAreServedButNotReported() async throws {
        let reported = FixtureCounter()
        let server = try await StyleServer.start(.init(style: SampleStyle.folder + "/style.json", port: 0)) { _ in reported.add() }
        let network = HTTPResourceLoader()
        let page = await network.load(Resource(url: server.baseURL + "_mapsim/", kind: .unknown))
        let script = await network.load(Resource(url: server.baseURL + "_mapsim/maplibre-gl.js", kind: .unknown))
        let licence = await network.load(Resource(url: server.baseURL + "_mapsim/maplibre-gl-LICENSE.txt", kind: .unknown))
        let missing = await network.load(Resource(url: server.baseURL + "_mapsim/nothing", kind: .unknown))
        _ = await network.load(Resource(url: server.baseURL + "style.json", kind: .style))
        let requests = try JSONParser.parse(await network.load(Resource(url: server.baseURL + "_mapsim/requests.json?after=0", kind: .unknown)).data ?? [])
        try await network.shutdown()
        await server.stop()
        #expect(String(decoding: page.data ?? [], as: UTF8.self).contains("id=\"mapsim-data\""))
        #expect(script.data?.count == MapLibreGL.script.utf8.count && licence.data.map { String(decoding: $0, as: UTF8.self) } == MapLibreGL.licence)
        #expect(missing.error?.message.contains("404") == true)
        #expect(reported.value == 1, "only the style was a served resource")
        #expect(requests["rows"]?.arrayValue?.map { $0.arrayValue?[3] } == [.string("style.json")])
    }
}

/// A count the server's report adds to.
private final class FixtureCounter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
