import Foundation
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimJSON
@testable import MapSimTrace

@Suite("Trace")
struct TraceTests {
    /// One event of every type, with every optional field somewhere.
    static let everyKind: [MapEvent] = {
        let tile = CanonicalTileID(z: 3, x: 1, y: 2)
        var response = Response.success([1, 2, 3], source: .network)
        response.etag = "\"e: 1\""
        response.expires = HTTPDate(secondsSince1970: 1_767_225_900)
        response.modified = HTTPDate(secondsSince1970: 1_767_225_000)
        response.mustRevalidate = true
        let payloads: [MapEventPayload] = [
            .resourceRequest(ResourceRequest(dataSource: .network, request: Resource(url: "https://h/s.json?v=1", kind: .style, priority: .low),
                                             response: response, cancelled: false)),
            .resourceRequest(ResourceRequest(dataSource: .resourceLoader, request: Resource(url: "https://h/t.pbf", kind: .tile),
                                             response: nil, cancelled: true)),
            .resourceRequest(ResourceRequest(dataSource: .database, request: Resource(url: "https://h/g.pbf", kind: .glyphs),
                                             response: .failure(.inOfflineMode, "offline: \"quoted\"", source: .cache), cancelled: false)),
            .styleDataLoaded(StyleDataLoaded(type: .style)), .cameraChanged, .styleLoaded,
            .sourceDataLoaded(SourceDataLoaded(id: "true", type: .metadata)),
            .sourceDataLoaded(SourceDataLoaded(id: "city", type: .tile, loaded: false, tileID: tile)),
            .mapLoadingError(MapLoadingError(type: .tile, message: "tile 3/1/2: truncated, [sic]", sourceID: "city", tileID: tile)),
            .mapLoadingError(MapLoadingError(type: .sprite, message: "no")),
            .styleImageMissing(id: "123"), .styleImageRemoveUnused(id: "a b"), .sourceAdded(id: "x"), .sourceRemoved(id: "null"),
            .renderFrameStarted, .renderFrameFinished(RenderFrameFinished(renderMode: .full, needsRepaint: true, placementChanged: false)),
            .mapLoaded, .mapIdle,
            .sourceDataLoaded(SourceDataLoaded(id: "rooms", type: .metadata, dataID: "live-3")),
            .live(.stateChanged(.connected, previous: .connecting)), .live(.subscribed(criteria: "acme/#")), .live(.unsubscribed(criteria: "acme/#")),
            .live(.subscriptionError(criteria: "a/+/+/+/+/+/co2", message: "refused")), .live(.unsubscriptionError(criteria: "b/#", message: "gone")),
            .live(.error(message: "lost: \"x\"")),
            .live(.update(LiveUpdateReceived(topic: "a/b/c/d/e/f/g", id: "f", timestamp: "2026-11-24T09:00:00.5Z", properties: ["state": "busy", "n": "1"]))),
            .dynamicEntity(.observationReceived(trackID: "366", entityID: 1, observationID: 2)),
            .dynamicEntity(.observationPurged(trackID: "366", entityID: 1, observationID: 1, reason: .age)),
            .dynamicEntity(.entityReceived(trackID: "yes", entityID: 4)), .dynamicEntity(.entityPurged(trackID: "null", entityID: 4)),
            .dynamicEntity(.connectionStatusChanged(.failed, previous: .connecting, attempt: nil, error: "the feed cannot be reached")),
            .dynamicEntity(.connectionStatusChanged(.connecting, previous: .connecting, attempt: 2, error: nil)),
            .content(.start(site: "city", isOnlineData: true)), .content(.ready(site: "city", isOnlineData: false)),
            .content(.completeAll(site: "city", isSuccessful: true, isOnlineData: true, errors: [:])),
            .content(.completeAll(site: "c", isSuccessful: false, isOnlineData: true, errors: ["style.json": "gone \"now\""])),
        ]
        return payloads.enumerated().map { MapEvent(begin: SimTime(microseconds: Int64($0.offset) * 10), end: SimTime(microseconds: Int64($0.offset) * 16_666), payload: $0.element) }
    }()

    private let trace = Trace(header: .init(scenario: "every kind", seed: 42), events: TraceTests.everyKind)

    @Test func yamlReadsBackToTheSameEvents() throws {
        let yaml = trace.yaml
        let read = try Trace.read(yaml: yaml)
        #expect(read.header == trace.header)
        #expect(read.events.map(\.jsonLine) == trace.events.map(\.jsonLine))
        #expect(read.yaml == yaml, "writing twice gives the same bytes")
        #expect(yaml.split(separator: "\n").count == 5 + trace.events.count, "one line per event")
        #expect(yaml.contains("  - {type: style-data-loaded, begin: 30, end: 49998, data: {type: style}}"))
    }

    @Test func aByteRangeReadsBack() throws {
        let read = ResourceRequest(dataSource: .network, request: Resource.archiveRange("https://h/a.pmtiles", 127...246),
                                   response: .success([1, 2, 3], source: .network), cancelled: false)
        let ranged = Trace(header: .init(scenario: "ranges", seed: 1), events: [MapEvent(begin: .zero, end: .zero, payload: .resourceRequest(read))])
        #expect(ranged.jsonLines.contains(#""range":{"from":127,"to":246}"#))
        let back = try Trace.read(jsonLines: ranged.jsonLines).events.first.flatMap { MapEvents.resourceRequest.payload(in: $0.payload) }
        #expect(back?.request.dataRange == 127...246)
        #expect(try Trace.read(yaml: ranged.yaml).events.map(\.jsonLine) == ranged.events.map(\.jsonLine))
    }

    @Test func jsonLinesReadBackAndATruncatedLastLineIsNamedUnlessAllowed() throws {
        let text = trace.jsonLines
        #expect(try Trace.read(jsonLines: text).events.map(\.jsonLine) == trace.events.map(\.jsonLine))
        #expect(try Trace.read(jsonLines: text).header == trace.header)
        let died = String(text.dropLast(30))
        let lastLine = text.split(separator: "\n").count
        #expect(throws: TraceError(.malformed, file: "t.jsonl", line: lastLine,
                                   "the last line is incomplete: the trace was cut mid-line (--allow-truncated reads the lines before it)")) {
            try Trace.read(jsonLines: died, name: "t.jsonl")
        }
        #expect(try Trace.read(jsonLines: died, allowTruncated: true).events.count == trace.events.count - 1)
        #expect(throws: TraceError.self) { try Trace.read(jsonLines: "{\"type\": \"map-idle\"}\nnot json\n{}\n") }
        let plainEvents = trace.events.map(\.jsonLine).joined(separator: "\n") + "\n"
        #expect(try Trace.read(jsonLines: plainEvents, name: "run.jsonl").events.count == trace.events.count)
    }

    @Test func unreadableTracesSayWhereAndWhy() {
        #expect(throws: TraceError(.malformed, file: "t.yaml", "not a mapsim trace (no \"mapsim\" and \"scenario\" header)")) { try Trace.read(yaml: "a: 1", name: "t.yaml") }
        #expect(throws: TraceError(.malformed, file: "t.jsonl", line: 2, "unknown event type \"map-exploded\"")) {
            try Trace.read(jsonLines: "{\"mapsim\":\"0.1.0\",\"scenario\":\"s\",\"seed\":0}\n{\"type\":\"map-exploded\",\"begin\":0,\"end\":0}\n", name: "t.jsonl")
        }
        #expect(TraceError(.malformed, file: "t.jsonl", line: 2, "unknown event type \"map-exploded\"").message == "t.jsonl:2: unknown event type \"map-exploded\"")
    }

    @Test func timesAndRangesBeyondTheClockAreMalformedLinesNotTraps() {
        let read = ResourceRequest(dataSource: .network, request: Resource.archiveRange("https://h/a.pmtiles", 127...246),
                                   response: .success([1, 2, 3], source: .network), cancelled: false)
        let ranged = MapEvent(begin: .zero, end: .zero, payload: .resourceRequest(read)).jsonLine
        #expect((try? Trace.read(jsonLines: ranged + "\n")) != nil)
        let lines = [#"{"type": "map-idle", "begin": 1e300, "end": 1e300, "data": {}}"#, #"{"type": "map-idle", "begin": 2.5, "end": 3, "data": {}}"#,
                     ranged.replacingOccurrences(of: #""to":246"#, with: #""to":9223372036854775808"#)]
        for line in lines {
            #expect(throws: TraceError.self, "\(line)") { try Trace.read(jsonLines: line + "\n") }
        }
    }

    @Test func redactsSecretsFromURLsAndMessages() {
        let redactor = URLRedactor(parameters: URLRedactor.defaultParameters + ["session"])
        #expect(redactor.redact("https://a/b?access_token=pk.abc&x=1#f") == "https://a/b?access_token=REDACTED&x=1#f")
        #expect(redactor.redact("https://a/b?x=1&Key=s3cr3t") == "https://a/b?x=1&Key=REDACTED")
        #expect(redactor.redact("failed (https://a/b?session=zz) then") == "failed (https://a/b?session=REDACTED) then")
        #expect(redactor.redact("https://a/b?monkey=1") == "https://a/b?monkey=1")
        #expect(redactor.redact("failed to load https://a/s.json?access_token=pk.abc: HTTP 404") == "failed to load https://a/s.json?access_token=REDACTED: HTTP 404",
                "the colon after the URL is the message's")
        let event = MapEvent(begin: .zero, end: .zero, payload: .mapLoadingError(MapLoadingError(type: .style, message: "https://h/s?access_token=pk.x failed")))
        #expect(!redactor.redact(event).jsonLine.contains("pk.x"))
    }

    @Test func perfettoExportIsChromeTraceJSONWithMatchedRequests() throws {
        let json = try JSONParser.parse(PerfettoExporter.export(trace))
        let events = try #require(json["traceEvents"]?.arrayValue)
        let begins = events.filter { $0["ph"] == .string("b") }.compactMap { $0["id"]?.numberValue }
        let ends = events.filter { $0["ph"] == .string("e") }.compactMap { $0["id"]?.numberValue }
        #expect(begins.count == 3 && begins.sorted() == ends.sorted())
        #expect(events.allSatisfy { event in event["ph"] == .string("M") || event["ts"]?.numberValue.map { $0 == $0.rounded() } == true })
        let phases = events.filter { $0["ph"] == .string("X") }.compactMap { $0["name"]?.stringValue }
        #expect(phases == ["loading the style", "loading tiles", "settling"])
    }

    @Test func diffSaysWhichEventAndFieldDiffer() {
        // The map's own events, the first eighteen.
        let trace = Trace(header: self.trace.header, events: Array(self.trace.events.prefix(18)))
        var changed = trace
        changed.events[6].payload = .sourceDataLoaded(SourceDataLoaded(id: "other", type: .metadata))
        changed.events.remove(at: 10)
        changed.events.append(MapEvent(begin: .zero, end: .seconds(9), payload: .mapIdle))
        let diff = TraceDiff(expected: trace, actual: changed)
        #expect(diff.lines() == [
            "event 7: source-data-loaded at 99.996 ms: data.id: \"true\" → \"other\"",
            "event 11: missing style-image-missing at 166.660 ms: {\"id\":\"123\"}",
            "event 19: unexpected map-idle at 9000.000 ms: {}",
        ])
        #expect(TraceDiff(expected: trace, actual: trace).isEmpty)
    }

    @Test func relaxedDiffIgnoresTimesFramesAndOrderBetweenMilestonesButNotMilestones() {
        func request(_ url: String, at end: Int64) -> MapEvent {
            MapEvent(begin: .zero, end: SimTime(microseconds: end), payload: .resourceRequest(ResourceRequest(
                dataSource: .network, request: .tile(TileURLTemplate(url), id: CanonicalTileID(z: 0, x: 0, y: 0), pixelRatio: 1),
                response: .success([1], source: .network), cancelled: false)))
        }
        func frame(at end: Int64) -> MapEvent {
            MapEvent(begin: SimTime(microseconds: end), end: SimTime(microseconds: end),
                     payload: .renderFrameFinished(RenderFrameFinished(renderMode: .partial, needsRepaint: false, placementChanged: false)))
        }
        let loaded = MapEvent(begin: .zero, end: .zero, payload: .styleLoaded)
        let idle = MapEvent(begin: .seconds(1), end: .seconds(1), payload: .mapIdle)
        let first = Trace(header: .init(scenario: "a"), events: [loaded, request("https://h/a", at: 10), frame(at: 16), request("https://h/b", at: 20), idle])
        let second = Trace(header: .init(scenario: "b"), events: [loaded, request("https://h/b", at: 7), request("https://h/a", at: 90), frame(at: 16),
                                                                 frame(at: 33), MapEvent(begin: .seconds(2), end: .seconds(2), payload: .mapIdle)])
        #expect(!TraceDiff(expected: first, actual: second).isEmpty)
        #expect(TraceDiff(expected: first, actual: second, relaxed: true).isEmpty)
        // Headers are compared only when asked.
        #expect(!TraceDiff(expected: first, actual: first.withScenario("c"), compareHeaders: true).isEmpty)
        #expect(TraceDiff(expected: first, actual: first.withScenario("c")).isEmpty)
        // A request that moved past a milestone, or a missing one, is a difference.
        let moved = Trace(header: first.header, events: [loaded, request("https://h/a", at: 10), idle, request("https://h/b", at: 20)])
        #expect(TraceDiff(expected: first, actual: moved, relaxed: true).lines() == [
            "event 2: after style-loaded {}: missing 1× resource-request {\"data-source\":\"network\",\"request\":{\"url\":\"https://h/b\",\"kind\":\"tile\",\"priority\":\"regular\",\"loading-method\":[\"cache\",\"network\"]},\"response\":{\"no-content\":false,\"not-modified\":false,\"must-revalidate\":false,\"source\":\"network\",\"size\":1},\"cancelled\":false}",
            "event 3: after map-idle {}: unexpected 1× resource-request {\"data-source\":\"network\",\"request\":{\"url\":\"https://h/b\",\"kind\":\"tile\",\"priority\":\"regular\",\"loading-method\":[\"cache\",\"network\"]},\"response\":{\"no-content\":false,\"not-modified\":false,\"must-revalidate\":false,\"source\":\"network\",\"size\":1},\"cancelled\":false}",
        ])
    }

    @Test func relaxedDiffOfAServeRecordingComparesTheRequestsBelowTheStylesFolder() {
        func request(_ url: String, _ kind: Resource.Kind, _ response: Response, cancelled: Bool = false) -> MapEvent {
            MapEvent(begin: .zero, end: .zero, payload: .resourceRequest(ResourceRequest(dataSource: .network, request: Resource(url: url, kind: kind),
                                                                                        response: response, cancelled: cancelled)))
        }
        let missing = Response.failure(.notFound, "HTTP 404: not found", source: .network)
        // What serve recorded of a real client: the rewritten style (another size), a glyph range
        // spelled as MapLibre spells it, a tile answered 404.
        let served = Trace(header: .init(scenario: "serve style.json"), events: [
            request("http://127.0.0.1:8080/style.json", .style, .success(Array(repeating: 1, count: 90), source: .network)),
            request("http://127.0.0.1:8080/glyphs/A%20B%2cC/0-255.pbf", .glyphs, .success([1, 2], source: .network)),
            request("http://127.0.0.1:8080/tiles/1/0/0.pbf", .tile, missing),
        ])
        // A load of the style file: file URLs, milestones, a missing tile as no content, a cancelled request.
        let loaded = Trace(header: .init(scenario: "/s/style.json"), events: [
            request("file:///s/style.json", .style, .success([1], source: .localFile)),
            MapEvent(begin: .zero, end: .zero, payload: .styleLoaded),
            request("file:///s/tiles/1/0/0.pbf", .tile, Response(noContent: true, source: .localFile)),
            request("file:///s/tiles/1/1/0.pbf", .tile, .success([1], source: .localFile), cancelled: true),
            request("file:///s/glyphs/A B,C/0-255.pbf", .glyphs, .success([3, 4], source: .localFile)),
            MapEvent(begin: .zero, end: .zero, payload: .mapIdle),
        ])
        let agreeing = TraceDiff(expected: served, actual: loaded, relaxed: true)
        #expect(agreeing.isEmpty && agreeing.comparedRequestsOnly)
        // Not relaxed, every event counts.
        #expect(!TraceDiff(expected: served, actual: loaded).comparedRequestsOnly)
        // Another tile, another glyph size: each named.
        var other = loaded
        other.events[2] = request("file:///s/tiles/1/0/1.pbf", .tile, Response(noContent: true, source: .localFile))
        other.events[4] = request("file:///s/glyphs/A B,C/0-255.pbf", .glyphs, .success([3, 4, 5], source: .localFile))
        #expect(TraceDiff(expected: served, actual: other, relaxed: true).lines() == [
            "request missing: glyphs glyphs/A B,C/0-255.pbf ok 2 B",
            "request missing: tile tiles/1/0/0.pbf no-content",
            "request unexpected: glyphs glyphs/A B,C/0-255.pbf ok 3 B",
            "request unexpected: tile tiles/1/0/1.pbf no-content",
        ])
    }
}

extension Trace {
    /// The same trace under another scenario name.
    func withScenario(_ name: String) -> Trace {
        Trace(header: .init(mapsimVersion: header.mapsimVersion, scenario: name, seed: header.seed), events: events)
    }
}
