import Foundation
import Testing
import MapSimTesting
import NIOCore
import Synchronization
@testable import MapSim
@testable import MapSimHTTP

/// The network backend against a real HTTP server on 127.0.0.1.
@Suite("HTTPResourceLoader")
struct HTTPResourceLoaderTests {
    private func withServer(_ options: HTTPResourceLoader.Options = .init(),
                            _ body: (FixtureServer, HTTPResourceLoader) async throws -> Void) async throws {
        let server = try await FixtureServer.start(serving: SampleStyle.folder)
        let loader = HTTPResourceLoader(options: options)
        do {
            try await body(server, loader)
        } catch {
            Issue.record(error)
        }
        try await loader.shutdown()
        await server.stop()
    }

    @Test func aLoaderReleasedWithoutShutdownClosesItsClientAndTheProcessGoesOn() async throws {
        // A task that ends early on an error drops its loader unshut: before, AsyncHTTPClient's debug
        // check stopped the whole process there.
        let server = try await FixtureServer.start(serving: SampleStyle.folder)
        var loader: HTTPResourceLoader? = HTTPResourceLoader()
        #expect(await loader?.load(Resource(url: server.baseURL + "/style.json", kind: .style)).error == nil)
        loader = nil
        let again = HTTPResourceLoader()
        #expect(await again.load(Resource(url: server.baseURL + "/style.json", kind: .style)).error == nil)
        try await again.shutdown()
        await server.stop()
    }

    @Test func loadsFilesAndSendsItsHeaders() async throws {
        try await withServer { server, loader in
            let response = await loader.load(Resource(url: server.baseURL + "/style.json", kind: .style))
            #expect(response.error == nil && response.source == .network)
            #expect(response.data == [UInt8](try Data(contentsOf: URL(fileURLWithPath: SampleStyle.folder + "/style.json"))))
            #expect(response.etag != nil && response.modified == HTTPDate(rfc1123: "Thu, 01 Jan 2026 00:00:00 GMT"))
            let headers = try #require(server.received.first?.headers)
            #expect(headers["user-agent"] == "mapsim/\(MapSimInfo.version)")
            #expect(headers["accept-encoding"]?.contains("gzip") == true)
            #expect(headers["if-none-match"] == nil && headers["if-modified-since"] == nil)
        }
    }

    @Test func revalidatesWithTheETagFirstElseTheDate() async throws {
        try await withServer { server, loader in
            let url = server.baseURL + "/tiles.json"
            let first = await loader.load(Resource(url: url, kind: .source))
            let revalidated = await loader.load(Resource(url: url, kind: .source, prior: .init(modified: first.modified, etag: first.etag)))
            #expect(revalidated.notModified && revalidated.data == nil)
            _ = await loader.load(Resource(url: url, kind: .source, prior: .init(modified: HTTPDate(secondsSince1970: 784_111_777))))
            let sent = server.received.map(\.headers)
            #expect(sent[1]["if-none-match"] == first.etag && sent[1]["if-modified-since"] == nil)
            #expect(sent[2]["if-modified-since"] == "Sun, 06 Nov 1994 08:49:37 GMT" && sent[2]["if-none-match"] == nil)
        }
    }

    @Test func mapsEveryStatusTheServerSends() async throws {
        try await withServer { server, loader in
            let cases: [(Int, Resource.Kind, (Response) -> Bool)] = [
                (204, .style, { $0.noContent }),
                (404, .tile, { $0.noContent && $0.error == nil }),
                (404, .style, { $0.error?.reason == .notFound }),
                (429, .tile, { $0.error?.reason == .rateLimit && $0.error?.retryAfter != nil }),
                (500, .source, { $0.error?.reason == .server }),
                (503, .glyphs, { $0.error?.reason == .server }),
                (418, .style, { $0.error?.reason == .other }),
            ]
            for (status, kind, check) in cases {
                server.reply("/x\(status)\(kind.rawValue)", with: .status(status, headers: [("Retry-After", "7")]))
                let response = await loader.load(Resource(url: server.baseURL + "/x\(status)\(kind.rawValue)", kind: kind))
                #expect(check(response), "HTTP \(status) for a \(kind.rawValue): \(response)")
            }
            server.reply("/cached.json", with: .headers([("Cache-Control", "max-age=120, must-revalidate")]))
            server.reply("/cached.json", with: .status(200, headers: [("Cache-Control", "max-age=120, must-revalidate")], body: [1]))
            let cached = await loader.load(Resource(url: server.baseURL + "/cached.json", kind: .style))
            #expect(cached.mustRevalidate && cached.expires != nil)
        }
    }

    @Test func decompressesGzip() async throws {
        try await withServer { server, loader in
            let gzipped: [UInt8] = [31,139,8,0,0,0,0,0,2,3,171,86,74,175,202,44,40,72,77,81,178,82,40,41,42,77,173,5,0,1,198,234,21,17,0,0,0]
            server.reply("/gz.json", with: .status(200, headers: [("Content-Encoding", "gzip")], body: gzipped))
            let response = await loader.load(Resource(url: server.baseURL + "/gz.json", kind: .style))
            #expect(response.data == Array(#"{"gzipped": true}"#.utf8))
        }
    }

    /// A load started for a loop that takes answers as they arrive (no task of its own) answers as
    /// `load` does, once; given up, it answers at once that it was cancelled.
    @Test func aStartedLoadHandsOnTheAnswerLoadGivesAndIsGivenUpAtOnce() async throws {
        try await withServer { server, loader in
            let resource = Resource(url: server.baseURL + "/tiles.json", kind: .source)
            let answers = AnswerBox()
            let answered = await withCheckedContinuation { continuation in
                _ = loader.start(resource) { answers.take($0, continuation) }
            }
            let loaded = await loader.load(resource)
            #expect(answered.error == nil && answered.data == loaded.data && answered.etag == loaded.etag && answered.data?.isEmpty == false)

            server.reply("/held.json", with: .delay(.seconds(600)))
            let started = ContinuousClock.now
            let cancelled = await withCheckedContinuation { continuation in
                let cancel = loader.start(Resource(url: server.baseURL + "/held.json", kind: .style)) { answers.take($0, continuation) }
                cancel()
            }
            #expect(cancelled.error?.message == "\(server.baseURL)/held.json was cancelled")
            #expect(ContinuousClock.now - started < .seconds(300))
            #expect(answers.count == 2)
        }
    }

    @Test func aSilentServerTimesOutAsAConnectionError() async throws {
        try await withServer(.init(readTimeout: .milliseconds(200))) { server, loader in
            server.reply("/slow.json", with: .delay(.seconds(2)))
            let response = await loader.load(Resource(url: server.baseURL + "/slow.json", kind: .style))
            #expect(response.error?.reason == .connection)
            #expect(response.error?.message.contains("timed out") == true)
        }
    }

    @Test func anExchangeLongerThanItsDeadlineIsCutAtItAsATimeOut() async throws {
        // The server never answers, and the read timeout is ten minutes: only the exchange's
        // deadline (one watch for every exchange in flight) can end it sooner, and names it a
        // time-out.
        let silent = try DroppingServer(.hold)
        let loader = HTTPResourceLoader(options: .init(readTimeout: .seconds(600), deadline: .seconds(1)))
        let url = "http://127.0.0.1:\(silent.port)/style.json"
        let started = ContinuousClock.now
        let response = await loader.load(Resource(url: url, kind: .style))
        #expect(response.error?.reason == .connection)
        #expect(response.error?.message == "\(url) timed out")
        // Cut by the deadline, not the read timeout: a bound loose enough for a machine so busy
        // that the test's task waits minutes for a thread (115 s was seen in a full run beside two
        // processes spinning on both cores).
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .seconds(400), "\(elapsed)")
        try await loader.shutdown()
        silent.stop()
    }

    @Test func theDeadlineWatchCancelsWhatIsOverdueAndNothingElse() async {
        let deadlines = ExchangeDeadlines()
        let kept = deadlines.watch(until: .now() + .seconds(3600)) { Issue.record("an exchange within its deadline was cancelled") }
        await withCheckedContinuation { (cancelled: CheckedContinuation<Void, Never>) in
            let overdue = deadlines.watch(until: .now() - .seconds(1)) { cancelled.resume() }
            _ = overdue
        }
        #expect(deadlines.finish(kept))
        // Finished, an exchange is no longer watched: a second finish says it was not.
        #expect(!deadlines.finish(kept))
        deadlines.stop()
    }

    @Test func aCommandsBudgetIsTheClientsOnlyLimit() async throws {
        // No hidden limit of the client's cuts an answer short of the command's own budget …
        let generous = HTTPResourceLoader.Options(waitingAtMost: .seconds(90))
        #expect(generous.readTimeout == .seconds(90) && generous.connectTimeout == .seconds(90))
        // … and the budget bounds the wait.
        try await withServer(.init(waitingAtMost: .milliseconds(200))) { server, loader in
            server.reply("/slow.json", with: .delay(.seconds(2)))
            let response = await loader.load(Resource(url: server.baseURL + "/slow.json", kind: .style))
            #expect(response.error?.reason == .connection && response.error?.message.contains("timed out") == true)
        }
        #expect(HTTPResourceLoader.Options(waitingAtMost: nil).readTimeout == HTTPResourceLoader.Options().readTimeout)
    }

    @Test func bodiesOverTheLimitAreRefused() async throws {
        try await withServer(.init(maximumResponseSize: 1_000)) { server, loader in
            let response = await loader.load(Resource(url: server.baseURL + "/style.json", kind: .style))
            #expect(response.error?.reason == .other)
            #expect(response.error?.message.contains("larger than the limit of 1000 bytes") == true)
        }
    }

    @Test func refusedAndDroppedConnectionsAreConnectionErrors() async throws {
        // AsyncHTTPClient retries refused connections until the connect timeout: keep it short.
        let loader = HTTPResourceLoader(options: .init(connectTimeout: .milliseconds(300)))
        let dropping = try DroppingServer()
        let dropped = await loader.load(Resource(url: "http://127.0.0.1:\(dropping.port)/style.json", kind: .style))
        #expect(dropped.error?.reason == .connection, "\(dropped)")
        dropping.stop()
        let refused = await loader.load(Resource(url: "http://127.0.0.1:\(dropping.port)/style.json", kind: .style))
        #expect(refused.error?.reason == .connection, "\(refused)")
        try await loader.shutdown()
    }

    @Test func aRefusedConnectionIsAConnectionErrorAtOnceNotAConnectTimeout() async throws {
        // A port that was just free: nothing listens there, so the connection is refused.
        let server = try await FixtureServer.start(serving: NSTemporaryDirectory())
        let url = "http://127.0.0.1:\(server.port)/style.json"
        await server.stop()
        let loader = HTTPResourceLoader(options: .init(connectTimeout: .seconds(30)))
        let response = await loader.load(.style(url))
        try await loader.shutdown()
        #expect(response.error?.reason == .connection)
        // Retried inside the HTTP client, it would end as "connecting ... timed out" after 30 s.
        #expect(response.error?.message.contains("timed out") == false, "\(response.error?.message ?? "")")
        #expect(response.error?.message.hasSuffix(": Connection refused") == true, "in words, not NIO's structure: \(response.error?.message ?? "")")
    }
}

/// The answers a started load hands on, counted, each resuming the test that waits for it.
private final class AnswerBox: Sendable {
    private let answers = Mutex(0)

    var count: Int { answers.withLock { $0 } }

    func take(_ response: Response, _ continuation: CheckedContinuation<Response, Never>) {
        answers.withLock { $0 += 1 }
        continuation.resume(returning: response)
    }
}
