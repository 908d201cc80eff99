import Foundation
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimKit
@testable import MapSimStyle
@testable import MapSimTrace
import MapSimJSON
import MapSimLive

/// The regression suite: every scenario in traces/ runs and must reproduce its golden trace byte
/// for byte, and meet its expectations.
@Suite("Scenarios")
struct ScenarioSuiteTests {
    static let tracesFolder = URL(fileURLWithPath: SampleStyle.stylesFolder).deletingLastPathComponent().appendingPathComponent("traces").path

    static let scenarioFiles: [String] = {
        ((try? FileManager.default.contentsOfDirectory(atPath: tracesFolder)) ?? [])
            .filter { $0.hasSuffix(".scenario.yaml") }.sorted().map { tracesFolder + "/" + $0 }
    }()

    @Test func theSuiteHasTheScenariosOfTheIssueEachWithItsGoldenTrace() {
        let names = Set(Self.scenarioFiles.map { URL(fileURLWithPath: $0).lastPathComponent.replacingOccurrences(of: ".scenario.yaml", with: "") })
        let required: Set = ["cold-load", "warm-cache-reload", "offline-full-cache", "offline-partial-cache", "offline-then-online", "offline-region",
                             "sprite-404", "style-404", "tilejson-500-retry", "tiles-429-retry-after", "expired-cache-revalidated",
                             "must-revalidate-offline", "camera-move-mid-load", "3g-time-budget",
                             "live-occupancy-icons", "live-moving-positions", "live-out-of-order", "live-subscription-refused",
                             "live-reconnect-resubscribe", "live-unsubscribe-disconnects",
                             "entities-purge-by-count", "entities-purge-by-track", "entities-purge-by-age", "entities-reconnect-fails",
                             "entities-reconnect-third-attempt", "entities-purge-all"]
        #expect(required.subtracting(names).isEmpty, "missing: \(required.subtracting(names).sorted())")
        let missingGolden = names.filter { !FileManager.default.fileExists(atPath: Self.tracesFolder + "/\($0).trace.yaml") }
        #expect(missingGolden.isEmpty, "no golden trace for \(missingGolden.sorted())")
    }

    @Test(arguments: scenarioFiles)
    func reproducesItsGoldenTrace(path: String) async throws {
        let scenario = try Scenario.read(file: path)
        let result = try await ScenarioRunner().run(scenario)
        #expect(result.failures.isEmpty, "\(result.failures)")
        let problems = GoldenTrace(scenarioFile: path, name: scenario.name).problems(with: result.trace, scenarioFile: path)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func aBehaviourChangeShowsAsAReadableDiff() throws {
        let golden = try Trace.read(file: Self.tracesFolder + "/sprite-404.trace.yaml")
        var changed = golden
        // As if sprite errors were fatal: everything after the sprite error is gone.
        let spriteError = try #require(golden.events.firstIndex { MapEvents.mapLoadingError.payload(in: $0.payload)?.type == .sprite })
        changed.events = Array(golden.events[...spriteError])
        let diff = TraceDiff(expected: golden, actual: changed)
        let lines = diff.lines(limit: 3)
        // Grouped by kind: the milestones' events first, each one line naming the event and where it was.
        #expect(lines.count == 4 && lines.last?.hasPrefix("... and") == true)
        #expect(lines.dropLast().allSatisfy { $0.hasSuffix("only in A") && $0.count <= TraceDifference.maximumLineLength }, "\(lines)")
        #expect(diff.differences.map(\.index).min() == spriteError + 2)
        #expect(diff.countLine.hasPrefix("\(golden.events.count - spriteError - 1) differences: "))
    }
}

@Suite("Scenario.Parsing")
struct ScenarioParsingTests {
    @Test func readsEveryField() throws {
        let scenario = try Scenario.parse("""
        description: all of it
        style: https://maps.test/style.json
        engine: maplibre-gl-js
        mirror: {"https://maps.test/": data}
        network:
          profile: 3g
          seed: 9
          cache-control: max-age=60
          offline: [[100, 200]]
          faults:
            - {url: "*/a", status: 503, times: 2, headers: {Retry-After: "1"}}
            - {url: "*/b", drop: true}
            - {url: "*/c", truncate: true}
            - {url: "*/d", delay: 250}
        viewport: {width: 800, height: 600, pixel-ratio: 2}
        camera: {center: [1, 2], zoom: 3, bearing: 4, pitch: 5}
        cache: {warm: {camera: {zoom: 2}}}
        steps: [load, {wait: {until: map-loaded, timeout: 5000}}, {advance: 10}, {camera: {zoom: 4}}, offline, online, {wait: map-idle}]
        expect: [{happens: map-idle}, {never: map-loading-error}, {within: {event: map-loaded, ms: 900}}, {no-network-after-step: 2},
                 {budget: {map-idle: 2s, requests.tile: 40, bytes: 5MB}}]
        """, name: "x", folder: "/base")
        #expect(scenario.mirrors == [.init(prefix: "https://maps.test/", directory: "/base/data")])
        #expect(scenario.engine == .maplibreGLJS)
        #expect(scenario.profile == .threeG && scenario.seed == 9 && scenario.cacheControl == "max-age=60")
        #expect(scenario.offlineWindows == [SimTime.milliseconds(100)..<SimTime.milliseconds(200)])
        #expect(scenario.faults.map(\.effect) == [.status(503, headers: [("Retry-After", "1")]), .dropConnection, .truncateBody, .delay(.milliseconds(250))])
        #expect(scenario.viewport == Viewport(width: 800, height: 600, pixelRatio: 2))
        #expect(scenario.camera == CameraOptions(center: LngLat(longitude: 1, latitude: 2), zoom: 3, bearing: 4, pitch: 5))
        #expect(scenario.cache == .warm(CameraOptions(zoom: 2)))
        #expect(scenario.steps == [.load, .wait(.mapLoaded, timeout: .seconds(5)), .advance(.milliseconds(10)), .camera(CameraOptions(zoom: 4)),
                                   .offline, .online, .wait(.mapIdle, timeout: .seconds(60))])
        #expect(scenario.expectations == [.happens(.mapIdle), .never(.mapLoadingError), .within(.mapLoaded, .milliseconds(900)), .noNetworkAfterStep(2),
                                          .budgets([LoadBudget(.milestone(.mapIdle), limit: 2_000_000), LoadBudget(.requests(.tile), limit: 40),
                                                    LoadBudget(.bytes(nil), limit: 5_000_000)])])
    }

    @Test func aMapboxEnginesCameraTakesPitchesTo85AsItsMap() throws {
        let scenario = try Scenario.parse("style: x\nengine: mapbox\ncamera: {pitch: 80}\nsteps: [load, {camera: {pitch: 85}}]", name: "x", folder: "/base")
        #expect(scenario.camera.pitch == 80 && scenario.steps.last == .camera(CameraOptions(pitch: 85)))
    }

    @Test(arguments: [
        ("steps: [load]", "scenario: missing required key \"style\""),
        ("style: x\nsteps: [jump]", "scenario: steps[0]: unknown step \"jump\""),
        ("style: x\nsteps: [load]\nexpect: [{happens: map-exploded}]", "scenario: expect[0].happens: unknown event type \"map-exploded\""),
        ("style: x\nsteps: [load]\nnetwork: {profile: 5g}", "scenario: network.profile: unknown profile \"5g\""),
        ("style: x\nsteps: [load]\ncolour: red", "scenario: colour: unknown scenario key \"colour\""),
        ("style: x\nsteps: [load]\nengine: leaflet", "scenario: engine: unknown engine \"leaflet\"; use one of maplibre-native, maplibre-gl-js, mapbox, mapbox-gl-js"),
        ("style: x\nsteps: [load]\nexpect: [{budget: {map-idle: soon}}]", "scenario: expect[0].budget.map-idle: budget map-idle: \"soon\" is not a duration such as 800ms or 2s"),
        ("style: x\nsteps: [load]\nexpect: [{budget: {tiles: 3}}]", "scenario: expect[0].budget.tiles: unknown budget \"tiles\"; use style-loaded, map-loaded, map-idle, requests, requests.KIND, bytes, bytes.KIND or errors"),
        ("style: x\nsteps: [load]\nnetwork: {faults: [{url: a}]}", "scenario: network.faults[0]: a fault needs one of status, drop, truncate or delay"),
        ("style: x\nsteps: [{subscribe: ds/a/b}]", "scenario: steps[0].subscribe: invalid topic \"ds/a/b\": it has 3 levels; criteria have 7 (use + for any value, or end with #)"),
        ("style: x\nsteps: [{publish: {topic: ds/a/b/c/d/e/f, timestamp: yesterday}}]", "scenario: steps[0].publish.timestamp: expected an ISO 8601 date and time with a time zone"),
        ("style: x\nsteps: [load]\nlive: {chaos: {drop: 2}}", "scenario: live.chaos.drop: 2 is outside 0...1"),
        ("style: x\nsteps: [check-content]", "scenario: steps: step 1 needs a site's content: add \"content\""),
        ("style: x\nsteps: [load]\ncontent: {package: p.mapsimpkg}", "scenario: content: package and public-key go together"),
        ("style: x\nsteps: [{set-config: {basemap: 3}}]", "scenario: steps[0].set-config.basemap: config values are given by import: {\"IMPORT\": {\"NAME\": VALUE}} (\"\" for the root style)"),
        ("style: x\nsteps: [load]\nconfig: {showLabels: false}", "scenario: config.showLabels: config values are given by import: {\"IMPORT\": {\"NAME\": VALUE}} (\"\" for the root style)"),
        ("style: x\nsteps: [load]\ncache: none\ncontent: {server: s}", "scenario: content: the data manager keeps its content in the cache: it cannot go with cache: none"),
        ("style: x\nsteps: [load]\ncamera: {pitch: 70}", "scenario: camera.pitch: 70 is outside 0...60"),
        ("style: x\nengine: mapbox-gl-js\nsteps: [{camera: {pitch: 86}}]", "scenario: steps[0].camera.pitch: 86 is outside 0...85"),
    ])
    func namesWhatIsWrong(yaml: String, message: String) {
        #expect { try Scenario.parse(yaml, name: "x", folder: "/") } throws: { error in
            (error as? ScenarioError)?.code == .malformed && "\(error)" == message
        }
    }

    @Test func readsConfigBeforeTheLoadAndAStepThatSetsItMidRun() throws {
        let scenario = try Scenario.parse("""
            style: x
            config: {basemap: {lightPreset: dusk}}
            steps: [load, {set-config: {basemap: {showPlaceLabels: false}, "": {x: 1}}}]
            """, name: "x", folder: "/")
        #expect(scenario.config == JSONObject([("basemap", .object(JSONObject([("lightPreset", .string("dusk"))])))]))
        #expect(scenario.steps.last == .setConfig(JSONObject([("basemap", .object(JSONObject([("showPlaceLabels", .bool(false))]))),
                                                               ("", .object(JSONObject([("x", .number(1))])))])))
    }

    @Test func readsLiveData() throws {
        let scenario = try Scenario.parse("""
        style: x
        live: {source: rooms, latency: 5, redelivery: 300, refuse: [ds/#], chaos: {drop: 0.1, duplicate: 0.2, reorder: 50}}
        steps:
          - {subscribe: "ds/+/+/+/+/+/occupancy"}
          - {publish: {topic: ds/v/b/f/r/room-1/occupancy, timestamp: "2026-11-24T09:00:00.5Z", properties: {state: busy}, delay: 250}}
          - drop-connection
          - restart-broker
          - {unsubscribe: "ds/+/+/+/+/+/occupancy"}
        expect: [{count: {event: live-update, equals: 1}}, {feature: {source: rooms, id: room-1, coordinates: [1, 2], properties: {a: "b"}}}]
        """, name: "x", folder: "/")
        let live = try #require(scenario.live)
        #expect(live.source == "rooms" && live.broker.latency == .milliseconds(5) && live.broker.redeliveryDelay == .milliseconds(300))
        #expect(live.broker.chaos == .init(dropRate: 0.1, duplicateRate: 0.2, maximumExtraDelay: .milliseconds(50)))
        #expect(live.broker.refused.map(\.mqttFilter) == ["ds/#"])
        let criteria = TopicCriteria(dataset: "ds", domainType: "occupancy")
        let update = LiveUpdate(topic: try LiveTopic(parsing: "ds/v/b/f/r/room-1/occupancy"), id: "room-1",
                                timestamp: try #require(ISO8601Timestamp.microseconds("2026-11-24T09:00:00.5Z")), properties: ["state": "busy"])
        #expect(scenario.steps == [.subscribe(criteria), .publish(update, delay: .milliseconds(250)), .dropConnection, .restartBroker, .unsubscribe(criteria)])
        #expect(scenario.expectations == [.count(.liveUpdate, 1), .feature(.init(source: "rooms", id: .string("room-1"),
                                                                                  properties: JSONObject([("a", .string("b"))]), coordinates: [1, 2]))])
    }

    @Test func readsDynamicEntities() throws {
        let scenario = try Scenario.parse("""
        style: x
        entities: {feed: feeds/ais.jsonl, track-id-field: MMSI, time-field: BaseDateTime, speed: 60, max-observations: 5,
                   max-observations-per-track: 2, max-duration: 3000, filter: [">", ["get", "SOG"], 0], bbox: [1, 2, 3, 4],
                   source: ships, track-source: tracks}
        steps: [connect-feed, {outage: 25000}, purge-all, disconnect-feed]
        """, name: "x", folder: "/base")
        let entities = try #require(scenario.entities)
        #expect(entities.feed == "/base/feeds/ais.jsonl")
        #expect(entities.format == DynamicEntityFeedFormat(trackIDField: "MMSI", timeField: "BaseDateTime", speed: 60))
        #expect(entities.options == DynamicEntityPurgeOptions(maximumObservations: 5, maximumObservationsPerTrack: 2, maximumDuration: .seconds(3)))
        #expect(entities.binding == DynamicEntityBinding(sourceID: "ships", trackSourceID: "tracks"))
        #expect(scenario.steps == [.connectFeed, .outage(.seconds(25)), .purgeAll, .disconnectFeed])
        #expect(throws: ScenarioError.self) { try Scenario.parse("style: x\nsteps: [purge-all]", name: "x", folder: "/") }
        #expect(throws: ScenarioError.self) {
            try Scenario.parse("style: x\nentities: {feed: f, track-id-field: id, filter: [\"nope\"]}\nsteps: [load]", name: "x", folder: "/")
        }
    }

    @Test func readsContent() throws {
        let scenario = try Scenario.parse("""
        style: x
        content: {server: site, package: p.mapsimpkg, public-key: k.pub, max-age: 60000, require-first-online-check: true}
        steps: [check-content, refresh-content, {publish-content: v2}, load]
        expect: [{no-network-during-step: 1}]
        """, name: "x", folder: "/base")
        #expect(scenario.content == .init(server: "/base/site", package: "/base/p.mapsimpkg", publicKey: "/base/k.pub", maximumAge: .seconds(60),
                                          requiresFirstOnlineCheck: true))
        #expect(scenario.steps == [.checkContent, .refreshContent, .publishContent("/base/v2"), .load])
        #expect(scenario.expectations == [.noNetworkDuringStep(1)])
    }

    @Test func featureExpectationsSayWhatDiffers() {
        let expected = Scenario.FeatureExpectation(source: "rooms", id: .string("r"), properties: JSONObject([("s", .string("busy"))]), coordinates: [1, 2])
        #expect(ScenarioRunner.check(expected, actual: nil) == [#"expected feature "r" of source "rooms", which does not exist at the end"#])
        let actual = JSONValue.object(JSONObject([("properties", .object(JSONObject([("s", .string("free"))]))),
                                                  ("geometry", .object(JSONObject([("coordinates", .array([.number(1), .number(2)]))])))]))
        #expect(ScenarioRunner.check(expected, actual: actual) == [#"expected feature "r" of source "rooms" to have s = "busy", but it is "free""#])
    }

    @Test func expectationsCatchWhatDidNotHappen() {
        let events = [MapEvent(begin: .zero, end: .seconds(3), payload: .mapLoaded),
                      MapEvent(begin: .zero, end: .seconds(4), payload: .resourceRequest(ResourceRequest(
                          dataSource: .network, request: Resource(url: "https://h/x", kind: .tile), response: .success([], source: .network), cancelled: false)))]
        let failures = ScenarioRunner.check([.happens(.mapIdle), .never(.mapLoaded), .within(.mapLoaded, .seconds(2)), .noNetworkAfterStep(1)],
                                            events: events, stepStarts: [0])
        #expect(failures.count == 4)
        #expect(failures[2] == "map-loaded came at 3000.000 ms, over the budget of 2000.000 ms")
        // Budgets are checked as `mapsim load --budget` checks them.
        let budgets = ScenarioRunner.check([.budgets([LoadBudget(.milestone(.mapLoaded), limit: 2_000_000), LoadBudget(.requests(.tile), limit: 1),
                                                      LoadBudget(.milestone(.mapIdle), limit: 1)])], events: events, stepStarts: [0])
        #expect(budgets == ["budget map-loaded: 3 s > 2 s", "budget map-idle: never reached, limit 0.001 ms"])
    }
}
