import Testing
@testable import MapSim

/// One test per transition of the request pipeline: inputs in, actions out.
@Suite("RequestPipeline")
struct RequestPipelineTests {
    private let tile = Resource(url: "https://h/t.pbf", kind: .tile)
    private func id(_ n: Int) -> RequestID { RequestID(value: n) }
    private func attempt(_ n: Int) -> AttemptID { AttemptID(value: n) }
    private let clock = WallClock.simulated

    private func pipeline(cache: Bool = false, cap: Int = 20) -> RequestPipeline {
        RequestPipeline(configuration: .init(maximumConcurrentRequests: cap, usesCache: cache))
    }

    /// The load of attempt `a` of request `n`, as the pipeline orders it (a network attempt is stamped with the date it is sent).
    private func load(_ n: Int, _ a: Int, _ backend: RequestPipeline.Backend, _ resource: Resource, at time: SimTime = .zero) -> RequestPipeline.Action {
        var sent = resource
        if backend != .file { sent.issued = clock.date(at: time) }
        return .load(LoadOrder(request: id(n), attempt: attempt(a), backend: backend, resource: sent))
    }

    /// The answer `response` to attempt `a` of request `n` from `backend`.
    private func answer(_ response: Response, _ n: Int, _ a: Int, _ backend: RequestPipeline.Backend) -> RequestPipeline.Input {
        .answer(LoadAnswer(LoadOrder(request: id(n), attempt: attempt(a), backend: backend, resource: tile), response))
    }

    @Test func filesGoToTheFileBackendOnly() {
        var machine = pipeline(cache: true)
        let file = Resource(url: "file:///s.json", kind: .style)
        #expect(machine.handle(.request(id(0), file), at: .zero).withoutEvents == [load(0, 0, .file, file)])
        #expect(machine.handle(answer(.success([1], source: .localFile), 0, 0, .file), at: .zero).withoutEvents
            == [.deliver(id(0), .success([1], source: .localFile), final: true)])
    }

    @Test func withoutACacheRequestsGoStraightToTheNetwork() {
        var machine = pipeline()
        #expect(machine.handle(.request(id(0), tile), at: .zero).withoutEvents == [load(0, 0, .network, tile)])
    }

    @Test func aNetworkAttemptCarriesTheDateItIsSentAtAndItsEventDoesNot() {
        var machine = pipeline()
        let actions = machine.handle(.request(id(0), tile), at: .seconds(90))
        #expect(actions == [load(0, 0, .network, tile, at: .seconds(90))])
        guard case .load(let order) = actions.first else { return }
        #expect(order.resource.issued == HTTPDate(secondsSince1970: clock.start.secondsSince1970 + 90))
        let delivered = machine.handle(answer(.success([1], source: .network), 0, 0, .network), at: .seconds(91))
        #expect(delivered.first == .emit(.resourceRequest(ResourceRequest(dataSource: .network, request: tile, response: .success([1], source: .network),
                                                                          cancelled: false)), begin: .seconds(90)))
    }

    /// A requester that sends no events (a region download) gets the same answers and loads, with
    /// no resource-request event made for any of them.
    @Test func aPipelineThatReportsNoRequestsMakesNoEvents() {
        var configuration = RequestPipeline.Configuration(maximumRetries: 0)
        configuration.reportsRequests = false
        var quiet = RequestPipeline(configuration: configuration)
        var loud = RequestPipeline(configuration: .init(maximumRetries: 0))
        let inputs: [RequestPipeline.Input] = [.request(id(0), tile), .request(id(1), tile), answer(.success([1], source: .network), 0, 0, .network),
                                               answer(.failure(.server, "500", source: .network), 1, 1, .network), .request(id(2), tile), .cancel(id(2))]
        var events = 0
        for input in inputs {
            let (heard, said) = (quiet.handle(input, at: .zero), loud.handle(input, at: .zero))
            #expect(heard == said.withoutEvents, "\(input)")
            events += said.count - heard.count
        }
        #expect(events == 3, "the answer, the failure and the cancellation each have an event")
    }

    @Test func aUsableCachedCopyIsDeliveredThenRevalidatedAtLowPriority() {
        var machine = pipeline(cache: true)
        #expect(machine.handle(.request(id(0), tile), at: .zero).withoutEvents == [load(0, 0, .cache, tile)])
        var cached = Response.success([7], source: .cache)
        cached.etag = "\"a\""
        cached.expires = HTTPDate(secondsSince1970: clock.start.secondsSince1970 - 10)
        var revalidation = tile
        revalidation.priority = .low
        revalidation.prior = Resource.Prior(expires: cached.expires, etag: "\"a\"", data: [7])
        #expect(machine.handle(answer(cached, 0, 0, .cache), at: .zero).withoutEvents == [
            .deliver(id(0), cached, final: false),
            load(0, 1, .network, revalidation),
        ])
        // The copy was delivered: a 304 only says so, and refreshes the cache entry, stamped with its time of use.
        let notModified = Response(notModified: true, source: .network)
        var refreshed = revalidation
        refreshed.issued = clock.date(at: .zero)
        #expect(machine.handle(answer(notModified, 0, 1, .network), at: .zero).withoutEvents
            == [.refreshCache(refreshed, notModified), .deliver(id(0), notModified, final: true)])
    }

    @Test func anExpiredMustRevalidateCopyIsNotDeliveredButSentAsPrior() {
        var machine = pipeline(cache: true)
        _ = machine.handle(.request(id(0), tile), at: .zero)
        var cached = Response.success([7], source: .cache)
        cached.mustRevalidate = true
        cached.modified = HTTPDate(secondsSince1970: 5)
        cached.expires = HTTPDate(secondsSince1970: clock.start.secondsSince1970 - 1)
        let actions = machine.handle(answer(cached, 0, 0, .cache), at: .zero).withoutEvents
        #expect(actions.count == 1)
        guard case .load(let order) = actions.first, order.backend == .network else { Issue.record("expected a network load"); return }
        #expect(order.resource.prior?.modified == HTTPDate(secondsSince1970: 5) && order.resource.priority == .regular)
        // A 304 then delivers the prior data as fresh.
        let delivered = machine.handle(answer(Response(notModified: true, source: .network), 0, 1, .network), at: .zero).withoutEvents
            .compactMap { action -> Response? in
                if case .deliver(_, let response, _) = action { return response }
                return nil
            }
        #expect(delivered == [Response(data: [7], source: .network)])
    }

    @Test func networkResponsesAreStoredBeforeTheyAreDelivered() {
        var machine = pipeline(cache: true)
        _ = machine.handle(.request(id(0), tile), at: .zero)
        _ = machine.handle(answer(.failure(.notFound, "miss", source: .cache), 0, 0, .cache), at: .zero)
        let fresh = Response.success([1, 2], source: .network)
        var stored = tile
        stored.issued = clock.date(at: .zero)
        #expect(machine.handle(answer(fresh, 0, 1, .network), at: .zero).withoutEvents == [.store(stored, fresh), .deliver(id(0), fresh, final: true)])
    }

    /// The server's compressed stream goes to the store and the map; the resource-request event,
    /// which a trace keeps, carries the answer without it.
    @Test func theServersStreamIsStoredButNotKeptInTheEvent() {
        var machine = pipeline(cache: true)
        _ = machine.handle(.request(id(0), tile), at: .zero)
        _ = machine.handle(answer(.failure(.notFound, "miss", source: .cache), 0, 0, .cache), at: .zero)
        var fresh = Response.success(Array(repeating: 7, count: 100), source: .network)
        fresh.zlibData = ZlibCodec.deflate(Array(repeating: 7, count: 100))
        #expect(fresh.zlibData != nil)
        let actions = machine.handle(answer(fresh, 0, 1, .network), at: .zero)
        var stored = tile
        stored.issued = clock.date(at: .zero)
        #expect(actions.withoutEvents == [.store(stored, fresh), .deliver(id(0), fresh, final: true)])
        let events = actions.compactMap { action -> ResourceRequest? in
            if case .emit(.resourceRequest(let request), _) = action { request } else { nil }
        }
        #expect(events.count == 1 && events.first?.response?.data == fresh.data && events.first?.response?.zlibData == nil)
    }

    /// MapLibre stores a tile not found (404) as no content, and so reads it back, as a 204; a
    /// browser's map (GL JS) takes a 204 otherwise, so with its cache the 404 is not stored.
    @Test(arguments: [false, true])
    func aTileNotFoundIsStoredAsNoContentUnlessABrowserTellsThemApart(browser: Bool) {
        var configuration = RequestPipeline.Configuration(maximumConcurrentRequests: 20, usesCache: true)
        configuration.usesBrowserCache = browser
        var machine = RequestPipeline(configuration: configuration)
        _ = machine.handle(.request(id(0), tile), at: .zero)
        _ = machine.handle(answer(.failure(.notFound, "miss", source: .cache), 0, 0, .cache), at: .zero)
        var missing = Response(noContent: true, source: .network)
        missing.notFound = true
        var stored = tile
        stored.issued = clock.date(at: .zero)
        let actions = machine.handle(answer(missing, 0, 1, .network), at: .zero).withoutEvents
        #expect(actions == (browser ? [] : [.store(stored, missing)]) + [.deliver(id(0), missing, final: true)])
    }

    @Test(arguments: [
        (Response.Failure.Reason.server, [1, 1, 1, 2, 4, 8]),
        (.connection, [1, 2, 4, 8, 16]),
    ])
    func retriesFollowTheSchedule(reason: Response.Failure.Reason, seconds: [Int]) {
        var machine = pipeline()
        _ = machine.handle(.request(id(0), tile), at: .zero)
        var now = SimTime.zero
        for (n, expected) in seconds.enumerated() {
            let actions = machine.handle(answer(.failure(reason, "boom", source: .network), 0, n, .network), at: now).withoutEvents
            #expect(actions.contains(.scheduleTimer(id(0), at: now + .seconds(Double(expected)))), "failure \(n + 1)")
            #expect(actions.contains { if case .deliver(_, _, false) = $0 { true } else { false } })
            now = now + .seconds(Double(expected))
            #expect(machine.handle(.timer(id(0)), at: now).withoutEvents == [load(0, n + 1, .network, tile, at: now)])
        }
    }

    @Test func rateLimitsWaitForRetryAfterOrFiveSeconds() {
        var machine = pipeline()
        let now = SimTime.seconds(10)
        let limited = Response.Failure(reason: .rateLimit, message: "429", retryAfter: HTTPDate(secondsSince1970: clock.start.secondsSince1970 + 42))
        #expect(machine.retryDelay(for: limited, failures: 1, at: now) == .seconds(32))
        #expect(machine.retryDelay(for: .init(reason: .rateLimit, message: "429"), failures: 1, at: now) == .seconds(5))
        #expect(machine.retryDelay(for: .init(reason: .notFound, message: "404"), failures: 1, at: now) == nil)
        #expect(machine.retryDelay(for: .init(reason: .other, message: "418"), failures: 1, at: now) == nil)
        _ = machine.handle(.request(id(0), tile), at: .zero)
        #expect(machine.handle(answer(.failure(.notFound, "gone", source: .network), 0, 0, .network), at: .zero).withoutEvents
            == [.deliver(id(0), .failure(.notFound, "gone", source: .network), final: true)])
    }

    @Test func responsesThatArriveExpiredAreRefreshedNoSoonerThanThirtySeconds() {
        var machine = pipeline()
        _ = machine.handle(.request(id(0), tile), at: .zero)
        var stale = Response.success([1], source: .network)
        stale.expires = HTTPDate(secondsSince1970: clock.start.secondsSince1970 - 3600)
        #expect(machine.handle(answer(stale, 0, 0, .network), at: .seconds(2)).withoutEvents.last == .scheduleTimer(id(0), at: .seconds(32)))
        _ = machine.handle(.request(id(1), tile), at: .zero)
        var fresh = Response.success([1], source: .network)
        fresh.expires = HTTPDate(secondsSince1970: clock.start.secondsSince1970 + 600)
        #expect(machine.handle(answer(fresh, 1, 1, .network), at: .zero).withoutEvents.last == .scheduleTimer(id(1), at: .seconds(600)))
    }

    /// A server's `max-age` or `Retry-After` beyond what the clock counts puts the refresh or the
    /// retry at the end of time, not at a wrapped time (or a trap).
    @Test func anExpiryOrRetryPastTheEndOfTimeWaitsUntilTheEnd() {
        var machine = pipeline()
        _ = machine.handle(.request(id(0), tile), at: .zero)
        var forever = Response.success([1], source: .network)
        forever.expires = HTTPDate(secondsSince1970: .max)
        #expect(machine.handle(answer(forever, 0, 0, .network), at: .seconds(2)).withoutEvents.last == .scheduleTimer(id(0), at: .max))
        _ = machine.handle(.request(id(1), tile), at: .zero)
        var past = Response.success([1], source: .network)
        past.expires = HTTPDate(secondsSince1970: .min)
        #expect(machine.handle(answer(past, 1, 1, .network), at: .seconds(2)).withoutEvents.last == .scheduleTimer(id(1), at: .seconds(32)))
        let never = Response.Failure(reason: .rateLimit, message: "429", retryAfter: HTTPDate(secondsSince1970: .max))
        #expect(machine.retryDelay(for: never, failures: 1, at: .seconds(10)) == .max)
        let long = Response.Failure(reason: .rateLimit, message: "429", retryAfter: HTTPDate(secondsSince1970: .min))
        #expect(machine.retryDelay(for: long, failures: 1, at: .seconds(10)) == .zero)
    }

    @Test func atMostTheCapIsInFlightRegularBeforeLowFirstInFirstOut() {
        var machine = pipeline(cap: 2)
        var low = tile
        low.priority = .low
        var started: [RequestPipeline.Action] = []
        for (n, resource) in [tile, tile, low, tile, tile].enumerated() { started += machine.handle(.request(id(n), resource), at: .zero) }
        #expect(started.withoutEvents.count == 2)
        #expect(machine.activeNetworkRequests == 2 && machine.queuedRequests == 3)
        #expect(machine.handle(answer(.success([], source: .network), 0, 0, .network), at: .zero).withoutEvents.last == load(3, 2, .network, tile))
        #expect(machine.handle(answer(.success([], source: .network), 1, 1, .network), at: .zero).withoutEvents.last == load(4, 3, .network, tile))
        #expect(machine.handle(answer(.success([], source: .network), 3, 2, .network), at: .zero).withoutEvents.last == load(2, 4, .network, low))
    }

    @Test func cancellingFreesTheSlotAndDropsQueuedRequests() {
        var machine = pipeline(cap: 1)
        for n in 0..<3 { _ = machine.handle(.request(id(n), tile), at: .zero) }
        #expect(machine.handle(.cancel(id(1)), at: .zero).withoutEvents.isEmpty && machine.queuedRequests == 1)
        #expect(machine.handle(.cancel(id(0)), at: .zero).withoutEvents == [.cancelLoad(attempt(0)), load(2, 1, .network, tile)])
    }

    @Test func cancellingAFileReadCancelsItsLoad() {
        var machine = pipeline()
        let file = Resource(url: "file:///s/tiles/0/0/0.pbf", kind: .tile)
        _ = machine.handle(.request(id(0), file), at: .zero)
        #expect(machine.handle(.cancel(id(0)), at: .zero).withoutEvents == [.cancelLoad(attempt(0))], "its answer must never come")
    }

    /// Every attempt the pipeline gives up it cancels, and the loop never feeds a cancelled attempt's
    /// answer: an answer for a request the pipeline no longer has is impossible, and stops the
    /// process naming the request (`DriveLoopTests` and `RobustnessTests` show the loop never feeds one).
    @Test func anAnswerOfACancelledAttemptIsImpossible() async {
        await #expect(processExitsWith: .failure) {
            var machine = RequestPipeline(configuration: .init(maximumConcurrentRequests: 1))
            let tile = Resource(url: "https://h/t.pbf", kind: .tile)
            _ = machine.handle(.request(RequestID(value: 0), tile), at: .zero)
            _ = machine.handle(.cancel(RequestID(value: 0)), at: .zero)
            let order = LoadOrder(request: RequestID(value: 0), attempt: AttemptID(value: 0), backend: .network, resource: tile)
            _ = machine.handle(.answer(LoadAnswer(order, .success([], source: .network))), at: .zero)
        }
    }

    @Test func offlineRequestsFailAtOnceAndOnlyConnectionFailuresRestart() {
        var machine = pipeline()
        _ = machine.handle(.request(id(0), tile), at: .zero)
        _ = machine.handle(.request(id(1), tile), at: .zero)
        _ = machine.handle(answer(.failure(.server, "500", source: .network), 0, 0, .network), at: .zero)
        _ = machine.handle(answer(.failure(.connection, "reset", source: .network), 1, 1, .network), at: .zero)
        #expect(machine.handle(.setOffline(true), at: .zero).isEmpty)
        var low = tile
        low.priority = .low
        let offline = (machine.handle(.request(id(2), low), at: .zero) + machine.handle(.request(id(3), tile), at: .zero)).withoutEvents
        #expect(offline.count == 2)
        #expect(offline.allSatisfy { if case .deliver(_, let r, false) = $0 { r.error?.reason == .inOfflineMode } else { false } })
        let now = SimTime.milliseconds(10)
        #expect(machine.handle(.setOffline(false), at: now).withoutEvents == [
            load(1, 2, .network, tile, at: now), load(3, 3, .network, tile, at: now), load(2, 4, .network, low, at: now),
        ])
    }

    @Test func theStartGoesOfflineAndSchedulesEveryOfflineWindow() {
        var machine = RequestPipeline(configuration: .init(offlineWindows: [SimTime.zero..<SimTime.seconds(2), SimTime.seconds(5)..<SimTime.seconds(6), SimTime.seconds(9)..<SimTime.seconds(9)]))
        #expect(machine.handle(.start, at: .zero) == [
            .scheduleConnectivity(offline: false, at: .seconds(2)),
            .scheduleConnectivity(offline: true, at: .seconds(5)), .scheduleConnectivity(offline: false, at: .seconds(6)),
        ])
        #expect(machine.isOffline, "a window from zero is offline at once; an empty one is no window")
        var starting = RequestPipeline(configuration: .init(startsOffline: true))
        #expect(starting.handle(.start, at: .zero).isEmpty && starting.isOffline)
    }

    @Test func cacheOnlyRequestsThatMissSayNotFound() {
        var machine = pipeline(cache: true)
        var cacheOnly = tile
        cacheOnly.loadingMethod = .cache
        _ = machine.handle(.request(id(0), cacheOnly), at: .zero)
        let actions = machine.handle(answer(.failure(.notFound, "miss", source: .cache), 0, 0, .cache), at: .zero).withoutEvents
        #expect(actions.count == 1)
        guard case .deliver(_, let response, true) = actions.first else { Issue.record("expected a final cache delivery"); return }
        #expect(response.error?.reason == .notFound)
    }

    @Test func eachDeliveryAndCancellationIsReportedWithTheRequestAsSentAndItsSpan() {
        var machine = pipeline(cache: true)
        _ = machine.handle(.request(id(0), tile), at: .milliseconds(5))
        var cached = Response.success([7], source: .cache)
        cached.etag = "\"a\""
        let revalidation = machine.handle(answer(cached, 0, 0, .cache), at: .milliseconds(5))
        #expect(revalidation.first == .emit(.resourceRequest(ResourceRequest(dataSource: .database, request: tile, response: cached, cancelled: false)),
                                            begin: .milliseconds(5)))
        // The revalidation goes at low priority with the prior copy, and its event says so.
        guard case .load(let order) = revalidation.last, order.backend == .network else { Issue.record("expected a network load"); return }
        var sent = order.resource
        sent.issued = nil
        #expect(sent.priority == .low)
        let notModified = Response(notModified: true, source: .network)
        #expect(machine.handle(answer(notModified, 0, 1, .network), at: .milliseconds(80))
            .contains(.emit(.resourceRequest(ResourceRequest(dataSource: .network, request: sent, response: notModified, cancelled: false)), begin: .milliseconds(5))))
        // A cancelled request spans from when it was made; an answered one is not reported again.
        _ = machine.handle(.request(id(1), tile), at: .milliseconds(90))
        #expect(machine.handle(.cancel(id(1)), at: .milliseconds(95)).last
            == .emit(.resourceRequest(ResourceRequest(dataSource: .resourceLoader, request: tile, response: nil, cancelled: true)), begin: .milliseconds(90)))
        #expect(machine.handle(.cancel(id(0)), at: .milliseconds(99)).isEmpty)
    }

    @Test func theDataSourceFollowsTheBackendAndTheScheme() {
        #expect(RequestPipeline.dataSource(.file, url: "asset://x") == .asset)
        #expect(RequestPipeline.dataSource(.file, url: "file:///x") == .fileSystem)
        #expect(RequestPipeline.dataSource(.cache, url: "https://h/x") == .database)
        #expect(RequestPipeline.dataSource(.network, url: "https://h/x") == .network)
    }

    @Test func pastTheRetryLimitAFailureIsFinalOfflineToo() {
        var machine = RequestPipeline(configuration: .init(maximumRetries: 1))
        _ = machine.handle(.request(id(0), tile), at: .zero)
        #expect(machine.handle(answer(.failure(.server, "500", source: .network), 0, 0, .network), at: .zero).withoutEvents
            .contains { if case .deliver(_, _, false) = $0 { true } else { false } })
        _ = machine.handle(.timer(id(0)), at: .seconds(1))
        let second = machine.handle(answer(.failure(.server, "500", source: .network), 0, 1, .network), at: .seconds(1)).withoutEvents
        #expect(second.count == 1 && second.allSatisfy { if case .deliver(_, _, true) = $0 { true } else { false } })
        var offline = RequestPipeline(configuration: .init(maximumRetries: 0))
        _ = offline.handle(.setOffline(true), at: .zero)
        #expect(offline.handle(.request(id(1), tile), at: .zero).withoutEvents
            == [.deliver(id(1), .failure(.inOfflineMode, "offline: the network is off, https://h/t.pbf was not fetched", source: .network), final: true)])
        #expect(offline.handle(.setOffline(false), at: .seconds(1)).isEmpty, "a final failure is not restarted on reconnect")
    }

    @Test func aVolatileResourceIsNeverWrittenToTheCache() {
        var machine = pipeline(cache: true)
        let volatile = Resource(url: "https://h/manifest.json", kind: .unknown, loadingMethod: .network, storagePolicy: .volatile)
        _ = machine.handle(.request(id(0), volatile), at: .zero)
        let actions = machine.handle(answer(.success([1, 2], source: .network), 0, 0, .network), at: .zero)
        #expect(actions.contains { if case .deliver = $0 { true } else { false } })
        #expect(!actions.contains { if case .store = $0 { true } else { false } })
        var permanent = pipeline(cache: true)
        _ = permanent.handle(.request(id(0), Resource(url: "https://h/a.json", kind: .unknown, loadingMethod: .network)), at: .zero)
        #expect(permanent.handle(answer(.success([1, 2], source: .network), 0, 0, .network), at: .zero)
            .contains { if case .store = $0 { true } else { false } }, "a permanent one is")
    }

    @Test func anAttemptWithNoAnswerByItsDeadlineFailsAsALostConnectionNamingItsURLAndIsRetried() {
        var machine = RequestPipeline(configuration: .init(requestTimeout: .seconds(1)))
        #expect(machine.handle(.request(id(0), tile), at: .zero).withoutEvents == [load(0, 0, .network, tile), .scheduleTimer(id(0), at: .seconds(1))])
        let timedOut = machine.handle(.timer(id(0)), at: .seconds(1))
        let failure = Response.failure(.connection, "no answer from https://h/t.pbf within 1 s", source: .network)
        #expect(timedOut.withoutEvents == [.cancelLoad(attempt(0)), .deliver(id(0), failure, final: false), .scheduleTimer(id(0), at: .seconds(2))])
        #expect(timedOut.contains(.emit(.resourceRequest(ResourceRequest(dataSource: .network, request: tile, response: failure, cancelled: false)), begin: .zero)))
        // The retry has a deadline of its own; an answer before it wins, and the stale timer does nothing.
        #expect(machine.handle(.timer(id(0)), at: .seconds(2)).withoutEvents == [load(0, 1, .network, tile, at: .seconds(2)), .scheduleTimer(id(0), at: .seconds(3))])
        #expect(machine.handle(answer(.success([1], source: .network), 0, 1, .network), at: .milliseconds(2_500)).withoutEvents
            == [.deliver(id(0), .success([1], source: .network), final: true)])
        #expect(machine.handle(.timer(id(0)), at: .seconds(3)).isEmpty)
        #expect(machine.activeNetworkRequests == 0)
    }

    @Test func withoutARequestTimeoutNoDeadlineIsScheduled() {
        var machine = pipeline()
        #expect(machine.handle(.request(id(0), tile), at: .zero).withoutEvents == [load(0, 0, .network, tile)])
        #expect(machine.handle(.timer(id(0)), at: .seconds(3600)).isEmpty, "a timer while loading without a deadline is ignored")
    }

    @Test func aTimedOutAttemptFreesItsSlotForTheNextQueuedRequest() {
        var machine = RequestPipeline(configuration: .init(maximumConcurrentRequests: 1, requestTimeout: .milliseconds(500)))
        _ = machine.handle(.request(id(0), tile), at: .zero)
        let other = Resource(url: "https://h/u.pbf", kind: .tile)
        #expect(machine.handle(.request(id(1), other), at: .zero).withoutEvents.isEmpty, "queued behind the first")
        let actions = machine.handle(.timer(id(0)), at: .milliseconds(500)).withoutEvents
        #expect(actions.contains(load(1, 1, .network, other, at: .milliseconds(500))))
        #expect(machine.activeNetworkRequests == 1)
    }

    @Test func aRangeAnsweredShortIsAFailureNamingWhereTheDataEndsButAReadFromTheStartIsNot() {
        let read = Resource.archiveRange("https://h/a.pmtiles", 100...199)
        let short = RequestPipeline.checkingRange(of: .success(Array(repeating: 1, count: 40), source: .network), for: read)
        #expect(short.error?.reason == .other)
        #expect(short.error?.message == "https://h/a.pmtiles is truncated: bytes 100–199 were asked for, but it ends at byte 140")
        let whole = Response.success(Array(repeating: 1, count: 100), source: .network)
        #expect(RequestPipeline.checkingRange(of: whole, for: read) == whole)
        let header = Response.success([1, 2, 3], source: .localFile)
        #expect(RequestPipeline.checkingRange(of: header, for: Resource.archiveRange("file:///a.pmtiles", 0...126)) == header,
                "a header read asks for up to its bytes: a shorter file says itself what it is")
        #expect(Resource.archiveRange("https://h/a.pmtiles", 100...199, tileData: true).kind == .tile)
        #expect(read.kind == .source)
    }

    /// A pipeline behind a browser's HTTP cache.
    private func browser(retries: Int? = nil) -> RequestPipeline.Configuration {
        var configuration = RequestPipeline.Configuration(maximumRetries: retries)
        configuration.usesBrowserCache = true
        return configuration
    }

    @Test func aBrowsersCacheSendsAURLOnceWhileItsAnswerIsOnItsWayOrFresh() {
        var machine = RequestPipeline(configuration: browser())
        #expect(machine.handle(.request(id(0), tile), at: .zero).withoutEvents == [load(0, 0, .network, tile)])
        #expect(machine.handle(.request(id(1), tile), at: .zero).isEmpty, "the same URL waits for the answer on its way")
        var fresh = Response.success([1], source: .network)
        fresh.expires = HTTPDate(secondsSince1970: clock.start.secondsSince1970 + 3600)
        let answered = machine.handle(answer(fresh, 0, 0, .network), at: .milliseconds(20))
        var cached = fresh
        cached.source = .cache
        #expect(answered.withoutEvents == [.deliver(id(0), fresh, final: true), .deliver(id(1), cached, final: true), .scheduleTimer(id(0), at: .milliseconds(3_600_020))])
        #expect(answered.contains(.emit(.resourceRequest(ResourceRequest(dataSource: .database, request: tile, response: cached, cancelled: false)), begin: .zero)))
        #expect(machine.handle(.request(id(2), tile), at: .seconds(60)).withoutEvents == [.deliver(id(2), cached, final: true)], "fresh: from memory")
        #expect(machine.handle(.request(id(3), tile), at: .seconds(3_601)).withoutEvents == [load(3, 1, .network, tile, at: .seconds(3_601))], "stale: sent again")
    }

    @Test func anAnswerTheBrowserCannotKeepSendsTheWaitingRequestItself() {
        var machine = RequestPipeline(configuration: browser(retries: 0))
        _ = machine.handle(.request(id(0), tile), at: .zero)
        _ = machine.handle(.request(id(1), tile), at: .zero)
        let failed = machine.handle(answer(.failure(.server, "HTTP 503", source: .network), 0, 0, .network), at: .milliseconds(10)).withoutEvents
        #expect(failed == [.deliver(id(0), .failure(.server, "HTTP 503", source: .network), final: true), load(1, 1, .network, tile, at: .milliseconds(10))])
        // A waiting request whose leader is cancelled goes out in its place.
        var other = RequestPipeline(configuration: browser())
        _ = other.handle(.request(id(0), tile), at: .zero)
        _ = other.handle(.request(id(1), tile), at: .zero)
        #expect(other.handle(.cancel(id(0)), at: .milliseconds(5)).withoutEvents == [.cancelLoad(attempt(0)), load(1, 1, .network, tile, at: .milliseconds(5))])
    }

    @Test func aBrowserOpensSixConnectionsToAHostAndSixteenImageRequests() {
        var configuration = RequestPipeline.Configuration(maximumConcurrentRequests: 256)
        configuration.maximumRequestsPerHost = 6
        configuration.maximumImageRequests = 16
        var machine = RequestPipeline(configuration: configuration)
        let loads = (0..<8).map { n in machine.handle(.request(id(n), Resource(url: "https://a/\(n).pbf", kind: .tile)), at: .zero).withoutEvents }
        #expect(loads.prefix(6).allSatisfy { $0.count == 1 } && loads.suffix(2).allSatisfy(\.isEmpty), "six at once to one host")
        #expect(machine.handle(.request(id(8), Resource(url: "https://b/x.pbf", kind: .tile)), at: .zero).withoutEvents.count == 1, "another host has its own six")
        let next = machine.handle(answer(.success([1], source: .network), 0, 0, .network), at: .milliseconds(5)).withoutEvents
        #expect(next.contains { if case .load(let order) = $0 { order.request == id(6) } else { false } }, "a free connection takes the next in line")
        // Images: 16 in flight across hosts.
        var images = RequestPipeline(configuration: configuration)
        let raster = (0..<20).map { n in
            images.handle(.request(id(n), Resource.tile(TileURLTemplate("https://h\(n % 4)/{z}/{x}/{y}.png"), id: CanonicalTileID(z: 1, x: n % 2, y: n / 2 % 2), pixelRatio: 1, image: true)),
                          at: .zero).withoutEvents
        }
        #expect(raster.filter { !$0.isEmpty }.count == 16)
    }

    @Test func aHostAtItsLimitHoldsBackNoOtherHostAndOrderIsKept() {
        var configuration = RequestPipeline.Configuration(maximumConcurrentRequests: 256)
        configuration.maximumRequestsPerHost = 1
        var machine = RequestPipeline(configuration: configuration)
        // a0 goes; a1, a2 wait behind it; b0 and c0 go at once; b1 waits.
        for (n, url) in ["https://a/0", "https://a/1", "https://a/2", "https://b/0", "https://b/1", "https://c/0"].enumerated() {
            _ = machine.handle(.request(id(n), Resource(url: url, kind: .tile)), at: .zero)
        }
        #expect(machine.activeNetworkRequests == 3 && machine.queuedRequests == 3)
        func started(_ actions: [RequestPipeline.Action]) -> [Int] {
            actions.compactMap { if case .load(let order) = $0 { order.request.value } else { nil } }
        }
        // b's answer starts b1, a's then a1 then a2: first in first out within each host.
        #expect(started(machine.handle(answer(.success([], source: .network), 3, 1, .network), at: .zero)) == [4])
        #expect(started(machine.handle(answer(.success([], source: .network), 0, 0, .network), at: .zero)) == [1])
        _ = machine.handle(.cancel(id(1)), at: .zero)
        #expect(machine.queuedRequests == 0 && machine.activeNetworkRequests == 3, "a2 took the freed connection")
    }

    @Test func theRunGivingUpNamesEveryRequestStillUnansweredAndStopsItsLoad() {
        var machine = pipeline(cap: 1)
        _ = machine.handle(.request(id(0), tile), at: .zero)
        _ = machine.handle(.request(id(1), Resource(url: "https://h/other.pbf", kind: .tile)), at: .zero)
        let actions = machine.handle(.giveUp("no answer within the 3 s --timeout"), at: .seconds(3))
        #expect(actions.withoutEvents == [.cancelLoad(attempt(0))])
        let events = actions.compactMap { action -> (ResourceRequest, SimTime)? in
            if case .emit(.resourceRequest(let request), let begin) = action { (request, begin) } else { nil }
        }
        #expect(events.map(\.0.request.url) == ["https://h/t.pbf", "https://h/other.pbf"])
        #expect(events.allSatisfy { $0.0.cancelled && $0.0.response?.error?.reason == .connection })
        #expect(events.first?.0.response?.error?.message == "no answer within the 3 s --timeout: https://h/t.pbf")
        #expect(machine.activeNetworkRequests == 0 && machine.queuedRequests == 0)
    }

    @Test func aMapboxRequestWithoutATokenFailsAtOnceAndIsNeverRetried() {
        var configuration = RequestPipeline.Configuration()
        configuration.tokenlessMapboxAPI = MapboxURL()
        var machine = RequestPipeline(configuration: configuration)
        let style = Resource(url: MapboxURL().style("mapbox://styles/mapbox/streets-v12"), kind: .style)
        let actions = machine.handle(.request(id(0), style), at: .zero)
        #expect(actions.withoutEvents == [.deliver(id(0), .failure(.other, "mapbox://styles/mapbox/streets-v12 needs a Mapbox access token: set MAPBOX_ACCESS_TOKEN or give --access-token",
                                                                   source: .network), final: true)])
        #expect(machine.activeNetworkRequests == 0)
        // A model on the Models API too (a style read from the cache names one).
        let model = Resource(url: MapboxURL().model("mapbox://models/mapsim/tower.glb"), kind: .model)
        #expect(machine.handle(.request(id(3), model), at: .zero).withoutEvents == [
            .deliver(id(3), .failure(.other, "mapbox://models/mapsim/tower.glb needs a Mapbox access token: set MAPBOX_ACCESS_TOKEN or give --access-token", source: .network), final: true)])
        // With a token in the URL, or another host, the request goes out.
        #expect(machine.handle(.request(id(1), Resource(url: style.url + "?access_token=pk.x", kind: .style)), at: .zero).withoutEvents.count == 1)
        #expect(machine.handle(.request(id(2), tile), at: .zero).withoutEvents.count == 1)
    }
}

extension [RequestPipeline.Action] {
    /// The actions without the resource-request events, for tests of what the pipeline does.
    var withoutEvents: [RequestPipeline.Action] {
        filter { if case .emit = $0 { false } else { true } }
    }
}
