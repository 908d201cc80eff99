import Foundation
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimHTTP

/// mapsim's own HTTP/1.1 client of plain `http://` URLs, through the loader, against servers on
/// 127.0.0.1 that answer as they are scripted to.
@Suite("PlainHTTPClient")
struct PlainHTTPClientTests {
    private func load(_ path: String, from server: ScriptedHTTPServer, loader: HTTPResourceLoader) async -> Response {
        await loader.load(Resource(url: "http://127.0.0.1:\(server.port)\(path)", kind: .style))
    }

    @Test func sendsWhatAsyncHTTPClientWouldAndLeavesTheRestToIt() throws {
        let routed = try #require(PlainHTTPClient.route("HTTP://Tiles.Example:8080/v4/a.json?access_token=x&b=1"))
        #expect(routed.target == .init(host: "tiles.example", port: 8080) && routed.path == "/v4/a.json?access_token=x&b=1")
        #expect(PlainHTTPClient.route("http://h")?.path == "/" && PlainHTTPClient.route("http://h?x=1")?.path == "/?x=1")
        #expect(PlainHTTPClient.route("http://127.0.0.1/a%20b.pbf")?.target == .init(host: "127.0.0.1", port: 80))
        for other in ["https://h/x", "http://user@h/x", "http://[::1]/x", "http://h/a b", "http://h/x#top", "http://h/{z}", "http://h:0/",
                      "http://h:70000/", "http://h:/x", "http://h:+80/x", "http:///x", "ftp://h/x", "http://h/é",
                      "http://h:1:2/x", "http://:80/x", "http://h\u{0}/x"] {
            #expect(PlainHTTPClient.route(other) == nil, "\(other)")
        }
    }

    @Test func aKeptAliveConnectionCarriesTheNextRequestAndAClosedOneIsNotReused() async throws {
        let server = try ScriptedHTTPServer([
            .init("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nab"),
            .init("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\ncd"),
            .init("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nef"),
        ])
        let loader = HTTPResourceLoader()
        let first = await load("/1", from: server, loader: loader)
        #expect(first.data == Array("ab".utf8), "\(String(describing: first.error))")
        #expect(await load("/2", from: server, loader: loader).data == Array("cd".utf8))
        #expect(await load("/3", from: server, loader: loader).data == Array("ef".utf8))
        #expect(server.requestLines == ["GET /1 HTTP/1.1", "GET /2 HTTP/1.1", "GET /3 HTTP/1.1"])
        #expect(server.connections == 2)
        try await loader.shutdown()
        server.stop()
    }

    /// A server closes a connection it kept alive when it has been idle for a while, and may do so
    /// just as the next request goes out on it: that request is sent again on a new connection,
    /// once, as curl (MapLibre Native) and browsers do. A new connection closed so, or one closed
    /// after some of the answer came, fails the request.
    @Test(arguments: [false, true])
    func aRequestAKeptAliveConnectionClosesUnderIsSentAgainOnceOnANewOne(resets: Bool) async throws {
        let server = try ScriptedHTTPServer([
            .init("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nab"),
            .init("", closes: true, resets: resets),
            .init("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\ncd"),
            .init("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", closes: true),
            .init("", closes: true, resets: resets),
        ])
        let loader = HTTPResourceLoader()
        #expect(await load("/1", from: server, loader: loader).data == Array("ab".utf8))
        let again = await load("/2", from: server, loader: loader)
        #expect(again.data == Array("cd".utf8), "\(String(describing: again.error))")
        #expect(server.connections == 2)
        let cut = await load("/3", from: server, loader: loader)
        #expect(cut.error?.message == "the server closed the connection of http://127.0.0.1:\(server.port)/3")
        let fresh = await load("/4", from: server, loader: loader)
        #expect(fresh.error?.reason == .connection && fresh.error?.message.contains("http://127.0.0.1:\(server.port)/4") == true,
                "\(String(describing: fresh.error))")
        #expect(server.requestLines == ["GET /1 HTTP/1.1", "GET /2 HTTP/1.1", "GET /2 HTTP/1.1", "GET /3 HTTP/1.1", "GET /4 HTTP/1.1"])
        #expect(server.connections == 3)
        try await loader.shutdown()
        server.stop()
    }

    /// AsyncHTTPClient (here for a URL with user info) does not say whether a connection was kept
    /// alive: its request closed under before any of the answer came is sent again once, whatever
    /// the connection; one closed under after the answer began is not.
    @Test func anAsyncHTTPClientRequestClosedUnderBeforeItsAnswerIsSentAgainOnce() async throws {
        let server = try ScriptedHTTPServer([
            .init("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nab"),
            .init("", closes: true),
            .init("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\ncd"),
            .init("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", closes: true),
            .init("", closes: true),
            .init("", closes: true),
        ])
        let loader = HTTPResourceLoader()
        func load(_ path: String) async -> Response {
            await loader.load(Resource(url: "http://user@127.0.0.1:\(server.port)\(path)", kind: .style))
        }
        #expect(await load("/1").data == Array("ab".utf8))
        let again = await load("/2")
        #expect(again.data == Array("cd".utf8), "\(String(describing: again.error))")
        #expect(await load("/3").error?.reason == .connection)
        let closed = await load("/4")
        #expect(closed.error?.message == "the server closed the connection of http://user@127.0.0.1:\(server.port)/4")
        #expect(server.requestLines == ["GET /1 HTTP/1.1", "GET /2 HTTP/1.1", "GET /2 HTTP/1.1", "GET /3 HTTP/1.1", "GET /4 HTTP/1.1", "GET /4 HTTP/1.1"])
        try await loader.shutdown()
        server.stop()
    }

    /// A second answer to one request is not taken for the answer to the next: the connection it
    /// came on carries no other request.
    @Test func anAnswerNoRequestAskedForClosesItsConnection() async throws {
        let server = try ScriptedHTTPServer([
            .init("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nabHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nzz"),
            .init("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\ncd"),
        ])
        let loader = HTTPResourceLoader()
        #expect(await load("/1", from: server, loader: loader).data == Array("ab".utf8))
        #expect(await load("/2", from: server, loader: loader).data == Array("cd".utf8))
        #expect(server.connections == 2)
        try await loader.shutdown()
        server.stop()
    }

    @Test func aBodyEndedByClosingIsWholeAndOneCutShortIsAClosedConnection() async throws {
        let server = try ScriptedHTTPServer([
            .init("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nto the end", closes: true),
            .init("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", closes: true),
        ])
        let loader = HTTPResourceLoader()
        #expect(await load("/whole", from: server, loader: loader).data == Array("to the end".utf8))
        let cut = await load("/cut", from: server, loader: loader)
        #expect(cut.error?.reason == .connection)
        #expect(cut.error?.message == "the server closed the connection of http://127.0.0.1:\(server.port)/cut")
        try await loader.shutdown()
        server.stop()
    }

    /// A server that answers with what is not HTTP — two lengths, a negative one, another protocol on
    /// the port — answered: its error says so, not that it could not be reached. A connection error
    /// still, as curl's is for MapLibre Native. Through either client.
    @Test(arguments: ["", "user@"])
    func anAnswerThatIsNotHTTPIsNamedAsSuch(userInfo: String) async throws {
        let server = try ScriptedHTTPServer([
            .init("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 7\r\n\r\nab", closes: true),
            .init("HTTP/1.1 200 OK\r\nContent-Length: -2\r\n\r\nab", closes: true),
            .init("SSH-2.0-OpenSSH_9.2\r\n", closes: true),
        ])
        let loader = HTTPResourceLoader()
        let url = "http://\(userInfo)127.0.0.1:\(server.port)"
        for (path, reason) in [("/two-lengths", "it has two lengths (two Content-Length headers, or one with chunked encoding)"),
                               ("/negative-length", "its Content-Length is not a number of bytes"),
                               ("/ssh", "it does not begin as an HTTP answer does (is another protocol on that port?)")] {
            let answer = await loader.load(Resource(url: url + path, kind: .tile))
            #expect(answer.error?.reason == .connection)
            #expect(answer.error?.message == "the answer of \(url)\(path) is not valid HTTP: \(reason)", "\(String(describing: answer.error))")
        }
        try await loader.shutdown()
        server.stop()
    }

    @Test func anInformationalAnswerIsPassedOverAndAChunkedBodyJoined() async throws {
        let server = try ScriptedHTTPServer([
            .init("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nETag: \"e\"\r\nContent-Length: 2\r\n\r\nok"),
            .init("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"),
        ])
        let loader = HTTPResourceLoader()
        let informed = await load("/a", from: server, loader: loader)
        #expect(informed.data == Array("ok".utf8) && informed.etag == "\"e\"")
        #expect(await load("/b", from: server, loader: loader).data == Array("abcde".utf8))
        #expect(server.connections == 1)
        try await loader.shutdown()
        server.stop()
    }

    @Test func aBodyOverTheLimitAndOneThatDoesNotInflateAreRefused() async throws {
        let gzip = try #require(ZlibCodec.deflate(Array(repeating: 7, count: 5_000), format: .gzip))
        let gzipAnswer = "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(gzip.count)\r\n\r\n"
        let server = try ScriptedHTTPServer([
            .init("HTTP/1.1 200 OK\r\nContent-Length: 2000\r\n\r\n" + String(repeating: "x", count: 2_000)),
            ScriptedHTTPServer.Answer(bytes: Array(gzipAnswer.utf8) + gzip),
            .init("HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\nContent-Length: 5\r\n\r\nhello"),
        ])
        let loader = HTTPResourceLoader(options: .init(maximumResponseSize: 1_000))
        let url = "http://127.0.0.1:\(server.port)"
        #expect(await load("/big", from: server, loader: loader).error?.message == "the response of \(url)/big is larger than the limit of 1000 bytes")
        #expect(await load("/inflates-big", from: server, loader: loader).error?.message == "the response of \(url)/inflates-big is larger than the limit of 1000 bytes")
        let undecodable = await load("/not-deflate", from: server, loader: loader)
        #expect(undecodable.error?.reason == .other)
        #expect(undecodable.error?.message.hasPrefix("the response of \(url)/not-deflate is not what it says: its deflate body does not inflate") == true)
        try await loader.shutdown()
        server.stop()
    }

    /// A tile sent gzipped comes with its stream kept as zlib, for a store to keep without deflating
    /// it again; one whose CRC-32 is wrong is no body at all, and says so. Through either client:
    /// mapsim's own, and AsyncHTTPClient (here for a URL with user info), which leaves the content
    /// coding to the loader.
    @Test(arguments: ["", "user@"])
    func aGzippedBodyKeepsItsStreamAndOneThatLiesIsRefused(userInfo: String) async throws {
        let body = (0..<6_000).map { UInt8(truncatingIfNeeded: $0 * $0 / 7) }
        let gzip = try #require(ZlibCodec.deflate(body, format: .gzip))
        var lying = gzip
        lying[gzip.count - 8] ^= 0x55  // the CRC-32
        func answer(_ bytes: [UInt8]) -> ScriptedHTTPServer.Answer {
            ScriptedHTTPServer.Answer(bytes: Array("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(bytes.count)\r\n\r\n".utf8) + bytes)
        }
        let server = try ScriptedHTTPServer([answer(gzip), answer(lying), answer(gzip)])
        let loader = HTTPResourceLoader(options: .init(maximumResponseSize: 5_000))
        let url = "http://\(userInfo)127.0.0.1:\(server.port)"
        let tile = await loader.load(Resource(url: url + "/tile.pbf", kind: .tile))
        #expect(tile.data == nil && tile.error?.message == "the response of \(url)/tile.pbf is larger than the limit of 5000 bytes", "it inflates past the limit: \(tile.data?.count ?? -1)")
        let lie = await loader.load(Resource(url: url + "/lying.pbf", kind: .tile))
        #expect(lie.data == nil && lie.zlibData == nil)
        #expect(lie.error?.message.hasPrefix("the response of \(url)/lying.pbf is not what it says: its gzip body does not inflate") == true, "\(String(describing: lie.error))")
        try await loader.shutdown()
        let roomy = HTTPResourceLoader()
        let whole = await roomy.load(Resource(url: url + "/tile.pbf", kind: .tile))
        #expect(whole.data == body)
        let zlib = try #require(whole.zlibData)
        let inflated = try ZlibCodec.inflate(zlib)
        #expect(ZlibCodec.isStream(zlib, of: body) && inflated == body)
        try await roomy.shutdown()
        server.stop()
    }

    @Test func redirectsAreFollowedFiveTimesAtMostToAnyServer() async throws {
        let elsewhere = try ScriptedHTTPServer([.init("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")])
        let server = try ScriptedHTTPServer([
            .init("HTTP/1.1 301 Moved Permanently\r\nLocation: /moved/style.json\r\nContent-Length: 0\r\n\r\n"),
            .init("HTTP/1.1 307 Temporary Redirect\r\nLocation: again.json\r\nContent-Length: 0\r\n\r\n"),
            .init("HTTP/1.1 308 Permanent Redirect\r\nLocation: http://127.0.0.1:\(elsewhere.port)/final.json\r\nContent-Length: 0\r\n\r\n"),
        ] + (1...6).map { .init("HTTP/1.1 302 Found\r\nLocation: /hop\($0)\r\nContent-Length: 0\r\n\r\n") })
        let loader = HTTPResourceLoader()
        #expect(await load("/style.json", from: server, loader: loader).data == Array("{}".utf8))
        #expect(server.requestLines == ["GET /style.json HTTP/1.1", "GET /moved/style.json HTTP/1.1", "GET /moved/again.json HTTP/1.1"])
        #expect(elsewhere.requestLines == ["GET /final.json HTTP/1.1"])
        let tooMany = await load("/hop0", from: server, loader: loader)
        #expect(tooMany.error?.reason == .other && tooMany.error?.message == "http://127.0.0.1:\(server.port)/hop0 redirects more than 5 times")
        #expect(server.requestLines.suffix(6) == (0...5).map { "GET /hop\($0) HTTP/1.1" })
        try await loader.shutdown()
        server.stop()
        elsewhere.stop()
    }

    @Test func aRedirectBackToAURLAlreadyAskedIsACycle() async throws {
        let server = try ScriptedHTTPServer([
            .init("HTTP/1.1 302 Found\r\nLocation: /b\r\nContent-Length: 0\r\n\r\n"),
            .init("HTTP/1.1 302 Found\r\nLocation: /a\r\nContent-Length: 0\r\n\r\n"),
        ])
        let loader = HTTPResourceLoader()
        let cycle = await load("/a", from: server, loader: loader)
        #expect(cycle.error?.reason == .other && cycle.error?.message == "http://127.0.0.1:\(server.port)/a redirects round a cycle")
        #expect(server.requestLines == ["GET /a HTTP/1.1", "GET /b HTTP/1.1"])
        try await loader.shutdown()
        server.stop()
    }

    @Test func aLoaderShutDownAnswersAtOnceThatItIs() async throws {
        let server = try ScriptedHTTPServer([])
        let loader = HTTPResourceLoader()
        try await loader.shutdown()
        let refused = await load("/x", from: server, loader: loader)
        #expect(refused.error != nil && server.requestLines.isEmpty)
        server.stop()
    }
}
