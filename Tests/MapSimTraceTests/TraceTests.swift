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
        #expect(yaml.split(separator: "\n").count == 6 + trace.events.count, "one line per event")
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

    @Test func aLongTraceReadInParallelNamesItsFirstBadLineAndKeepsItsOrder() throws {
        // Long enough to be read in runs on several threads: the order and the first error are the file's.
        let idle = #"{"type":"map-idle","begin":1,"end":2,"data":{}}"#
        var lines = (0..<6_000).map { #"{"type":"map-idle","begin":\#($0),"end":\#($0),"data":{}}"# }
        let read = try Trace.read(jsonLines: lines.joined(separator: "\n") + "\n")
        #expect(read.events.map(\.begin.microseconds) == (0..<6_000).map(Int64.init))
        lines[4_500] = #"{"type":"map-exploded","begin":0,"end":0}"#
        lines[5_900] = "not json"
        #expect(throws: TraceError(.malformed, file: "t.jsonl", line: 4_501, "unknown event type \"map-exploded\"")) {
            try Trace.read(jsonLines: lines.joined(separator: "\n") + "\n", name: "t.jsonl")
        }
        lines[4_500] = idle
        lines[5_900] = idle
        let cut = lines.joined(separator: "\n").dropLast(5)
        #expect(try Trace.read(jsonLines: String(cut), allowTruncated: true).events.count == 5_999)
        #expect(throws: TraceError(.malformed, file: "t.jsonl", line: 6_000, Trace.cutLastLine)) { try Trace.read(jsonLines: String(cut), name: "t.jsonl") }
    }

    @Test func unreadableTracesSayWhereAndWhy() {
        #expect(throws: TraceError(.malformed, file: "t.yaml", "not a mapsim trace (no \"mapsim\" and \"scenario\" header)")) { try Trace.read(yaml: "a: 1", name: "t.yaml") }
        #expect(throws: TraceError(.malformed, file: "t.jsonl", line: 2, "unknown event type \"map-exploded\"")) {
            try Trace.read(jsonLines: "{\"mapsim\":\"0.1.0\",\"scenario\":\"s\",\"seed\":0}\n{\"type\":\"map-exploded\",\"begin\":0,\"end\":0}\n", name: "t.jsonl")
        }
        #expect(TraceError(.malformed, file: "t.jsonl", line: 2, "unknown event type \"map-exploded\"").message == "t.jsonl:2: unknown event type \"map-exploded\"")
    }

    @Test func aMalformedFileKeepsWhatItWasCausedBy() throws {
        do {
            _ = try Trace.read(yaml: "events: [1, 2", name: "t.yaml")
            Issue.record("a YAML document cut short was read")
        } catch {
            #expect(error.underlying.error is YAMLError, "the YAML reader's own error is kept: \(error.underlying)")
        }
        do {
            _ = try Trace.read(jsonLines: "{\"mapsim\":\"0.1.0\",\"scenario\":\"s\",\"seed\":0}\n{\"type\": \n{}\n", name: "t.jsonl")
            Issue.record("a line that is no JSON was read")
        } catch {
            #expect(error.underlying.error is JSONSyntaxError, "the JSON reader's own error is kept: \(error.underlying)")
        }
        let scenario = #expect(throws: ScenarioError.self) { try Scenario.parse("style: [", name: "s", folder: "/") }
        #expect(scenario?.underlying.error is YAMLError)
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
        let (text, count) = PerfettoExporter.export(trace)
        let json = try JSONParser.parse(text)
        let events = try #require(json["traceEvents"]?.arrayValue)
        let begins = events.filter { $0["ph"] == .string("b") }
        let ends = events.filter { $0["ph"] == .string("e") }.compactMap { $0["id"]?.numberValue }
        #expect(begins.count == 3 && begins.compactMap { $0["id"]?.numberValue }.sorted() == ends.sorted())
        #expect(count == events.count)
        #expect(events.allSatisfy { event in event["ph"] == .string("M") || event["ts"]?.numberValue.map { $0 == $0.rounded() } == true })
        let phases = events.filter { $0["ph"] == .string("X") }.compactMap { $0["name"]?.stringValue }
        #expect(phases == ["loading the style", "loading tiles", "settling"])
        // A slice per request, named after its kind (a track per kind), its answer in its arguments.
        #expect(begins.compactMap { $0["name"]?.stringValue } == ["style", "tile", "glyphs"])
        let style = begins[0]["args"]
        #expect(style?["status"] == .string("200") && style?["outcome"] == .string("ok") && style?["size"] == .number(3)
                && style?["answered-by"] == .string("network") && style?["path"] == .string("s.json?v=1"))
        #expect(begins[1]["args"]?["outcome"] == .string("cancelled") && begins[2]["args"]?["status"] == .string("in-offline-mode"))
        // The milestones, markers across every track.
        let markers = events.filter { $0["cat"] == .string("milestone") }
        #expect(markers.compactMap { $0["name"]?.stringValue } == ["style-loaded", "map-loaded", "map-idle"] && markers.allSatisfy { $0["s"] == .string("g") })
        // Counters: requests in flight back to 0, bytes received summed.
        let inFlight = events.filter { $0["ph"] == .string("C") && $0["name"] == .string("requests in flight") }.compactMap { $0["args"]?["requests"]?.numberValue }
        let bytes = events.filter { $0["ph"] == .string("C") && $0["name"] == .string("bytes received") }.compactMap { $0["args"]?["bytes"]?.numberValue }
        #expect(inFlight.max() ?? 0 >= 1 && inFlight.last == 0 && bytes.last == 3 && bytes == bytes.sorted())
    }

    @Test func diffSaysWhichEventAndFieldDifferOneLineEach() {
        // The map's own events, the first eighteen.
        let trace = Trace(header: self.trace.header, events: Array(self.trace.events.prefix(18)))
        var changed = trace
        changed.events[6].payload = .sourceDataLoaded(SourceDataLoaded(id: "other", type: .metadata))
        changed.events.remove(at: 10)
        changed.events.append(MapEvent(begin: .zero, end: .seconds(9), payload: .mapIdle))
        let diff = TraceDiff(expected: trace, actual: changed)
        #expect(diff.lines() == [
            "source-data-loaded event 7 at 99.996 ms {\"id\":\"true\",\"type\":\"metadata\"}: data.id: \"true\" in A, \"other\" in B",
            "style-image-missing event 11 at 166.660 ms {\"id\":\"123\"}: only in A",
            "map-idle event 18 of B at 9000.000 ms: only in B",
        ])
        #expect(diff.countLine == "3 differences: source-data-loaded 1, style-image-missing 1, map-idle 1")
        #expect(diff.differences[0].json["field"] == .string("data.id") && diff.differences[0].json["a"] == .string("\"true\""))
        #expect(TraceDiff(expected: trace, actual: trace).isEmpty)
    }

    @Test func aLongDifferenceIsCutToOneLineOfAtMost200Characters() {
        let long = TraceDifference(group: "map-loading-error", subject: String(repeating: "x", count: 500), expected: String(repeating: "a", count: 300), actual: nil)
        #expect(long.description.count <= TraceDifference.maximumLineLength)
        #expect(long.description.hasPrefix("map-loading-error xxx") && long.description.contains("…") && long.description.hasSuffix(")"))
    }

    private func request(_ url: String, _ kind: Resource.Kind = .tile, _ response: Response? = .success([1], source: .network),
                         source: DataSource = .network, at end: Int64 = 0, cancelled: Bool = false) -> MapEvent {
        MapEvent(begin: .zero, end: SimTime(microseconds: end), payload: .resourceRequest(ResourceRequest(
            dataSource: source, request: Resource(url: url, kind: kind), response: response, cancelled: cancelled)))
    }

    private func milestone(_ payload: MapEventPayload, at end: Int64 = 0) -> MapEvent {
        MapEvent(begin: SimTime(microseconds: end), end: SimTime(microseconds: end), payload: payload)
    }

    /// A load of `base`'s style: the style, then the sprite and the TileJSON in `spriteFirst` order,
    /// style-loaded, two tiles in either order, map-loaded, map-idle.
    private func load(_ base: String, spriteFirst: Bool, tilesReversed: Bool, source: DataSource = .network, size: Int = 1) -> Trace {
        var response = Response.success(Array(repeating: 1, count: size), source: source == .network ? .network : .cache)
        response.expires = HTTPDate(secondsSince1970: spriteFirst ? 100 : 200)
        response.etag = spriteFirst ? "\"a\"" : "\"b\""
        let sprite = [request(base + "sprite.json", .spriteJSON, response, source: source, at: 10), milestone(.styleDataLoaded(StyleDataLoaded(type: .sprite)), at: 10)]
        let tileJSON = [request(base + "tiles.json", .source, response, source: source, at: 20),
                        milestone(.sourceDataLoaded(SourceDataLoaded(id: "city", type: .metadata)), at: 20),
                        milestone(.styleDataLoaded(StyleDataLoaded(type: .sources)), at: 20)]
        let tiles = [request(base + "tiles/1/0/0.pbf", .tile, response, source: source, at: 30), request(base + "tiles/1/1/0.pbf", .tile, response, source: source, at: 31)]
        let events = [request(base + "style.json", .style, response, source: source), milestone(.styleDataLoaded(StyleDataLoaded(type: .style)))]
            + (spriteFirst ? sprite + tileJSON : tileJSON + sprite) + [milestone(.styleLoaded, at: 20)]
            + (tilesReversed ? tiles.reversed() : tiles) + [milestone(.renderFrameFinished(RenderFrameFinished(renderMode: .full, needsRepaint: false, placementChanged: false)), at: 33),
                                                         milestone(.mapLoaded, at: 33), milestone(.mapIdle, at: 333)]
        return Trace(header: .init(scenario: base + "style.json"), events: events)
    }

    @Test func relaxedRunsAgreeWhateverTheOrderOfParallelWorkTheWallClockTheServersPortAndWhoAnswered() {
        let first = load("http://127.0.0.1:8080/", spriteFirst: true, tilesReversed: false)
        let second = load("http://127.0.0.1:9090/", spriteFirst: false, tilesReversed: true)
        #expect(!TraceDiff(expected: first, actual: second).isEmpty)
        #expect(TraceDiff(expected: first, actual: second, relaxed: true).isEmpty)
        #expect(TraceDiff(expected: first, actual: load("file:///srv/map/", spriteFirst: false, tilesReversed: false, source: .fileSystem), relaxed: true).isEmpty,
                "the same folder as a file")
        // A warm cache answers what a cold one fetched; the server's 304s confirm the copies.
        var warm = load("http://127.0.0.1:8080/", spriteFirst: true, tilesReversed: false, source: .database)
        var confirmation = Response(notModified: true, source: .network)
        confirmation.etag = "\"a\""
        warm.events.insert(request("http://127.0.0.1:8080/tiles/1/0/0.pbf", .tile, confirmation, at: 40), at: warm.events.count - 2)
        #expect(TraceDiff(expected: first, actual: warm, relaxed: true).isEmpty)
        // A failing tile retried once more before the map settled, its error reported again: the network's timing.
        let failure = Response.failure(.server, "HTTP 503 server error: http://127.0.0.1:8080/tiles/1/0/0.pbf", source: .network)
        let error = milestone(.mapLoadingError(MapLoadingError(type: .tile, message: failure.error!.message, sourceID: "city")), at: 30)
        var once = first
        once.events.insert(contentsOf: [request("http://127.0.0.1:8080/tiles/1/2/0.pbf", .tile, failure, at: 30), error], at: once.events.count - 2)
        var twice = once
        twice.events.insert(contentsOf: [request("http://127.0.0.1:8080/tiles/1/2/0.pbf", .tile, failure, at: 40), error], at: twice.events.count - 2)
        #expect(TraceDiff(expected: once, actual: twice, relaxed: true).isEmpty)
        #expect(TraceDiff(expected: first, actual: twice, relaxed: true).lines() == [
            "tile tiles/1/2/0.pbf: only in B (server)",
            "map-loading-error {\"type\":\"tile\",\"message\":\"HTTP 503 server error: tiles/1/0/0.pbf\",\"source-id\":\"city\"}: only in B",
        ])
        // The headers only when asked.
        #expect(TraceDiff(expected: first, actual: first.withScenario("c"), relaxed: true, compareHeaders: true).lines() == ["headers scenario: http://127.0.0.1:8080/style.json in A, c in B"])
    }

    @Test func relaxedFindsWhatReallyDiffersOneLineEach() {
        let first = load("http://127.0.0.1:8080/", spriteFirst: true, tilesReversed: false)
        var second = load("http://127.0.0.1:9090/", spriteFirst: false, tilesReversed: true, size: 1)
        // A tile not found (no content, as the map takes it), a tile of another size, an extra glyph range, an error, no map-loaded.
        let tile = second.events.firstIndex { $0.jsonLine.contains("tiles/1/1/0.pbf") }!
        second.events[tile] = request("http://127.0.0.1:9090/tiles/1/1/0.pbf", .tile, .failure(.notFound, "HTTP 404", source: .network), at: 31)
        let other = second.events.firstIndex { $0.jsonLine.contains("tiles/1/0/0.pbf") }!
        second.events[other] = request("http://127.0.0.1:9090/tiles/1/0/0.pbf", .tile, .success([1, 2], source: .network), at: 30)
        second.events.insert(request("http://127.0.0.1:9090/glyphs/A%20B/0-255.pbf", .glyphs, at: 32), at: other + 1)
        second.events.insert(milestone(.mapLoadingError(MapLoadingError(type: .tile, message: "HTTP 404: http://127.0.0.1:9090/tiles/1/1/0.pbf", sourceID: "city"))), at: other + 1)
        second.events.removeAll { $0.type == .mapLoaded }
        let diff = TraceDiff(expected: first, actual: second, relaxed: true)
        #expect(diff.lines() == [
            "milestones map-loaded: only in A",
            "tile tiles/1/0/0.pbf: ok 1 B in A, ok 2 B in B",
            "tile tiles/1/1/0.pbf: ok 1 B in A, no-content in B",
            "glyphs glyphs/A B/0-255.pbf: only in B (ok 1 B)",
            "map-loading-error {\"type\":\"tile\",\"message\":\"HTTP 404: tiles/1/1/0.pbf\",\"source-id\":\"city\"}: only in B",
        ])
        #expect(diff.countLine == "5 differences: milestones 1, tile 2, glyphs 1, map-loading-error 1")
        // Given bases name paths below them instead.
        let based = TraceDiff(expected: first, actual: second, relaxed: true, bases: ("http://127.0.0.1:8080/tiles/", "http://127.0.0.1:9090/tiles/"))
        #expect(based.lines().contains("tile 1/1/0.pbf: ok 1 B in A, no-content in B"))
    }

    @Test func relaxedKeepsWhatHappenedAfterMapIdleApart() {
        let loaded = milestone(.styleLoaded)
        let idle = milestone(.mapIdle, at: 1_000)
        let first = Trace(header: .init(scenario: "a"), events: [loaded, request("https://h/a", at: 10), request("https://h/b", at: 20), idle])
        let moved = Trace(header: first.header, events: [loaded, request("https://h/a", at: 10), idle, request("https://h/b", at: 20)])
        #expect(TraceDiff(expected: first, actual: moved, relaxed: true).lines() == [
            "tile https://h/b: only in A (ok 1 B)",
            "tile after map-idle 1: https://h/b: only in B (ok 1 B)",
        ])
    }

    @Test func relaxedDiffOfAServeRecordingComparesTheRequestsBelowTheStylesFolder() {
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
            request("file:///s/style.json", .style, .success([1], source: .localFile), source: .fileSystem),
            milestone(.styleLoaded),
            request("file:///s/tiles/1/0/0.pbf", .tile, Response(noContent: true, source: .localFile), source: .fileSystem),
            request("file:///s/glyphs/A B,C/0-255.pbf", .glyphs, .success([3, 4], source: .localFile), source: .fileSystem),
            request("file:///s/tiles/1/1/0.pbf", .tile, nil, source: .resourceLoader, cancelled: true),
            milestone(.mapIdle),
        ])
        let agreeing = TraceDiff(expected: served, actual: loaded, relaxed: true)
        #expect(agreeing.isEmpty && agreeing.comparedRequestsOnly)
        // Not relaxed, every event counts.
        #expect(!TraceDiff(expected: served, actual: loaded).comparedRequestsOnly)
        // Another tile, another glyph size: each named.
        var other = loaded
        other.events[2] = request("file:///s/tiles/1/0/1.pbf", .tile, Response(noContent: true, source: .localFile), source: .fileSystem)
        other.events[3] = request("file:///s/glyphs/A B,C/0-255.pbf", .glyphs, .success([3, 4, 5], source: .localFile), source: .fileSystem)
        #expect(TraceDiff(expected: served, actual: other, relaxed: true).lines() == [
            "tile tiles/1/0/0.pbf: only in A (no-content)",
            "tile tiles/1/0/1.pbf: only in B (no-content)",
            "glyphs glyphs/A B,C/0-255.pbf: ok 2 B in A, ok 3 B in B",
        ])
    }
}

extension Trace {
    /// The same trace under another scenario name.
    func withScenario(_ name: String) -> Trace {
        Trace(header: .init(mapsimVersion: header.mapsimVersion, scenario: name, seed: header.seed), events: events)
    }
}
