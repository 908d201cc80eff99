import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import Testing
import MapSim
import MapSimJSON
import MapSimTesting
@testable import MapSimServe

/// `StyleServer` against a real HTTP client on a loopback port.
@Suite("StyleServer", .serialized)
struct StyleServerTests {
    private final class Events: Sendable {
        private let recorded = Mutex<[MapEvent]>([])
        var report: @Sendable (MapEvent) -> Void { { event in self.recorded.withLock { $0.append(event) } } }
        var events: [MapEvent] { recorded.withLock { $0 } }
        var requests: [ResourceRequest] { recorded.withLock { $0 }.compactMap { if case .resourceRequest(let r) = $0.payload { r } else { nil } } }
    }

    private struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]
    }

    private func get(_ url: String, method: HTTPMethod = .GET, _ headers: [(String, String)] = []) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        // A client that takes the bytes as sent (HTTPClient.shared inflates gzip itself).
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(decompression: .disabled))
        let answer: Answer
        do {
            // A minute: under network conditions the server answers from the concurrency pool, which a busy run keeps waiting.
            let response = try await client.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 16 << 20)
            answer = Answer(status: Int(response.status.code), headers: response.headers, body: Array(buffer: body))
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
        return answer
    }

    /// A server whose connections stay open while idle far longer than any test waits for a thread
    /// of the concurrency pool between two requests (the idle time is tested on its own).
    private func start(_ style: String = SampleStyle.folder + "/style.json", events: Events) async throws -> StyleServer {
        try await StyleServer.start(.init(style: style, port: 0, idleTimeout: .seconds(600)), report: events.report)
    }

    @Test func theStyleNamesItsResourcesAtTheAddressTheClientUsed() async throws {
        let events = Events()
        let server = try await start(events: events)
        let base = server.baseURL
        let style = try JSONParser.parse(try await get(base + "style.json").body)
        #expect(style["sprite"] == .string(base + "sprite"))
        #expect(style["glyphs"] == .string(base + "glyphs/{fontstack}/{range}.pbf"))
        #expect(style["sources"]?["city"]?["url"] == .string(base + "tiles.json"))
        let tileJSON = try JSONParser.parse(try await get(base + "tiles.json").body)
        #expect(tileJSON["tiles"] == .array([.string(base + "tiles/{z}/{x}/{y}.pbf")]))
        // Every request is an event with the kind the map gives it.
        _ = try await get(base + "sprite@2x.json")
        _ = try await get(base + "sprite.png")
        _ = try await get(base + "glyphs/Mapsim%20Sans%20Regular/0-255.pbf")
        _ = try await get(base + "tiles/10/163/395.pbf")
        await server.stop()
        #expect(events.requests.map(\.request.kind) == [.style, .source, .spriteJSON, .spriteImage, .glyphs, .tile])
        #expect(events.requests.map(\.request.url).last == base + "tiles/10/163/395.pbf")
        #expect(events.requests.last?.request.tileData?.id == CanonicalTileID(z: 10, x: 163, y: 395))
        #expect(events.requests.allSatisfy { $0.response?.error == nil && $0.dataSource == .network })
    }

    @Test func validatorsRangesGzipHeadAndCORSAreAsClientsExpect() async throws {
        let events = Events()
        let server = try await start(events: events)
        let base = server.baseURL
        let tile = base + "tiles/10/163/395.pbf"
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: SampleStyle.folder + "/tiles/10/163/395.pbf")))
        let plain = try await get(tile)
        #expect(plain.status == 200 && plain.headers["Access-Control-Allow-Origin"] == ["*"] && plain.headers["Cache-Control"] == ["max-age=3600"])
        let etag = try #require(plain.headers["ETag"].first)
        #expect(try await get(tile, [("If-None-Match", etag)]).status == 304)
        let modified = try #require(plain.headers["Last-Modified"].first)
        #expect(try await get(tile, [("If-Modified-Since", modified)]).status == 304)
        // A date past the last there is is no date: the file is sent (the server does not trap).
        #expect(try await get(tile, [("If-Modified-Since", "Sun, 06 Nov 99999999999999 08:49:37 GMT")]).status == 200)
        #expect(try await get(tile, [("If-Modified-Since", "Sun, 06 Nov 9999 08:49:37 GMT")]).status == 304)
        let range = try await get(tile, [("Range", "bytes=2-5")])
        #expect(range.status == 206 && range.body == Array(file[2...5]) && range.headers["Content-Range"] == ["bytes 2-5/\(file.count)"])
        #expect(try await get(tile, [("Range", "bytes=\(file.count)-")]).status == 416)
        let gzip = try await get(tile, [("Accept-Encoding", "gzip")])
        let expected = ZlibCodec.isGzip(file) ? try ZlibCodec.inflate(file) : file
        let inflated = try ZlibCodec.inflate(gzip.body)
        #expect(gzip.headers["Content-Encoding"] == ["gzip"] && inflated == expected)
        let head = try await get(base + "style.json", method: .HEAD)
        let whole = try await get(base + "style.json")
        #expect(head.status == 200 && head.body.isEmpty && head.headers["Content-Length"] == ["\(whole.body.count)"])
        let preflight = try await get(tile, method: .OPTIONS, [("Origin", "http://app.test"), ("Access-Control-Request-Method", "GET")])
        #expect(preflight.status == 204 && preflight.headers["Access-Control-Allow-Methods"].first?.contains("GET") == true)
        #expect(try await get(tile, method: .POST).status == 405)
        await server.stop()
        let ranged = events.requests.first { $0.request.dataRange != nil }
        #expect(ranged?.request.dataRange == 2...5)
        #expect(events.requests.contains { $0.response?.notModified == true })
    }

    @Test func tileArchivesAreServedAsATileJSONAndTilesForClientsThatReadNoArchive() async throws {
        let fixture = try FixtureDirectory()
        let archives = SampleStyle.stylesFolder + "/archives"
        try FileManager.default.copyItem(atPath: archives + "/city.pmtiles", toPath: fixture.path + "/city.pmtiles")
        func style(_ sources: String) -> String {
            #"{"version": 8, "sources": {"# + sources + #"}, "layers": [{"id": "water", "type": "fill", "source": "city", "source-layer": "water"}]}"#
        }
        // An absolute mbtiles:// URL, as MapLibre Native reads it, and a pmtiles:// path beside the style.
        _ = try fixture.write("style.json", style(#""city": {"type": "vector", "url": "mbtiles://\#(archives)/city.mbtiles"}, "#
            + #""again": {"type": "vector", "url": "pmtiles://city.pmtiles"}"#))
        let events = Events()
        let server = try await start(fixture.path + "/style.json", events: events)
        let base = server.baseURL
        let served = try JSONParser.parse(try await get(base + "style.json").body)
        #expect(served["sources"]?["city"]?["url"] == .string(base + "_archives/city.json"))
        #expect(served["sources"]?["again"]?["url"] == .string(base + "_archives/again.json"))
        for source in ["city", "again"] {
            let tileJSON = try JSONParser.parse(try await get(base + "_archives/\(source).json").body)
            #expect(tileJSON["tiles"] == .array([.string(base + "_archives/\(source)/{z}/{x}/{y}.pbf")]))
            #expect(tileJSON["vector_layers"]?.arrayValue?.count == 5)
            let tile = try await get(base + "_archives/\(source)/10/163/395.pbf", [("Accept-Encoding", "gzip")])
            let sample = [UInt8](try Data(contentsOf: URL(fileURLWithPath: SampleStyle.folder + "/tiles/10/163/395.pbf")))
            let inflated = try ZlibCodec.inflate(tile.body)
            #expect(tile.status == 200 && tile.headers["Content-Encoding"] == ["gzip"] && inflated == sample)
            // A tile the archive lacks is no content, as a map takes it.
            #expect(try await get(base + "_archives/\(source)/3/0/0.pbf").status == 204)
        }
        await server.stop()
        let kinds = events.requests.map { "\($0.request.kind.rawValue) \($0.request.tileData.map { "\($0.id.z)/\($0.id.x)/\($0.id.y)" } ?? "")" }
        #expect(kinds == ["style ", "source ", "tile 10/163/395", "tile 3/0/0", "source ", "tile 10/163/395", "tile 3/0/0"])
        #expect(events.requests.last?.response?.noContent == true)

        // An archive that is not there, or not an archive, stops the server from starting, naming it.
        _ = try fixture.write("style.json", style(#""city": {"type": "vector", "url": "mbtiles://nosuch.mbtiles"}"#))
        await #expect { _ = try await start(fixture.path + "/style.json", events: events) } throws: { "\($0)".contains("nosuch.mbtiles") }
        _ = try fixture.write("bad.pmtiles", "not an archive")
        _ = try fixture.write("style.json", style(#""city": {"type": "vector", "url": "pmtiles://bad.pmtiles"}"#))
        await #expect { _ = try await start(fixture.path + "/style.json", events: events) } throws: { "\($0)".contains("bad.pmtiles") }
    }

    @Test func importedStylesInTheFolderAreServedWithTheirURLsRewrittenAgainstTheirOwnFile() async throws {
        // Mapbox GL JS resolves no URL against a style's: a relative import or TileJSON URL is fetched
        // from beside the page, a relative sprite refused. The server makes every one absolute.
        let fixture = try FixtureDirectory()
        _ = try fixture.write("style.json", #"""
            {"version": 8, "imports": [
              {"id": "base", "url": "imports/base.json"},
              {"id": "api", "url": "mapbox://styles/acme/extra"},
              {"id": "inline", "url": "", "data": {"version": 8, "sources": {"pts": {"type": "geojson", "data": "points.geojson"}}, "layers": []}},
              {"id": "broken", "url": "broken.json"}],
             "sources": {"city": {"type": "vector", "url": "pmtiles://city.pmtiles"}}, "layers": []}
            """#)
        try FileManager.default.copyItem(atPath: SampleStyle.stylesFolder + "/archives/city.pmtiles", toPath: fixture.path + "/city.pmtiles")
        _ = try fixture.write("imports/base.json", #"""
            {"version": 8, "sprite": "../sprites/base", "glyphs": "fonts/{fontstack}/{range}.pbf",
             "imports": [{"id": "nested", "url": "nested.json"}, {"id": "loop", "url": "../style.json"}],
             "sources": {"land": {"type": "vector", "url": "land.json"}}, "layers": []}
            """#)
        _ = try fixture.write("imports/nested.json", #"{"version": 8, "sources": {"dem": {"type": "raster-dem", "tiles": ["dem/{z}/{x}/{y}.png"]}}, "layers": []}"#)
        _ = try fixture.write("imports/land.json", #"{"tilejson": "3.0.0", "tiles": ["land/{z}/{x}/{y}.pbf"]}"#)
        _ = try fixture.write("styles/v1/acme/extra", #"{"version": 8, "sprite": "mapbox://sprites/acme/extra", "sources": {"s": {"type": "geojson", "data": "../../../points.geojson"}}, "layers": []}"#)
        _ = try fixture.write("other.json", #"{"version": 8, "sprite": "left/as/it/is", "sources": {}, "layers": []}"#)
        let events = Events()
        let server = try await start(fixture.path + "/style.json", events: events)
        let base = server.baseURL
        let root = try JSONParser.parse(try await get(base + "style.json").body)
        #expect(root["imports"]?.arrayValue?[0]["url"] == .string(base + "imports/base.json"))
        #expect(root["imports"]?.arrayValue?[1]["url"] == .string("mapbox://styles/acme/extra"), "a mapbox:// URL is the client's to rewrite")
        #expect(root["imports"]?.arrayValue?[2]["data"]?["sources"]?["pts"]?["data"] == .string(base + "points.geojson"), "inline data is resolved against its style")
        // Resolved, an empty URL would be the style's own: Mapbox GL JS 3.0.1 then loads nothing of the
        // inline import (its labels asked for no glyphs), as if it were a cycle.
        #expect(root["imports"]?.arrayValue?[2]["url"] == .string(""), "an inline import's empty URL stays empty")
        let imported = try await get(base + "imports/base.json")
        #expect(imported.headers["Content-Type"] == ["application/json"])
        let importedStyle = try JSONParser.parse(imported.body)
        #expect(importedStyle["sprite"] == .string(base + "sprites/base"))
        #expect(importedStyle["glyphs"] == .string(base + "imports/fonts/{fontstack}/{range}.pbf"))
        #expect(importedStyle["sources"]?["land"]?["url"] == .string(base + "imports/land.json"))
        #expect(importedStyle["imports"]?.arrayValue?[0]["url"] == .string(base + "imports/nested.json"))
        #expect(importedStyle["imports"]?.arrayValue?[1]["url"] == .string(base + "style.json"))
        // Imported by its own import, the style is still served as the style: its archive's source too.
        #expect(try JSONParser.parse(try await get(base + "style.json").body)["sources"]?["city"]?["url"] == .string(base + "_archives/city.json"))
        let nested = try JSONParser.parse(try await get(base + "imports/nested.json").body)
        #expect(nested["sources"]?["dem"]?["tiles"] == .array([.string(base + "imports/dem/{z}/{x}/{y}.png")]))
        // The TileJSON of an imported style's source, and the Styles API's path of a mapbox:// import.
        let land = try JSONParser.parse(try await get(base + "imports/land.json").body)
        #expect(land["tiles"] == .array([.string(base + "imports/land/{z}/{x}/{y}.pbf")]))
        let extra = try await get(base + "styles/v1/acme/extra?access_token=pk.test")
        #expect(extra.headers["Content-Type"] == ["application/json"])
        #expect(try JSONParser.parse(extra.body)["sources"]?["s"]?["data"] == .string(base + "points.geojson"))
        // An imported file that is not a style is served as it is: the client says what is wrong with it.
        _ = try fixture.write("broken.json", "{ not JSON")
        #expect(String(decoding: try await get(base + "broken.json").body, as: UTF8.self) == "{ not JSON")
        // A style no import names is a file like any other.
        #expect(try JSONParser.parse(try await get(base + "other.json").body)["sprite"] == .string("left/as/it/is"))
        _ = try await get(base + "imports/land/3/1/2.pbf")
        _ = try await get(base + "sprites/base@2x.json")
        await server.stop()
        let kinds = events.requests.map(\.request.kind)
        #expect(kinds == [.style, .style, .style, .style, .source, .style, .style, .unknown, .tile, .spriteJSON])
        #expect(events.requests[8].request.tileData?.id == CanonicalTileID(z: 3, x: 1, y: 2))
    }

    @Test func pathsThatLeaveTheFolderAreRefusedReportedAndNeverRead() async throws {
        let fixture = try FixtureDirectory()
        let outside = try fixture.write("secret.txt", "secret")
        let served = fixture.path + "/site"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        try Data(#"{"version": 8, "sources": {}, "layers": []}"#.utf8).write(to: URL(fileURLWithPath: served + "/style.json"))
        try FileManager.default.createSymbolicLink(atPath: served + "/link.txt", withDestinationPath: outside)
        let events = Events()
        let server = try await start(served + "/style.json", events: events)
        for path in ["../secret.txt", "%2e%2e/secret.txt", "link.txt", "..%2fsecret.txt", "nosuch.json", "a%00b"] {
            let answer = try await get(server.baseURL + path)
            #expect(answer.status == 404 && !String(decoding: answer.body, as: UTF8.self).contains("secret\n"), "\(path)")
        }
        await server.stop()
        #expect(events.requests.count == 6 && events.requests.allSatisfy { $0.response?.error?.reason == .notFound })
    }

    @Test func aStyleThatCannotBeReadOrAPortInUseIsAnErrorSayingWhich() async throws {
        let fixture = try FixtureDirectory()
        let broken = try fixture.write("style.json", "{not json")
        await #expect(throws: ServeError.self) { try await StyleServer.start(.init(style: broken, port: 0)) { _ in } }
        await #expect(throws: ServeError.self) { try await StyleServer.start(.init(style: fixture.path + "/nosuch.json", port: 0)) { _ in } }
        let first = try await StyleServer.start(.init(style: SampleStyle.folder + "/style.json", port: 0)) { _ in }
        do {
            _ = try await StyleServer.start(.init(style: SampleStyle.folder + "/style.json", port: first.port)) { _ in }
            Issue.record("a second server listened on the same port")
        } catch {
            #expect(error.description.contains("cannot listen"), "\(error)")
        }
        await first.stop()
    }

    @Test func keepAlivePipelinedRequestsHeadHTTP10AndOversizedHeadersAreAnsweredAsAStaticServerAnswersThem() async throws {
        let events = Events()
        let server = try await start(events: events)
        let connection = try RawHTTPConnection(port: server.port)
        // Three requests in one write, on one connection: three answers, in order.
        connection.send("GET /style.json HTTP/1.1\r\nHost: maps.example:8080\r\n\r\nHEAD /tiles/10/163/395.pbf HTTP/1.1\r\nHost: x\r\n\r\n"
            + "GET /nosuch.json HTTP/1.1\r\nHost: x\r\n\r\n")
        let style = try #require(await connection.answer())
        #expect(style.status == 200 && style.headers["content-length"] == String(style.body.count) && style.headers["date"]?.hasSuffix(" GMT") == true)
        #expect(String(decoding: style.body, as: UTF8.self).contains("http://maps.example:8080/tiles.json"), "the style is rewritten for the Host the client used")
        let head = try #require(await connection.answer(bodyless: true))
        #expect(head.status == 200 && (Int(head.headers["content-length"] ?? "") ?? 0) > 0 && head.headers["etag"] != nil)
        #expect(try #require(await connection.answer()).status == 404)
        // Headers beyond the limit never reach the responder: refused, and the connection closed.
        let oversized = try RawHTTPConnection(port: server.port)
        oversized.send("GET /style.json HTTP/1.1\r\nHost: x\r\nX-Padding: \(String(repeating: "a", count: 20_000))\r\n\r\n")
        #expect(await oversized.answer()?.status == 400)
        #expect(await oversized.isClosedByServer())
        // HTTP/1.0 without keep-alive: answered, then closed.
        let old = try RawHTTPConnection(port: server.port)
        old.send("GET /tiles.json HTTP/1.0\r\n\r\n")
        let tileJSON = try #require(await old.answer())
        #expect(tileJSON.status == 200 && tileJSON.headers["connection"] == "close")
        #expect(await old.isClosedByServer())
        await server.stop()
        #expect(events.requests.map(\.request.url) == ["http://maps.example:8080/style.json", "http://x/tiles/10/163/395.pbf", "http://x/nosuch.json",
                                                        "http://localhost/tiles.json"])
    }

    @Test func pipelinedRequestsThatWaitForTheNetworksConditionsAreAnsweredInOrderAndAStopClosesAfterTheAnswer() async throws {
        let events = Events()
        // Under a profile every answer waits for its delay, in a task: the requests after it wait their turn.
        let server = try await StyleServer.start(.init(style: SampleStyle.folder + "/style.json", port: 0, idleTimeout: .seconds(600),
                                                       conditions: ServeConditions(profile: NetworkPreset.threeG.profile(seed: 2))),
                                                 report: events.report)
        let connection = try RawHTTPConnection(port: server.port)
        connection.send("GET /tiles.json HTTP/1.1\r\nHost: x\r\n\r\n")
        let etag = try #require(await connection.answer()?.headers["etag"])
        connection.send("GET /style.json HTTP/1.1\r\nHost: x\r\n\r\nGET /tiles.json HTTP/1.1\r\nHost: x\r\nIf-None-Match: \(etag)\r\n\r\n"
            + "HEAD /tiles/10/163/395.pbf HTTP/1.1\r\nHost: x\r\n\r\nGET /nosuch.json HTTP/1.1\r\nHost: x\r\n\r\n")
        let style = try #require(await connection.answer())
        #expect(style.status == 200 && String(decoding: style.body, as: UTF8.self).contains("\"layers\""))
        let notModified = try #require(await connection.answer())
        #expect(notModified.status == 304 && notModified.headers["content-length"] == nil && notModified.headers["etag"] == etag,
                "a 304 carries no body and so no length, as NIO's encoder frames it")
        let head = try #require(await connection.answer(bodyless: true))
        #expect(head.status == 200 && (Int(head.headers["content-length"] ?? "") ?? 0) > 0)
        #expect(try #require(await connection.answer()).status == 404)
        // Bytes the decoder cannot read after requests still awaiting their answers: those are answered first, then 400.
        let broken = try RawHTTPConnection(port: server.port)
        broken.send("HEAD /tiles.json HTTP/1.1\r\nHost: x\r\n\r\nGET /style.json HTTP/1.1\r\nHost: x\r\n\r\nGET \u{01}\u{02} HTTP/9\r\n\r\n")
        #expect(await broken.answer(bodyless: true)?.status == 200)
        #expect(await broken.answer()?.status == 200)
        #expect(await broken.answer()?.status == 400)
        #expect(await broken.isClosedByServer())
        // An HTTP/1.0 request ends its connection: what follows it is not answered, the request is.
        let old = try RawHTTPConnection(port: server.port)
        old.send("GET /nosuch HTTP/1.0\r\n\r\nGET /style.json HTTP/1.1\r\nHost: x\r\n\r\n")
        let closing = try #require(await old.answer())
        #expect(closing.status == 404 && closing.headers["connection"] == "close")
        #expect(await old.isClosedByServer())
        // A request half sent when the server stops is answered once whole, with the connection closed after it. (Its
        // head came with a whole request: once that is answered, the server has read the head.)
        let late = try RawHTTPConnection(port: server.port)
        late.send("GET /sprite.json HTTP/1.1\r\nHost: x\r\n\r\nGET /tiles.json HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab")
        #expect(await late.answer()?.status == 200)
        // A grace far beyond the wait for the pool of a busy run: a stop within it did not wait it out.
        let stopped = Task { await server.stop(grace: .seconds(300)) }
        late.send("cd")
        let answer = try #require(await late.answer())
        #expect(answer.status == 200)
        #expect(await late.isClosedByServer())
        let began = ContinuousClock.now
        await stopped.value
        #expect(ContinuousClock.now - began < .seconds(300))
        #expect(events.requests.map(\.request.url) == ["http://x/tiles.json", "http://x/style.json", "http://x/tiles.json", "http://x/tiles/10/163/395.pbf",
                                                        "http://x/nosuch.json", "http://x/tiles.json", "http://x/style.json", "http://localhost/nosuch", "http://x/sprite.json",
                                                        "http://x/tiles.json"])
    }

    @Test func aFileChangedWhileServedIsServedAsItIsNowRewrittenAndGzippedAgain() async throws {
        let fixture = try FixtureDirectory()
        let folder = fixture.path + "/sample"
        try FileManager.default.copyItem(atPath: SampleStyle.folder, toPath: folder)
        let server = try await StyleServer.start(.init(style: folder + "/style.json", port: 0)) { _ in }
        let gzip = [("Accept-Encoding", "gzip")]
        let first = try await get(server.baseURL + "tiles.json")
        let firstGzipped = try await get(server.baseURL + "tiles.json", gzip)
        #expect(try ZlibCodec.inflate(firstGzipped.body) == first.body)
        #expect(try await get(server.baseURL + "tiles.json", gzip).body == firstGzipped.body, "the same file, the same bytes")
        // The TileJSON changes on disk: the next answers are of the new file, rewritten and gzipped anew.
        var tileJSON = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/tiles.json")))).objectValue ?? JSONObject()
        tileJSON["tiles"] = .array([.string("other/{z}/{x}/{y}.pbf")])
        try Data(JSONWriter.string(.object(tileJSON)).utf8).write(to: URL(fileURLWithPath: folder + "/tiles.json"))
        let second = try await get(server.baseURL + "tiles.json")
        #expect(try JSONParser.parse(second.body)["tiles"] == .array([.string(server.baseURL + "other/{z}/{x}/{y}.pbf")]))
        #expect(second.headers["ETag"] != first.headers["ETag"])
        #expect(try ZlibCodec.inflate(try await get(server.baseURL + "tiles.json", gzip).body) == second.body)
        await server.stop()
    }

    @Test func anIdleOrHalfSentConnectionClosesAndOnesBeyondTheLimitWaitForIt() async throws {
        let events = Events()
        let server = try await StyleServer.start(.init(style: SampleStyle.folder + "/style.json", port: 0, maximumConnections: 1, idleTimeout: .milliseconds(300)),
                                                 report: events.report)
        let first = try RawHTTPConnection(port: server.port)
        first.send("GET /tiles.json HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await first.answer()?.status == 200)
        // The second connection waits in the kernel's queue while the first is open...
        let second = try RawHTTPConnection(port: server.port)
        second.send("GET /style.json HTTP/1.1\r\nHost: x\r\n\r\n")
        // ...and is answered once the first, idle, is closed by the server.
        #expect(await first.isClosedByServer())
        #expect(await second.answer()?.status == 200)
        // Half a request is no request: the connection that sent it is closed when its idle time is over.
        let partial = try RawHTTPConnection(port: server.port)
        partial.send("GET /style.json HTTP/1.1\r\nHost: x\r\n")
        #expect(await partial.isClosedByServer())
        await server.stop()
        let times = events.events.map(\.begin)
        #expect(times.count == 2)
        if times.count == 2 { #expect(times[1] - times[0] >= .milliseconds(250), "the second request was answered before the first connection closed") }
    }

    @Test func stoppingClosesIdleConnectionsAtOnceAndTakesNoNewOnes() async throws {
        let server = try await StyleServer.start(.init(style: SampleStyle.folder + "/style.json", port: 0, idleTimeout: .seconds(60))) { _ in }
        let open = try RawHTTPConnection(port: server.port)
        open.send("GET /tiles.json HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await open.answer()?.status == 200)
        let began = ContinuousClock.now
        await server.stop(grace: .seconds(300))
        #expect(ContinuousClock.now - began < .seconds(300), "an idle keep-alive connection held the stop for its whole grace")
        #expect(await open.isClosedByServer())
        #expect(throws: (any Error).self) { try RawHTTPConnection(port: server.port) }
    }

    @Test func faultsOfflineWindowsAndProfilesShapeTheAnswersAndTheEventsSayHow() async throws {
        let events = Events()
        let conditions = ServeConditions(profile: NetworkPreset.threeG.profile(seed: 1),
                                         faults: [FaultRule(pattern: URLPattern("*/tiles/*"), effect: .status(503, headers: [("Retry-After", "3")]), times: 1),
                                                  FaultRule(pattern: URLPattern("*/sprite.png"), effect: .dropConnection),
                                                  FaultRule(pattern: URLPattern("*/sprite.json"), effect: .truncateBody)])
        let server = try await StyleServer.start(.init(style: SampleStyle.folder + "/style.json", port: 0, conditions: conditions), report: events.report)
        let tile = server.baseURL + "tiles/10/163/395.pbf"
        let first = try await get(tile)
        #expect(first.status == 503 && first.headers["Retry-After"] == ["3"])
        #expect(try await get(tile).status == 200, "times: 1 — the next request of the URL is answered")
        await #expect(throws: (any Error).self) { try await get(server.baseURL + "sprite.png") }
        let cut = try? await get(server.baseURL + "sprite.json")
        #expect(cut == nil || cut!.body.count < 295, "half the body, then the connection closes")
        await server.stop()
        let outcomes = events.requests.map { $0.response?.error?.reason }
        #expect(outcomes == [.server, nil, .connection, .connection])
        #expect(events.requests.count == 4)
        let offline = Events()
        let down = try await StyleServer.start(.init(style: SampleStyle.folder + "/style.json", port: 0,
                                                     conditions: ServeConditions(offlineWindows: [SimTime.zero..<SimTime.seconds(3_600)])), report: offline.report)
        await #expect(throws: (any Error).self) { try await get(down.baseURL + "style.json") }
        await down.stop()
        #expect(offline.requests.map { $0.response?.error?.reason } == [.connection])
    }

    @Test func aFaultsNoContentAnswerEndsWithItsHeadAndATilePathOfNoTileIsATileRequest() async throws {
        let events = Events()
        let conditions = ServeConditions(faults: [FaultRule(pattern: URLPattern("*/tiles/10/*"), effect: .status(204, headers: []))])
        let server = try await StyleServer.start(.init(style: SampleStyle.folder + "/style.json", port: 0, conditions: conditions), report: events.report)
        let connection = try RawHTTPConnection(port: server.port)
        // A 204 with a body would be read as the start of the next answer: the kept-alive connection must carry two.
        connection.send("GET /tiles/10/163/395.pbf HTTP/1.1\r\nHost: x\r\n\r\nGET /tiles.json HTTP/1.1\r\nHost: x\r\n\r\n")
        let empty = try #require(await connection.answer(bodyless: true))
        #expect(empty.status == 204 && empty.headers["content-length"] == nil)
        let next = try #require(await connection.answer())
        #expect(next.status == 200 && String(decoding: next.body, as: UTF8.self).contains("\"tiles\""))
        // Paths the tile template matches that name no tile of the pyramid (a row past the zoom's last, a zoom past 30,
        // a zoom whose 1 << z overflows) are tile requests of no tile: refused as the folder lacks them, the server goes on.
        connection.send("GET /tiles/1/1/2.pbf HTTP/1.1\r\nHost: x\r\n\r\nGET /tiles/31/0/0.pbf HTTP/1.1\r\nHost: x\r\n\r\n"
            + "GET /tiles/70/0/0.pbf HTTP/1.1\r\nHost: x\r\n\r\nGET /style.json HTTP/1.1\r\nHost: x\r\n\r\n")
        for _ in 0..<3 { #expect(await connection.answer()?.status == 404) }
        #expect(await connection.answer()?.status == 200)
        await server.stop()
        #expect(events.requests.first?.response?.noContent == true)
        #expect(events.requests.dropFirst(2).prefix(3).allSatisfy { $0.request.kind == .tile && $0.request.tileData == nil })
    }

    @Test func theTemplatePatternReadsPlaceholdersBack() {
        #expect(URLTemplatePattern("tiles/{z}/{x}/{y}.pbf").match("tiles/10/163/395.pbf") == ["z": "10", "x": "163", "y": "395"])
        #expect(URLTemplatePattern("glyphs/{fontstack}/{range}.pbf").match("glyphs/A%20B,C/0-255.pbf") == ["fontstack": "A%20B,C", "range": "0-255"])
        #expect(URLTemplatePattern("tiles/{z}/{x}/{y}.pbf").match("tiles/10/163.pbf") == nil)
        #expect(FileAnswer.byteRange("bytes=-3", size: 10) == .some(7...9))
        #expect(FileAnswer.byteRange("bytes=0-1,4-5", size: 10) == nil)
        #expect(FileAnswer.acceptsGzip("deflate, gzip;q=0.5") && !FileAnswer.acceptsGzip("gzip;q=0") && !FileAnswer.acceptsGzip("br"))
    }
}
