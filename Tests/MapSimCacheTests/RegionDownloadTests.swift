import Foundation
import Synchronization
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimCache
@testable import MapSimStyle

/// The region download machine, driven through the same `DriveLoop` its downloader uses, with canned
/// network answers and a table standing for the database: one test per rule.
@Suite("RegionDownload")
struct RegionDownloadTests {
    private static let style = """
    {"version": 8, "sprite": "https://h/sprite", "glyphs": "https://h/{fontstack}/{range}.pbf",
     "sources": {"v": {"type": "vector", "url": "https://h/v.json"}, "g": {"type": "geojson", "data": "https://h/g.json"}},
     "layers": [{"id": "t", "type": "symbol", "source": "v", "source-layer": "l", "layout": {"text-field": "{name}", "text-font": ["A"]}},
                {"id": "u", "type": "symbol", "source": "v", "source-layer": "l",
                 "layout": {"text-field": "x", "text-font": ["step", ["zoom"], ["literal", ["B"]], 5, ["literal", ["C", "D"]]]}}]}
    """
    private static let tileJSON = #"{"tiles": ["https://h/{z}/{x}/{y}.pbf"], "minzoom": 0, "maxzoom": 1}"#
    private static let world = try! OfflineRegionDefinition(styleURL: "https://h/style.json", area: .bounds(LngLatBounds(west: -180, south: -85, east: 180, north: 85)),
                                                            minZoom: 0, maxZoom: 1)

    /// A vector tile whose layer `l` has one point labelled `name`.
    static func labelTile(_ name: String) -> [UInt8] {
        var encoder = VectorTileEncoder()
        encoder.addLayer("l", points: [[("name", name)]])
        return encoder.bytes
    }

    private struct Run {
        var outputs: [RegionDownload.Output]
        var network: [Resource]
        var machine: RegionDownload
        var lookups: [Int]
        /// The most resources looked up and not yet done at once.
        var mostOutstanding: Int
        /// The loop's virtual time when nothing was left to do.
        var endedAt: SimTime

        var stored: [String] { outputs.compactMap { if case .store(let resource, _, _) = $0 { resource.url } else { nil } } }
        var linked: [String] { outputs.compactMap { if case .link(let resource) = $0 { resource.url } else { nil } } }
        var events: [OfflineRegionEvent] { outputs.compactMap { if case .report(let event) = $0 { event } else { nil } } }
        var retries: [(url: String, attempt: Int, wait: SimTime?)] {
            outputs.compactMap { if case .retrying(let resource, _, let attempt, let wait) = $0 { (resource.url, attempt, wait) } else { nil } }
        }
    }

    /// A download of `definition` against a network answering with `answer` and a database holding
    /// `stored` (URL → body).
    private func run(_ definition: OfflineRegionDefinition = Self.world, stored: [String: [UInt8]] = [:], glyphs: RegionDownload.GlyphChoice = .all,
                     tileLimit: Int = 6_000, retries: Int = 2, engine: Engine = .maplibreNative,
                     answer: @escaping @Sendable (Resource) -> Response = Self.serve) async -> Run {
        let loads = CannedLoads(answer)
        let machine = RegionDownload(region: 1, plan: RegionPlan(definition: definition, mapbox: MapboxURL(), engine: engine), glyphs: glyphs, usableAt: 0,
                                     mapboxTiles: 0, mapboxTileLimit: tileLimit, loading: .init(), retries: retries)
        let loop = DriveLoop(machine: machine, loads: loads, timing: ImmediateDelivery())
        var outputs: [RegionDownload.Output] = []
        var pending: [RegionDownload.Output] = []
        var lookups: [Int] = []
        var outstanding = 0
        var most = 0
        loop.feed(.start) { pending.append($0) }
        repeat {
            while !pending.isEmpty {
                let batch = pending
                pending = []
                for output in batch {
                    outputs.append(output)
                    switch output {
                    case .lookUp(let id, let resources, let bodies):
                        lookups.append(resources.count)
                        outstanding += resources.count
                        most = max(most, outstanding)
                        let found = zip(resources, bodies).map { resource, body in
                            OfflineDatabase.RegionLookup(storedSize: stored[resource.url]?.count, body: body ? stored[resource.url] : nil, isInRegion: false)
                        }
                        loop.feed(.lookedUp(batch: id, found)) { pending.append($0) }
                    case .report(.statusChanged(_, let status)):
                        outstanding = max(0, outstanding - 1)
                        _ = status
                    default: break
                    }
                }
            }
        } while await loop.step(notAfter: .max, perform: { pending.append($0) })
        return Run(outputs: outputs, network: loads.started, machine: loop.machine, lookups: lookups, mostOutstanding: most, endedAt: loop.now)
    }

    private static let serve: @Sendable (Resource) -> Response = { resource in
        switch resource.url {
        case "https://h/style.json": .success(Array(style.utf8), source: .network)
        case "https://h/v.json": .success(Array(tileJSON.utf8), source: .network)
        case let url where url.hasSuffix("/0-255.pbf"): .success([0x0A, 0x00], source: .network)
        case let url where url.hasSuffix("-255.pbf") || url.hasSuffix("-511.pbf") || url.contains("-"): .failure(.notFound, "HTTP 404 Not Found: \(url)", source: .network)
        case let url where url.hasSuffix(".pbf"): .success(labelTile("a"), source: .network)
        default: .success([1, 2, 3], source: .network)
        }
    }

    @Test func fetchesWhatMapLibresOfflineDownloadFetches() async {
        let run = await run()
        #expect(run.network.first?.url == "https://h/style.json")
        #expect(run.network.dropFirst().first?.url == "https://h/v.json", "the TileJSON first: its tiles are the bulk")
        let urls = Set(run.network.map(\.url))
        for part in ["sprite.json", "sprite.png", "sprite@2x.json", "sprite@2x.png", "g.json"] { #expect(urls.contains("https://h/\(part)"), "\(part)") }
        // Font stacks: the constant one and every literal output of the step, sorted, each with 130 ranges.
        let stacks = Set(run.network.filter { $0.kind == .glyphs }.map { $0.url.components(separatedBy: "/")[3] })
        #expect(stacks == ["A", "B", "C%2cD"], "a font stack's names joined by a comma, percent-encoded as MapLibre does")
        #expect(run.network.filter { $0.kind == .glyphs }.count == 3 * 130)
        #expect(!urls.contains("https://h/A/19968-20223.pbf") && !urls.contains("https://h/A/44032-44287.pbf"), "no CJK or Hangul ranges by default")
        let tiles = run.network.filter { $0.kind == .tile }
        #expect(tiles.count == 5 && tiles.first?.url == "https://h/0/0/0.pbf", "zoom 0, then the four tiles of zoom 1")
        #expect(tiles.allSatisfy { $0.priority == .low })
        // Everything found was stored for the region; 404s are skipped and no longer required.
        let status = run.machine.status
        #expect(run.machine.outcome == .complete && run.machine.failures.isEmpty)
        #expect(status.downloadState == .inactive && status.requiredResourceCountIsPrecise)
        #expect(status.completedResourceCount == status.requiredResourceCount)
        #expect(status.completedResourceCount == 1 + 1 + 4 + 1 + 3 + 5, "style, TileJSON, sprites, GeoJSON, a range per stack, tiles")
        #expect(status.completedTileCount == 5 && status.requiredTileCount == 5)
        #expect(Set(run.stored) == Set(run.network.map(\.url)).subtracting(run.network.filter { Self.serve($0).error != nil }.map(\.url)))
    }

    /// A root importing `a` (relative URL) and an inline `b`; `a` imports `c` (a mapbox:// URL) and
    /// `a` again (once is enough), `c` imports `missing` (404) and names a model; `a` names no glyphs.
    private static let imports: [String: String] = [
        "https://h/style.json": #"{"version": 8, "imports": [{"id": "a", "url": "a.json"}, {"id": "b", "url": "", "data": {"version": 8, "sources": {"g": {"type": "geojson", "data": "g.json"}}, "layers": []}}], "sources": {}, "layers": []}"#,
        "https://h/a.json": #"{"version": 8, "imports": [{"id": "c", "url": "mapbox://styles/u/c"}, {"id": "again", "url": "a.json"}], "sprite": "https://h/a-sprite", "sources": {"v": {"type": "vector", "url": "https://h/v.json"}}, "layers": [{"id": "t", "type": "symbol", "source": "v", "source-layer": "l", "layout": {"text-field": "{name}", "text-font": ["A"]}}]}"#,
        "https://api.mapbox.com/styles/v1/u/c": #"{"version": 8, "imports": [{"id": "missing", "url": "https://h/missing.json"}], "models": {"m": "https://h/m.glb"}, "glyphs": "https://h/{fontstack}/{range}.pbf", "sources": {"v": {"type": "vector", "url": "https://h/v.json"}, "trees": {"type": "model", "models": {"oak": {"uri": "https://h/oak.glb"}}}}, "layers": [{"id": "t", "type": "symbol", "source": "v", "source-layer": "l", "layout": {"text-field": "{name}", "text-font": ["A"]}}]}"#,
    ]

    @Test func aMapboxEngineDownloadsEveryImportOnceAndMapLibreNone() async {
        let answer: @Sendable (Resource) -> Response = { resource in
            if let style = Self.imports[resource.url] { return .success(Array(style.utf8), source: .network) }
            if resource.url.hasSuffix("missing.json") { return .failure(.notFound, "HTTP 404 Not Found", source: .network) }
            return Self.serve(resource)
        }
        let download = await run(engine: .mapbox, answer: answer)
        let urls = download.network.map(\.url)
        for url in ["https://h/a.json", "https://api.mapbox.com/styles/v1/u/c", "https://h/missing.json", "https://h/m.glb", "https://h/oak.glb", "https://h/g.json",
                    "https://h/a-sprite@2x.png", "https://h/v.json", "https://h/0/0/0.pbf"] {
            #expect(urls.filter { $0 == url }.count == 1, "\(url) once: \(urls)")
        }
        #expect(download.network.first { $0.url.hasSuffix(".glb") }?.kind == .model)
        let glyphs = download.network.filter { $0.kind == .glyphs }.map(\.url)
        #expect(glyphs.filter { $0.hasPrefix("https://api.mapbox.com/fonts/v1/mapbox/A/") }.count == 130, "a has no glyphs: Mapbox's default fonts")
        #expect(glyphs.filter { $0.hasPrefix("https://h/A/") }.count == 130, "c's own glyphs")
        #expect(download.network.filter { $0.kind == .tile }.count == 5, "a and c share v: its tiles once")
        let status = download.machine.status
        #expect(download.machine.outcome == .complete && download.machine.absent.map(\.url).contains("https://h/missing.json"), "\(download.machine.failures)")
        // What the missing import would have named is unknown: the count is not precise, as after a missing TileJSON.
        #expect(status.completedResourceCount == status.requiredResourceCount && !status.requiredResourceCountIsPrecise)

        let maplibre = await run(answer: answer)
        #expect(maplibre.network.map(\.url) == ["https://h/style.json"], "MapLibre ignores imports")
    }

    @Test func anAPIURLAndItsMapboxFormAreOneResourceAcrossImports() async {
        // `a` names no glyphs (Mapbox's mapbox://fonts/mapbox/…); `b` names the same fonts by the
        // API's URL. The database keys both as one row, so the download asks once and counts once.
        let styles: [String: String] = [
            "https://h/style.json": #"{"version": 8, "imports": [{"id": "a", "url": "a.json"}, {"id": "b", "url": "b.json"}], "sources": {}, "layers": []}"#,
            "https://h/a.json": #"{"version": 8, "sources": {"v": {"type": "vector", "url": "https://h/v.json"}}, "layers": [{"id": "t", "type": "symbol", "source": "v", "source-layer": "l", "layout": {"text-field": "{name}", "text-font": ["A"]}}]}"#,
            "https://h/b.json": #"{"version": 8, "glyphs": "https://api.mapbox.com/fonts/v1/mapbox/{fontstack}/{range}.pbf?access_token=pk.x", "sources": {"v": {"type": "vector", "url": "https://h/v.json"}}, "layers": [{"id": "t", "type": "symbol", "source": "v", "source-layer": "l", "layout": {"text-field": "{name}", "text-font": ["A"]}}]}"#,
        ]
        let download = await run(engine: .mapbox) { resource in
            if let style = styles[resource.url] { return .success(Array(style.utf8), source: .network) }
            if resource.kind == .glyphs { return .success([0x0A, 0x00], source: .network) }
            return Self.serve(resource)
        }
        let glyphs = download.network.filter { $0.kind == .glyphs }.map { MapboxURL().canonical($0.url) }
        #expect(glyphs.count == 130 && Set(glyphs).count == 130, "each range of A once: \(glyphs.count)")
        let status = download.machine.status
        #expect(download.machine.outcome == .complete)
        #expect(status.completedResourceCount == status.requiredResourceCount, "\(status)")
    }

    @Test func answersWithAMaxAgeLeaveNoTimerBehind() async {
        // nginx's `Cache-Control: max-age=60` on every answer: a map would refresh each when it
        // expires; a download keeps nothing, so its loop ends with its work (no wait of 60 s).
        let run = await run { resource in
            var response = Self.serve(resource)
            if response.error == nil { response.expires = HTTPDate(secondsSince1970: WallClock.simulated.start.secondsSince1970 + 60) }
            return response
        }
        #expect(run.machine.outcome == .complete)
        #expect(run.endedAt < .seconds(60), "no expiry refresh is scheduled for what is stored: \(run.endedAt)")
    }

    @Test func includesIdeographsWhenTheRegionDoes() async throws {
        var definition = Self.world
        definition.includeIdeographs = true
        let run = await run(definition)
        #expect(run.network.filter { $0.kind == .glyphs }.count == 3 * 256)
    }

    @Test func whatTheDatabaseHoldsIsLinkedWithoutARequest() async {
        let stored = ["https://h/style.json": Array(Self.style.utf8), "https://h/v.json": Array(Self.tileJSON.utf8),
                      "https://h/sprite.json": [1], "https://h/0/0/0.pbf": Self.labelTile("a")]
        let run = await run(stored: stored)
        #expect(!run.network.contains { stored[$0.url] != nil }, "\(run.network.map(\.url))")
        #expect(Set(run.linked) == Set(stored.keys))
        #expect(run.machine.outcome == .complete)
        #expect(run.machine.status.completedResourceSize >= stored.values.reduce(0) { $0 + $1.count })
    }

    @Test func aTileTheServerLacksIsStoredAsNoContent() async {
        let run = await run { resource in
            resource.url == "https://h/1/1/1.pbf" ? Response(noContent: true, source: .network) : Self.serve(resource)
        }
        let stored = run.outputs.compactMap { output -> (Resource, StoredBody)? in
            if case .store(let resource, _, let body) = output { (resource, body) } else { nil }
        }
        #expect(stored.first { $0.0.url == "https://h/1/1/1.pbf" }.map { $0.1.data == nil } == true)
        #expect(run.machine.outcome == .complete)
    }

    @Test func failuresAreRetriedOnThePipelinesScheduleThenReportedOnce() async {
        let run = await run(retries: 2) { resource in
            resource.url == "https://h/sprite.png" ? .failure(.server, "HTTP 500 server error: \(resource.url)", source: .network) : Self.serve(resource)
        }
        #expect(run.network.filter { $0.url == "https://h/sprite.png" }.count == 3, "the first try and two retries")
        // Each retried attempt is noted as it fails (what a waiting download says it waits for); the last is the failure.
        #expect(run.retries.map(\.url) == ["https://h/sprite.png", "https://h/sprite.png"] && run.retries.map(\.attempt) == [1, 2])
        #expect(run.retries.map(\.wait) == [.seconds(1), .seconds(1)], "a server error is tried again a second later, three times")
        let errors = run.events.filter { if case .responseError(_, let url, _, _) = $0 { url == "https://h/sprite.png" } else { false } }
        #expect(errors.count == 1)
        #expect(run.machine.outcome == .incomplete && run.machine.failures.count == 1)
        #expect(run.machine.status.completedResourceCount == run.machine.status.requiredResourceCount - 1)
    }

    /// A server that asks for an hour's wait is waited on, and the wait is said: the progress line
    /// of a download that seems stuck tells when it goes on.
    @Test func aRetryAfterIsTheWaitARetryNamesAndItsLineSaysIt() async throws {
        let later = WallClock.simulated.date(at: .zero).adding(seconds: 3_600)
        let failure = Response.Failure(reason: .rateLimit, message: "HTTP 429 Too Many Requests: https://h/sprite.png", retryAfter: later)
        let run = await run(retries: 1) { resource in
            resource.url == "https://h/sprite.png" ? Response(source: .network, error: failure) : Self.serve(resource)
        }
        let retry = try #require(run.retries.first)
        #expect(run.retries.count == 1 && retry.wait == .seconds(3_600), "\(run.retries)")
        let said = RegionDownloader.Retry(url: "https://h/sprite.png", failure: failure, attempt: 1, attempts: 2, wait: retry.wait)
        #expect(said.description() == "HTTP 429 Too Many Requests: https://h/sprite.png (attempt 1 of 2; trying again in 1 h 0 min, as its Retry-After asks)")
        #expect(said.description(after: .seconds(3_000)) == "HTTP 429 Too Many Requests: https://h/sprite.png (attempt 1 of 2; trying again in 10 min 0 s, as its Retry-After asks)")
        #expect(said.description(after: .seconds(3_588)) == "HTTP 429 Too Many Requests: https://h/sprite.png (attempt 1 of 2; trying again in 12 s, as its Retry-After asks)")
        #expect(said.description(after: .seconds(3_600)) == "HTTP 429 Too Many Requests: https://h/sprite.png (attempt 1 of 2; trying again, as its Retry-After asks)")
    }

    @Test func aMissingStyleStopsTheDownload() async {
        let run = await run { resource in .failure(.notFound, "HTTP 404 Not Found: \(resource.url)", source: .network) }
        guard case .styleFailed(let message)? = run.machine.outcome else {
            Issue.record("\(String(describing: run.machine.outcome))")
            return
        }
        #expect(message.contains("https://h/style.json"))
        #expect(run.network.count == 1)
    }

    @Test func theMapboxTileLimitStopsTheDownloadWithMapLibresError() async throws {
        let style = #"{"version": 8, "sources": {"v": {"type": "vector", "tiles": ["mapbox://tiles/x.y/{z}/{x}/{y}.vector.pbf"], "maxzoom": 2}}, "layers": []}"#
        let definition = try OfflineRegionDefinition(styleURL: "https://h/s.json", area: .bounds(.world), minZoom: 0, maxZoom: 2)
        let run = await run(definition, tileLimit: 3) { resource in
            resource.kind == .style ? .success(Array(style.utf8), source: .network) : .success([1], source: .network)
        }
        #expect(run.machine.outcome == .tileLimitExceeded(3))
        #expect(run.network.filter { $0.kind == .tile }.count == 3)
        #expect(run.events.contains(.tileLimitExceeded(region: 1, limit: 3)))
        #expect(run.events.last == .statusChanged(region: 1, run.machine.status) && run.machine.status.downloadState == .inactive)
    }

    @Test func onlyTheGlyphRangesTheTilesNeedWithGlyphsNeeded() async {
        let run = await run(glyphs: .needed) { resource in
            switch resource.url {
            case "https://h/1/1/1.pbf": .success(Self.labelTile("Ж"), source: .network)
            case let url where url.hasSuffix(".pbf") && resource.kind == .tile: .success(Self.labelTile("a"), source: .network)
            case let url where url.hasSuffix("-255.pbf") || url.hasSuffix("-1279.pbf"): .success([0x0A, 0x00], source: .network)
            default: Self.serve(resource)
            }
        }
        let glyphs = run.network.filter { $0.kind == .glyphs }.map(\.url)
        // "a" (0–255) and "Ж" (U+0416, 1024–1279) in font A; "x" (0–255) in B at zoom 0–1.
        #expect(Set(glyphs) == ["https://h/A/0-255.pbf", "https://h/A/1024-1279.pbf", "https://h/B/0-255.pbf"], "\(glyphs)")
        let firstGlyph = run.network.firstIndex { $0.kind == .glyphs } ?? 0
        #expect(run.network.lastIndex { $0.kind == .tile } ?? 0 < firstGlyph, "glyphs come after the tiles they are found in")
        #expect(run.machine.neededGlyphRangeCount == 3 && run.machine.allGlyphRangeCount == 3 * 130)
        #expect(run.machine.outcome == .complete)
    }

    @Test func aLargeRegionIsWalkedThroughABoundedWindow() async throws {
        let definition = try OfflineRegionDefinition(styleURL: "https://h/style.json", area: .bounds(LngLatBounds(west: -180, south: -85, east: 180, north: 85)),
                                                     minZoom: 0, maxZoom: 6)
        let tileJSON = #"{"tiles": ["https://h/{z}/{x}/{y}.pbf"], "minzoom": 0, "maxzoom": 6}"#
        let run = await run(definition) { resource in
            resource.url == "https://h/v.json" ? .success(Array(tileJSON.utf8), source: .network)
                : resource.kind == .tile ? .success([1], source: .network) : Self.serve(resource)
        }
        let tiles = (0...6).reduce(0) { $0 + (1 << $1) * (1 << $1) }
        #expect(run.machine.status.completedTileCount == tiles)
        #expect(run.lookups.allSatisfy { $0 <= RegionDownload.lookupBatch })
        #expect(run.mostOutstanding <= RegionDownload.window + RegionDownload.lookupBatch, "\(run.mostOutstanding)")
    }
}
