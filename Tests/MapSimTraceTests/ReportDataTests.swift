import Foundation
import Testing
import MapSimJSON
import MapSimTesting
@testable import MapSim
@testable import MapSimPages
@testable import MapSimTrace

/// What the report pages are drawn from: request rows, tiles per source, the critical path's rows,
/// golden and new traces paired, pages that cannot be broken out of.
@Suite("Report data")
struct ReportDataTests {
    private func request(_ url: String, _ kind: Resource.Kind = .tile, begin: Int64 = 0, end: Int64, _ response: Response?,
                         source: DataSource = .network) -> MapEvent {
        MapEvent(begin: .milliseconds(begin), end: .milliseconds(end), payload: .resourceRequest(ResourceRequest(
            dataSource: source, request: Resource(url: url, kind: kind), response: response, cancelled: response == nil)))
    }

    private func loaded(_ source: String, _ z: Int, _ x: Int, _ y: Int, at time: Int64) -> MapEvent {
        MapEvent(begin: .milliseconds(time), end: .milliseconds(time),
                 payload: .sourceDataLoaded(SourceDataLoaded(id: source, type: .tile, loaded: false, tileID: CanonicalTileID(z: z, x: x, y: y))))
    }

    @Test func aRowSaysHowARequestEndedAndWhatAnsweredIt() throws {
        let naming = ResourcePath(base: "https://h/maps/style.json")
        func row(_ event: MapEvent) -> [JSONValue] {
            var bytes: [UInt8] = []
            guard RequestRow.write(event, naming: naming, into: &bytes) else { return [] }
            return (try? JSONParser.parse(bytes))?.arrayValue ?? []
        }
        let ok = row(request("https://h/maps/tiles/1/0/0.pbf", end: 5, .success([1, 2], source: .network)))
        #expect(Array(ok[2...8]) == [.string("tile"), .string("tiles/1/0/0.pbf"), .string("ok"), .string("200"), .string("network"), .number(2), .number(0)])
        #expect(ok[9].stringValue?.hasPrefix("{\"type\":\"resource-request\"") == true)
        var confirmed = Response(source: .network)
        confirmed.notModified = true
        #expect(row(request("https://h/maps/s.json", .style, end: 1, confirmed))[5] == .string("304"))
        #expect(row(request("https://h/maps/s.json", .style, end: 1, Response(data: [1], source: .cache), source: .database))[6] == .string("cache"))
        #expect(row(request("https://h/t.pbf", end: 1, .failure(.server, "HTTP 503 server error: x", source: .network)))[4...5] == [.string("error"), .string("503")])
        #expect(row(request("https://h/t.pbf", end: 1, .failure(.connection, "dropped", source: .network)))[5] == .string("connection"))
        #expect(row(request("https://h/t.pbf", end: 1, nil))[4...6] == [.string("cancelled"), .string("cancelled"), .string("—")])
        #expect(row(request("pmtiles:///a.pmtiles", end: 1, .success([1], source: .localFile), source: .fileSystem))[6] == .string("archive"))
        var nothing: [UInt8] = []
        #expect(!RequestRow.write(MapEvent(begin: .zero, end: .zero, payload: .mapIdle), naming: naming, into: &nothing) && nothing.isEmpty)
        // The event's line inside the row is the event's JSON line, whatever it holds.
        let quoted = request("https://h/maps/tiles/1/0/0.pbf?q=\"a\"\\b", end: 5, .failure(.server, "HTTP 500: \"broken\"\n\tline", source: .network))
        #expect(row(quoted)[9] == .string(quoted.jsonLine))
    }

    @Test func tilesAreNamedBySourceWithHowAndWhenTheyArrived() throws {
        let events = [
            request("https://h/a/10/1/1.pbf", begin: 0, end: 10, .success([1], source: .network)), loaded("a", 10, 1, 1, at: 10),
            request("https://h/a/10/1/2.pbf", begin: 0, end: 12, Response(data: [1], source: .cache), source: .database), loaded("a", 10, 1, 2, at: 12),
            request("https://h/a/10/2/1.pbf", begin: 0, end: 14, Response(noContent: true, source: .network)), loaded("a", 10, 2, 1, at: 14),
            // A tile that failed, then loaded when retried; one that only failed; one cancelled.
            request("https://h/a/10/2/2.pbf", begin: 0, end: 15, .failure(.server, "HTTP 503", source: .network)),
            MapEvent(begin: .milliseconds(15), end: .milliseconds(15), payload: .mapLoadingError(MapLoadingError(type: .tile, message: "x", sourceID: "a",
                                                                                                                  tileID: CanonicalTileID(z: 10, x: 2, y: 2)))),
            request("https://h/a/10/2/2.pbf", begin: 20, end: 30, .success([1], source: .network)), loaded("a", 10, 2, 2, at: 30),
            request("https://h/a/10/3/3.pbf", begin: 0, end: 16, .failure(.server, "HTTP 500", source: .network)),
            MapEvent(begin: .milliseconds(16), end: .milliseconds(16), payload: .mapLoadingError(MapLoadingError(type: .tile, message: "x", sourceID: "a",
                                                                                                                  tileID: CanonicalTileID(z: 10, x: 3, y: 3)))),
            request("https://h/a/10/4/4.pbf", begin: 0, end: 17, nil),
            // The parent, prefetched; a world copy of the same tile twice at once; a GeoJSON tile, no request.
            request("https://h/a/6/0/0.pbf", begin: 0, end: 9, .success([1], source: .network)), loaded("a", 6, 0, 0, at: 9),
            request("https://h/b/0/0/0.png", begin: 0, end: 5, .success([1], source: .network)), request("https://h/b/0/0/0.png", begin: 0, end: 5, .success([1], source: .network)),
            loaded("b", 0, 0, 0, at: 5), loaded("b", 0, 0, 0, at: 5), loaded("points", 2, 1, 1, at: 3),
        ]
        let sources = ReportTiles(events).json.arrayValue ?? []
        #expect(sources.compactMap { $0["source"]?.stringValue } == ["a", "b", "points"])
        let a = (sources[0]["tiles"]?.arrayValue ?? []).map { tile in (tile.arrayValue ?? []).map { $0.numberValue.map(JSONWriter.formatNumber) ?? $0.stringValue ?? "" }.joined(separator: " ") }
        #expect(a == ["6 0 0 loaded 9000 1 1", "10 1 1 loaded 10000 1 0", "10 2 1 empty 14000 1 0", "10 1 2 cache 12000 1 0", "10 2 2 loaded 30000 1 0",
                      "10 3 3 failed 16000 1 0", "10 4 4 cancelled 17000 1 0"])
        #expect(sources[1]["tiles"]?.arrayValue?.first?.arrayValue?[5] == .number(2), "two world copies")
        #expect(sources[2]["tiles"]?.arrayValue?.first?.arrayValue?[3] == .string("loaded"))
        #expect(ReportTiles.template(of: "https://h/t/10/163/395@2x.png?key=1") == "https://h/t/{z}/{x}/{y}@2x.png?key=1")
        #expect(ReportTiles.Key(url: "https://h/t/99/1/1.pbf") == nil && ReportTiles.Key(url: "https://h/t/2/4/0.pbf") == nil && ReportTiles.Key(url: "https://h/x.json") == nil)
    }

    @Test func tileURLsReadTheSameWithOrWithoutOtherScripts() {
        // ASCII URLs are read as bytes, others as characters: the two readings agree.
        #expect(ReportTiles.Key(url: "https://h/t//3/2/1.pbf?a=1/2/3") == ReportTiles.Key(z: 3, x: 2, y: 1))
        #expect(ReportTiles.Key(url: "https://h/té/3/2/1.pbf?a=1/2/3") == ReportTiles.Key(z: 3, x: 2, y: 1))
        #expect(ReportTiles.Key(url: "https://h/t/3/2/1٣.pbf") == nil && ReportTiles.Key(url: "https://h/t/3/2/٣.pbf") == nil)
        #expect(ReportTiles.Key(url: "https://h/t/3/2/x1.pbf") == nil && ReportTiles.Key(url: "3/2/1") == ReportTiles.Key(z: 3, x: 2, y: 1))
        #expect(ReportTiles.Key(url: "https://h/t/3/99999999999999999999/1.pbf") == nil && ReportTiles.Key(url: "2/1") == nil)
        #expect(ReportTiles.template(of: "https://h/té/10/163/395@2x.png?key=1") == "https://h/té/{z}/{x}/{y}@2x.png?key=1")
        #expect(ReportTiles.template(of: "10/163/395.pbf") == "/{z}/{x}/{y}.pbf" && ReportTiles.template(of: "a/b") == "a/b")
        #expect(ReportTiles.template(of: "https://h/t/1/2/3?q=/x/y/z") == "https://h/t/{z}/{x}/{y}?q=/x/y/z")
    }

    @Test func theReportMarksTheCriticalPathAndListsTheMilestones() throws {
        let events = [
            request("https://h/style.json", .style, begin: 0, end: 10, .success([1], source: .network)),
            MapEvent(begin: .milliseconds(10), end: .milliseconds(10), payload: .styleLoaded),
            request("https://h/t/1/0/0.pbf", begin: 10, end: 30, .success([1], source: .network)),
            request("https://h/t/1/1/0.pbf", begin: 10, end: 20, .success([1], source: .network)),
            MapEvent(begin: .milliseconds(40), end: .milliseconds(40), payload: .mapLoaded),
            MapEvent(begin: .milliseconds(90), end: .milliseconds(90), payload: .mapIdle),
        ]
        let trace = Trace(header: Trace.Header(scenario: "t", network: "3g", camera: Trace.Header.camera(CameraOptions(zoom: 3), viewport: Viewport(width: 800, height: 600))),
                          events: events)
        let json = TraceReport(name: "t", trace: trace).json
        #expect(json["critical"]?["steps"] == .array([.number(0), .number(1)]))
        #expect(json["critical"]?["milestone"] == .string("map-idle"))
        // A row is written before the path is known: the page marks the rows the steps name.
        #expect(json["rows"]?.arrayValue?.map { $0.arrayValue?[8] } == [.number(0), .number(0), .number(0)])
        #expect(json["milestones"] == .array([.array([.string("style-loaded"), .number(10_000)]), .array([.string("map-loaded"), .number(40_000)]),
                                               .array([.string("map-idle"), .number(90_000)])]))
        #expect(json["duration"] == .number(90_000))
        let header = (json["header"]?.arrayValue ?? []).compactMap { pair in pair.arrayValue.map { "\($0[0].stringValue ?? ""): \($0[1].stringValue ?? "")" } }
        #expect(header.contains("network: 3g") && header.contains("camera: zoom 3 · the rest the style's · 800×600 at 1x") && header.contains("style: https://h/style.json"))
    }

    @Test func aStepAfterARequestGivenUpAfterItFailedNamesItsOwnRow() throws {
        // The tile failed, was given up (a row the summary does not count again), then retried.
        let events = [
            request("https://h/style.json", .style, begin: 0, end: 10, .success([1], source: .network)),
            request("https://h/t/1/0/0.pbf", begin: 10, end: 20, .failure(.server, "HTTP 503", source: .network)),
            request("https://h/t/1/0/0.pbf", begin: 10, end: 21, nil),
            request("https://h/t/1/1/1.pbf", begin: 10, end: 22, nil),
            request("https://h/t/1/0/0.pbf", begin: 1_020, end: 1_040, .success([1], source: .network)),
            MapEvent(begin: .milliseconds(1_100), end: .milliseconds(1_100), payload: .mapIdle),
        ]
        let json = TraceReport(name: "t", trace: Trace(header: Trace.Header(scenario: "t"), events: events)).json
        #expect(json["critical"]?["steps"] == .array([.number(0), .number(1), .number(4)]))
        #expect(json["rows"]?.arrayValue?.count == 5)
    }

    @Test func goldenAndNewTracesPairAsDiffPairsThem() {
        let a = [MapEvent(begin: .zero, end: .zero, payload: .styleLoaded), request("https://h/t/1/0/0.pbf", end: 5, .success([1], source: .network)),
                 MapEvent(begin: .zero, end: .milliseconds(6), payload: .cameraChanged), MapEvent(begin: .zero, end: .milliseconds(9), payload: .mapIdle)]
        var b = a
        b[1] = request("https://h/t/1/0/0.pbf", end: 7, .success([1], source: .network))
        b.remove(at: 2)
        b.append(MapEvent(begin: .zero, end: .milliseconds(9), payload: .mapLoaded))
        let pairs = TraceSideBySide(golden: Trace(header: .init(scenario: "a"), events: a), new: Trace(header: .init(scenario: "a"), events: b)).pairs
        #expect(pairs.map { "\($0.golden ?? -1) \($0.new ?? -1) \($0.mark)" } == ["0 0 same", "1 1 changed", "2 -1 onlyGolden", "3 2 same", "-1 3 onlyNew"])
    }

    @Test func aPageKeepsItsDataInsideItsScriptElement() {
        let html = PageDocument(mode: "report", title: "a <b> & \"c\"", data: JSONObject([("x", .string("</script><script>alert(1)</script>"))])).html
        #expect(html.contains("<title>a &lt;b&gt; &amp; &quot;c&quot;</title>"))
        #expect(!html.contains("</script><script>alert(1)") && html.contains("\\u003c/script>\\u003cscript>alert(1)"))
        #expect(html.components(separatedBy: "</script>").count == 3, "the data's and the page's script elements end once each")
        let report = SuiteReport(entries: ["../../etc/passwd", ".hidden"].map { SuiteReport.Entry(name: $0, passed: true, seconds: 0, problems: [], trace: nil, golden: nil) })
        #expect(report.pageNames == ["_.._.._etc_passwd.html", "_.hidden.html"])
    }

    @Test func rowsWrittenPieceByPieceMakeThePageAndCannotEndTheirElement() {
        let plain = Array(#"[1,"a"],[2,"b"]"#.utf8)
        let hostile = Array(#",[3,"</script><script>alert(1)</script>"]"#.utf8)
        let after = [(id: "mapsim-rows-1", runs: [plain, hostile])]
        let pieces = PageDocument.pieces(mode: "report", title: "t", after: after) { _ in }
        let page = PageDocument.page(mode: "report", title: "t", after: after) { _ in }
        #expect(pieces.reduce(into: []) { $0 += $1 } == page)
        #expect(pieces.contains(plain), "a run with nothing to escape is written as it is")
        let html = String(decoding: page, as: UTF8.self)
        #expect(html.contains(#"<script type="application/json" id="mapsim-rows-1">[[1,"a"],[2,"b"],[3,"\u003c/script>\u003cscript>alert(1)\u003c/script>"]]</script>"#))
    }

    /// The page `mapsim report` writes of `files`, read in blocks of `blockSize` bytes.
    private func spooledPage(_ files: [String], title: String? = nil, blockSize: Int, in folder: FixtureDirectory) throws -> [UInt8] {
        let reports = try files.map { try SpooledTraceReport(file: $0, name: URL(fileURLWithPath: $0).lastPathComponent, blockSize: blockSize) }
        let path = folder.path + "/page-\(blockSize).html"
        let file = try OutputFile(path: path, format: .page)
        try ReportPage.write(reports, title: title, to: file)
        try file.close()
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A load's events: the style, tiles of a source (one failed, one retried, one with `<` in its
    /// URL), their loads, a glyph range, milestones.
    private var loadEvents: [MapEvent] {
        [
            request("https://h/maps/style.json", .style, begin: 0, end: 10, .success([1], source: .network)),
            MapEvent(begin: .milliseconds(10), end: .milliseconds(10), payload: .styleLoaded),
            request("https://h/maps/t/1/0/0.pbf", begin: 10, end: 30, .success([1], source: .network)),
            request("https://h/maps/t/1/1/0.pbf", begin: 10, end: 20, .failure(.server, "HTTP 503", source: .network)),
            request("https://h/maps/t/1/1/0.pbf", begin: 25, end: 45, .success([1], source: .cache), source: .database),
            request("https://h/maps/t/1/0/1.pbf?q=</script>", begin: 10, end: 35, nil),
            loaded("s", 1, 0, 0, at: 30),
            loaded("s", 1, 1, 0, at: 45),
            request("https://h/fonts/0-255.pbf", .glyphs, begin: 45, end: 60, .success([1], source: .network)),
            MapEvent(begin: .milliseconds(60), end: .milliseconds(60), payload: .mapLoaded),
            MapEvent(begin: .milliseconds(90), end: .milliseconds(90), payload: .mapIdle),
        ]
    }

    @Test(arguments: [1, 300, 1 << 22])
    func aReportReadFromItsFilesInBlocksIsThePageMadeInMemory(blockSize: Int) throws {
        let folder = try FixtureDirectory()
        let header = Trace.Header(scenario: "load", network: "3g")
        let load = Trace(header: header, events: loadEvents)
        // The first style requested after other requests: their rows wait for it to name their paths.
        let late = Trace(header: header, events: Array(loadEvents[2...]) + loadEvents[..<2])
        // No style requested at all: the header's style names the paths.
        let styleless = Trace(header: Trace.Header(scenario: "tiles", style: "https://h/maps/style.json"), events: Array(loadEvents[2...]))
        // Neither, and other events between the requests: only requests and what the tiles read wait.
        let busy = Trace(header: Trace.Header(scenario: "busy", style: "https://h/maps/style.json"),
                         events: loadEvents[2...].flatMap { [$0, MapEvent(begin: $0.end, end: $0.end, payload: .cameraChanged)] })
        let many = Trace(header: header, events: loadEvents + (0..<5_000).map { request("https://h/maps/t/14/\($0)/7.pbf", begin: 100, end: 100 + Int64($0), .success([1], source: .network)) })
        let files = try [("load.jsonl", load), ("late.jsonl", late), ("styleless.jsonl", styleless), ("busy.jsonl", busy), ("many.jsonl", many)].map { try folder.write($0.0, $0.1.jsonLines) }
            + [try folder.write("load.trace.yaml", load.yaml)]
        let inMemory = ReportPage.bytes(try files.map { TraceReport(name: URL(fileURLWithPath: $0).lastPathComponent, trace: try Trace.read(file: $0)) }, title: "a <title>")
        #expect(try spooledPage(files, title: "a <title>", blockSize: blockSize, in: folder) == inMemory)
        let html = String(decoding: inMemory, as: UTF8.self)
        #expect(html.contains(#"t/1/0/1.pbf?q=\u003c/script>"#) && html.components(separatedBy: "</script>").count == 3 + files.count)
        #expect(html.contains(#","t/1/0/0.pbf","#), "paths below the style's folder")
        let late0 = try SpooledTraceReport(file: files[1], name: "late", blockSize: blockSize)
        #expect(late0.requestCount == 6)
    }

    @Test func scenariosWhoseNamesMakeOnePageGetOneEach() {
        let names = ["cold load", "cold_load", "cold-load", "a/cold-load", "Cold-Load", "index", "cold-load", "café"]
        let report = SuiteReport(entries: names.map { SuiteReport.Entry(name: $0, passed: true, seconds: 0, problems: [], trace: nil, golden: nil) })
        #expect(report.pageNames == ["cold_load.html", "cold_load-2.html", "cold-load.html", "a_cold-load.html", "Cold-Load-2.html", "index-2.html",
                                     "cold-load-3.html", "caf_.html"])
        #expect(Set(report.pageNames.map { $0.lowercased() }).count == names.count, "no two pages share a file, even where case does not count")
    }
}
