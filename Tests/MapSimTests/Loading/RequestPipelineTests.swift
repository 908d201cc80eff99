import Testing
@testable import MapSim

@Suite("RequestPipeline")
struct RequestPipelineTests {
    private let tile = Resource(url: "https://h/t.pbf", kind: .tile)
    private func id(_ n: Int) -> RequestID { RequestID(value: n) }
    private func attempt(_ n: Int) -> AttemptID { AttemptID(value: n) }
    private let start = HTTPDate(secondsSince1970: 1_767_225_600)

    private func pipeline(cache: Bool = false, cap: Int = 20) -> RequestPipeline {
        RequestPipeline(configuration: .init(maximumConcurrentRequests: cap, usesCache: cache, wallClockStart: start))
    }

    @Test func filesGoToTheFileBackendOnly() {
        var machine = pipeline(cache: true)
        let file = Resource(url: "file:///s.json", kind: .style)
        machine.request(id(0), file, at: .zero)
        #expect(machine.takeActions().withoutEvents == [.load(id(0), attempt(0), .file, file)])
        machine.answer(.success([1], source: .localFile), for: id(0), attempt: attempt(0), from: .file, at: .zero)
        #expect(machine.takeActions().withoutEvents == [.deliver(id(0), .success([1], source: .localFile), final: true)])
    }

    @Test func withoutACacheRequestsGoStraightToTheNetwork() {
        var machine = pipeline()
        machine.request(id(0), tile, at: .zero)
        #expect(machine.takeActions().withoutEvents == [.load(id(0), attempt(0), .network, tile)])
    }

    @Test func aUsableCachedCopyIsDeliveredThenRevalidatedAtLowPriority() {
        var machine = pipeline(cache: true)
        machine.request(id(0), tile, at: .zero)
        #expect(machine.takeActions().withoutEvents == [.load(id(0), attempt(0), .cache, tile)])
        var cached = Response.success([7], source: .cache)
        cached.etag = "\"a\""
        cached.expires = HTTPDate(secondsSince1970: start.secondsSince1970 - 10)
        machine.answer(cached, for: id(0), attempt: attempt(0), from: .cache, at: .zero)
        var revalidation = tile
        revalidation.priority = .low
        revalidation.prior = Resource.Prior(expires: cached.expires, etag: "\"a\"", data: [7])
        #expect(machine.takeActions().withoutEvents == [
            .deliver(id(0), cached, final: false),
            .load(id(0), attempt(1), .network, revalidation),
        ])
        // The copy was delivered: a 304 only says so, and refreshes the cache entry.
        let notModified = Response(notModified: true, source: .network)
        machine.answer(notModified, for: id(0), attempt: attempt(1), from: .network, at: .zero)
        #expect(machine.takeActions().withoutEvents == [.refreshCache(revalidation, notModified), .deliver(id(0), notModified, final: true)])
    }

    @Test func anExpiredMustRevalidateCopyIsNotDeliveredButSentAsPrior() {
        var machine = pipeline(cache: true)
        machine.request(id(0), tile, at: .zero)
        _ = machine.takeActions()
        var cached = Response.success([7], source: .cache)
        cached.mustRevalidate = true
        cached.modified = HTTPDate(secondsSince1970: 5)
        cached.expires = HTTPDate(secondsSince1970: start.secondsSince1970 - 1)
        machine.answer(cached, for: id(0), attempt: attempt(0), from: .cache, at: .zero)
        let actions = machine.takeActions().withoutEvents
        #expect(actions.count == 1)
        guard case .load(_, _, .network, let sent) = actions.first else { Issue.record("expected a network load"); return }
        #expect(sent.prior?.modified == HTTPDate(secondsSince1970: 5) && sent.priority == .regular)
        // A 304 then delivers the prior data as fresh.
        machine.answer(Response(notModified: true, source: .network), for: id(0), attempt: attempt(1), from: .network, at: .zero)
        let delivered = machine.takeActions().withoutEvents.compactMap { action -> Response? in
            if case .deliver(_, let response, _) = action { return response }
            return nil
        }
        #expect(delivered == [Response(data: [7], source: .network)])
    }

    @Test func networkResponsesAreStoredBeforeTheyAreDelivered() {
        var machine = pipeline(cache: true)
        machine.request(id(0), tile, at: .zero)
        machine.answer(.failure(.notFound, "miss", source: .cache), for: id(0), attempt: attempt(0), from: .cache, at: .zero)
        _ = machine.takeActions()
        let fresh = Response.success([1, 2], source: .network)
        machine.answer(fresh, for: id(0), attempt: attempt(1), from: .network, at: .zero)
        #expect(machine.takeActions().withoutEvents == [.store(tile, fresh), .deliver(id(0), fresh, final: true)])
    }

    @Test(arguments: [
        (Response.Failure.Reason.server, [1, 1, 1, 2, 4, 8]),
        (.connection, [1, 2, 4, 8, 16]),
    ])
    func retriesFollowTheSchedule(reason: Response.Failure.Reason, seconds: [Int]) {
        var machine = pipeline()
        machine.request(id(0), tile, at: .zero)
        _ = machine.takeActions()
        var now = SimTime.zero
        for (n, expected) in seconds.enumerated() {
            machine.answer(.failure(reason, "boom", source: .network), for: id(0), attempt: attempt(n), from: .network, at: now)
            let actions = machine.takeActions().withoutEvents
            #expect(actions.contains(.scheduleTimer(id(0), at: now + .seconds(Double(expected)))), "failure \(n + 1)")
            #expect(actions.contains { if case .deliver(_, _, false) = $0 { true } else { false } })
            now = now + .seconds(Double(expected))
            machine.timerFired(for: id(0), at: now)
            #expect(machine.takeActions().withoutEvents == [.load(id(0), attempt(n + 1), .network, tile)])
        }
    }

    @Test func rateLimitsWaitForRetryAfterOrFiveSeconds() {
        var machine = pipeline()
        let now = SimTime.seconds(10)
        let limited = Response.Failure(reason: .rateLimit, message: "429", retryAfter: HTTPDate(secondsSince1970: start.secondsSince1970 + 42))
        #expect(machine.retryDelay(for: limited, failures: 1, at: now) == .seconds(32))
        #expect(machine.retryDelay(for: .init(reason: .rateLimit, message: "429"), failures: 1, at: now) == .seconds(5))
        #expect(machine.retryDelay(for: .init(reason: .notFound, message: "404"), failures: 1, at: now) == nil)
        #expect(machine.retryDelay(for: .init(reason: .other, message: "418"), failures: 1, at: now) == nil)
        machine.request(id(0), tile, at: .zero)
        _ = machine.takeActions()
        machine.answer(.failure(.notFound, "gone", source: .network), for: id(0), attempt: attempt(0), from: .network, at: .zero)
        #expect(machine.takeActions().withoutEvents == [.deliver(id(0), .failure(.notFound, "gone", source: .network), final: true)])
    }

    @Test func responsesThatArriveExpiredAreRefreshedNoSoonerThanThirtySeconds() {
        var machine = pipeline()
        machine.request(id(0), tile, at: .zero)
        _ = machine.takeActions()
        var stale = Response.success([1], source: .network)
        stale.expires = HTTPDate(secondsSince1970: start.secondsSince1970 - 3600)
        machine.answer(stale, for: id(0), attempt: attempt(0), from: .network, at: .seconds(2))
        #expect(machine.takeActions().withoutEvents.last == .scheduleTimer(id(0), at: .seconds(32)))
        machine.request(id(1), tile, at: .zero)
        _ = machine.takeActions()
        var fresh = Response.success([1], source: .network)
        fresh.expires = HTTPDate(secondsSince1970: start.secondsSince1970 + 600)
        machine.answer(fresh, for: id(1), attempt: attempt(1), from: .network, at: .zero)
        #expect(machine.takeActions().withoutEvents.last == .scheduleTimer(id(1), at: .seconds(600)))
    }

    @Test func atMostTheCapIsInFlightRegularBeforeLowFirstInFirstOut() {
        var machine = pipeline(cap: 2)
        var low = tile
        low.priority = .low
        machine.request(id(0), tile, at: .zero)
        machine.request(id(1), tile, at: .zero)
        machine.request(id(2), low, at: .zero)
        machine.request(id(3), tile, at: .zero)
        machine.request(id(4), tile, at: .zero)
        #expect(machine.takeActions().withoutEvents.count == 2)
        #expect(machine.activeNetworkRequests == 2 && machine.queuedRequests == 3)
        machine.answer(.success([], source: .network), for: id(0), attempt: attempt(0), from: .network, at: .zero)
        #expect(machine.takeActions().withoutEvents.last == .load(id(3), attempt(2), .network, tile))
        machine.answer(.success([], source: .network), for: id(1), attempt: attempt(1), from: .network, at: .zero)
        #expect(machine.takeActions().withoutEvents.last == .load(id(4), attempt(3), .network, tile))
        machine.answer(.success([], source: .network), for: id(3), attempt: attempt(2), from: .network, at: .zero)
        #expect(machine.takeActions().withoutEvents.last == .load(id(2), attempt(4), .network, low))
    }

    @Test func cancellingFreesTheSlotAndDropsQueuedRequests() {
        var machine = pipeline(cap: 1)
        machine.request(id(0), tile, at: .zero)
        machine.request(id(1), tile, at: .zero)
        machine.request(id(2), tile, at: .zero)
        _ = machine.takeActions()
        machine.cancel(id(1), at: .zero)
        #expect(machine.takeActions().withoutEvents.isEmpty && machine.queuedRequests == 1)
        machine.cancel(id(0), at: .zero)
        #expect(machine.takeActions().withoutEvents == [.cancelLoad(attempt(0)), .load(id(2), attempt(1), .network, tile)])
        machine.answer(.success([], source: .network), for: id(0), attempt: attempt(0), from: .network, at: .zero)
        #expect(machine.takeActions().withoutEvents.isEmpty)
    }

    @Test func offlineRequestsFailAtOnceAndOnlyConnectionFailuresRestart() {
        var machine = pipeline()
        machine.request(id(0), tile, at: .zero)
        machine.request(id(1), tile, at: .zero)
        _ = machine.takeActions()
        machine.answer(.failure(.server, "500", source: .network), for: id(0), attempt: attempt(0), from: .network, at: .zero)
        machine.answer(.failure(.connection, "reset", source: .network), for: id(1), attempt: attempt(1), from: .network, at: .zero)
        _ = machine.takeActions()
        machine.setOffline(true, at: .zero)
        var low = tile
        low.priority = .low
        machine.request(id(2), low, at: .zero)
        machine.request(id(3), tile, at: .zero)
        let offline = machine.takeActions().withoutEvents
        #expect(offline.count == 2)
        #expect(offline.allSatisfy { if case .deliver(_, let r, false) = $0 { r.error?.reason == .inOfflineMode } else { false } })
        machine.setOffline(false, at: .milliseconds(10))
        #expect(machine.takeActions().withoutEvents == [
            .load(id(1), attempt(2), .network, tile), .load(id(3), attempt(3), .network, tile), .load(id(2), attempt(4), .network, low),
        ])
    }

    @Test func cacheOnlyRequestsThatMissSayNotFound() {
        var machine = pipeline(cache: true)
        var cacheOnly = tile
        cacheOnly.loadingMethod = .cache
        machine.request(id(0), cacheOnly, at: .zero)
        _ = machine.takeActions()
        machine.answer(.failure(.notFound, "miss", source: .cache), for: id(0), attempt: attempt(0), from: .cache, at: .zero)
        let actions = machine.takeActions().withoutEvents
        #expect(actions.count == 1)
        guard case .deliver(_, let response, true) = actions.first else { Issue.record("expected a final cache delivery"); return }
        #expect(response.error?.reason == .notFound)
    }

    @Test func eachDeliveryAndCancellationIsReportedWithTheRequestAsSentAndItsSpan() {
        var machine = pipeline(cache: true)
        machine.request(id(0), tile, at: .milliseconds(5))
        _ = machine.takeActions()
        var cached = Response.success([7], source: .cache)
        cached.etag = "\"a\""
        machine.answer(cached, for: id(0), attempt: attempt(0), from: .cache, at: .milliseconds(5))
        let revalidation = machine.takeActions()
        #expect(revalidation.first == .emit(.resourceRequest(ResourceRequest(dataSource: .database, request: tile, response: cached, cancelled: false)),
                                            begin: .milliseconds(5)))
        // The revalidation goes at low priority with the prior copy, and its event says so.
        guard case .load(_, _, .network, let sent) = revalidation.last else { Issue.record("expected a network load"); return }
        #expect(sent.priority == .low)
        let notModified = Response(notModified: true, source: .network)
        machine.answer(notModified, for: id(0), attempt: attempt(1), from: .network, at: .milliseconds(80))
        #expect(machine.takeActions().contains(.emit(.resourceRequest(ResourceRequest(dataSource: .network, request: sent, response: notModified, cancelled: false)),
                                                     begin: .milliseconds(5))))
        // A cancelled request spans from when it was made; an answered one is not reported again.
        machine.request(id(1), tile, at: .milliseconds(90))
        machine.cancel(id(1), at: .milliseconds(95))
        #expect(machine.takeActions().last == .emit(.resourceRequest(ResourceRequest(dataSource: .resourceLoader, request: tile, response: nil, cancelled: true)),
                                                    begin: .milliseconds(90)))
        machine.cancel(id(0), at: .milliseconds(99))
        #expect(machine.takeActions().isEmpty)
    }

    @Test func theDataSourceFollowsTheBackendAndTheScheme() {
        #expect(RequestPipeline.dataSource(.file, url: "asset://x") == .asset)
        #expect(RequestPipeline.dataSource(.file, url: "file:///x") == .fileSystem)
        #expect(RequestPipeline.dataSource(.cache, url: "https://h/x") == .database)
        #expect(RequestPipeline.dataSource(.network, url: "https://h/x") == .network)
    }

    @Test func pastTheRetryLimitAFailureIsFinalOfflineToo() {
        var machine = RequestPipeline(configuration: .init(maximumRetries: 1))
        machine.request(id(0), tile, at: .zero)
        _ = machine.takeActions()
        machine.answer(.failure(.server, "500", source: .network), for: id(0), attempt: attempt(0), from: .network, at: .zero)
        #expect(machine.takeActions().withoutEvents.contains { if case .deliver(_, _, false) = $0 { true } else { false } })
        machine.timerFired(for: id(0), at: .seconds(1))
        _ = machine.takeActions()
        machine.answer(.failure(.server, "500", source: .network), for: id(0), attempt: attempt(1), from: .network, at: .seconds(1))
        let second = machine.takeActions().withoutEvents
        #expect(second.count == 1 && second.allSatisfy { if case .deliver(_, _, true) = $0 { true } else { false } })
        var offline = RequestPipeline(configuration: .init(maximumRetries: 0))
        offline.setOffline(true, at: .zero)
        offline.request(id(1), tile, at: .zero)
        #expect(offline.takeActions().withoutEvents == [.deliver(id(1), .failure(.inOfflineMode, "offline: https://h/t.pbf was not requested", source: .network), final: true)])
        offline.setOffline(false, at: .seconds(1))
        #expect(offline.takeActions().isEmpty, "a final failure is not restarted on reconnect")
    }

}

extension [MapAction] {
    /// The actions without the resource-request events, for tests of what the pipeline does.
    var withoutEvents: [MapAction] {
        filter { if case .emit = $0 { false } else { true } }
    }
}
