import Synchronization
import Testing
import MapSimTesting
@testable import MapSim
import MapSimJSON
import MapSimStyle

@Suite("MapEvent.JSON")
struct MapEventJSONTests {
    private func line(_ payload: MapEventPayload, begin: Int64 = 5, end: Int64 = 9) -> String {
        MapEvent(begin: SimTime(microseconds: begin), end: SimTime(microseconds: end), payload: payload).jsonLine
    }

    @Test func usesTheMapboxNamesAndKeys() {
        let tile = CanonicalTileID(z: 1, x: 0, y: 1)
        #expect(line(.mapLoaded) == #"{"type":"map-loaded","begin":5,"end":9,"data":{}}"#)
        #expect(line(.mapLoadingError(MapLoadingError(type: .tile, message: "m", sourceID: "s", tileID: tile)))
            == #"{"type":"map-loading-error","begin":5,"end":9,"data":{"type":"tile","message":"m","source-id":"s","tile-id":{"z":1,"x":0,"y":1}}}"#)
        #expect(line(.sourceDataLoaded(SourceDataLoaded(id: "s", type: .tile, loaded: true, tileID: tile)))
            == #"{"type":"source-data-loaded","begin":5,"end":9,"data":{"id":"s","type":"tile","loaded":true,"tile-id":{"z":1,"x":0,"y":1}}}"#)
        #expect(line(.renderFrameFinished(RenderFrameFinished(renderMode: .full, needsRepaint: false, placementChanged: true)))
            == #"{"type":"render-frame-finished","begin":5,"end":9,"data":{"render-mode":"full","needs-repaint":false,"placement-changed":true}}"#)
        #expect(line(.styleDataLoaded(StyleDataLoaded(type: .sources))).contains(#""data":{"type":"sources"}"#))
        #expect(line(.sourceAdded(id: "x")).contains(#""type":"source-added""#) && line(.sourceAdded(id: "x")).contains(#""data":{"id":"x"}"#))
        #expect(line(.styleImageMissing(id: "i")).contains(#""type":"style-image-missing","begin":5,"end":9,"data":{"id":"i"}"#))
    }

    @Test func resourceRequestCarriesRequestResponseAndCancellation() {
        var response = Response.failure(.notFound, "gone", source: .network)
        response.expires = HTTPDate(secondsSince1970: 0)
        response.etag = "\"e\""
        let request = Resource(url: "https://h/t.pbf", kind: .tile, priority: .low)
        #expect(line(.resourceRequest(ResourceRequest(dataSource: .network, request: request, response: response, cancelled: false)))
            == #"{"type":"resource-request","begin":5,"end":9,"data":{"data-source":"network","request":{"url":"https://h/t.pbf","kind":"tile","priority":"low","loading-method":["cache","network"]},"response":{"no-content":false,"not-modified":false,"must-revalidate":false,"source":"network","size":0,"expires":"Thu, 01 Jan 1970 00:00:00 GMT","etag":"\"e\"","error":{"reason":"not-found","message":"gone"}},"cancelled":false}}"#)
        #expect(line(.resourceRequest(ResourceRequest(dataSource: .fileSystem, request: request, response: nil, cancelled: true)))
            .hasSuffix(#""loading-method":["cache","network"]},"cancelled":true}}"#))
    }

    @Test func everyEventTypeHasItsName() {
        #expect(MapEventType.allCases.count == 35)
        #expect(Set(MapEventType.allCases.map(\.rawValue)).count == 35)
        #expect(MapEventType.allCases.filter { $0.rawValue.hasPrefix("style-") }.map(\.rawValue)
            == ["style-data-loaded", "style-loaded", "style-image-missing", "style-image-remove-unused", "style-feature-ignored", "style-warning"])
        #expect(MapEventType.allCases.filter { $0.rawValue.hasPrefix("live-") }.map(\.rawValue)
            == ["live-state-changed", "live-subscribed", "live-unsubscribed", "live-subscription-error", "live-unsubscription-error", "live-error", "live-update",
                "live-locations-updated"])
        #expect(MapEventType.allCases.filter { $0.rawValue.hasPrefix("dynamic-entity-") }.count == 5)
    }

    @Test func liveLocationsUpdatedNamesTheDomainAndTheLocationsAndReadsBack() throws {
        let event = LiveEvent.locationsUpdated(domain: "occupancy", ids: ["room-101", "7"])
        #expect(MapEvent(begin: .zero, end: .zero, payload: .live(event)).jsonLine
                == #"{"type":"live-locations-updated","begin":0,"end":0,"data":{"domain":"occupancy","ids":["room-101","7"]}}"#)
        #expect(try LiveEvent(type: .liveLocationsUpdated, data: event.data) == event)
        #expect(throws: EventPayloadError.self) {
            try LiveEvent(type: .liveLocationsUpdated, data: JSONObject([("domain", .string("occupancy")), ("ids", .array([.number(7)]))]))
        }
    }

    @Test func offlineRegionEventsCarryMapLibresFieldsAndReadBack() throws {
        let status = OfflineRegionStatus(downloadState: .active, completedResourceCount: 3, completedResourceSize: 300, completedTileCount: 2,
                                         completedTileSize: 200, requiredTileCount: 10, requiredResourceCount: 14, requiredResourceCountIsPrecise: false)
        #expect(MapEvent(begin: .zero, end: .zero, payload: .offlineRegion(.statusChanged(region: 7, status))).jsonLine == """
            {"type":"offline-region-status-changed","begin":0,"end":0,"data":{"region-id":7,"download-state":"active","completed-resource-count":3,\
            "completed-resource-size":300,"completed-tile-count":2,"completed-tile-size":200,"required-tile-count":10,"required-resource-count":14,\
            "required-resource-count-is-precise":false,"complete":false}}
            """)
        let events: [OfflineRegionEvent] = [.statusChanged(region: 7, status),
                                            .responseError(region: 7, url: "https://h/a.png", kind: .image, .init(reason: .server, message: "HTTP 500")),
                                            .tileLimitExceeded(region: 7, limit: 6_000)]
        for event in events {
            let line = MapEvent(begin: .zero, end: .zero, payload: .offlineRegion(event)).jsonLine
            #expect(line.hasPrefix("{\"type\":\"\(event.type.rawValue)\""))
            let data = try #require(try JSONParser.parse(line)["data"]?.objectValue)
            #expect(try OfflineRegionEvent(type: event.type, data: data) == event)
        }
        #expect(throws: EventPayloadError.self) { try OfflineRegionEvent(type: .offlineRegionTileLimitExceeded, data: JSONObject([("region-id", .number(1))])) }
    }

    @Test func theFastJSONLineIsByteForByteTheJSONObject() {
        var response = Response.success([1, 2, 3], source: .network)
        response.etag = "\"e\\1\""
        response.expires = HTTPDate(secondsSince1970: 1_767_225_600)
        response.modified = HTTPDate(secondsSince1970: 1_000)
        let failure = Response.failure(.rateLimit, "slow down\n", source: .network)
        let tile = CanonicalTileID(z: 3, x: 2, y: 1)
        let payloads: [MapEventPayload] = [
            .mapLoaded, .mapIdle, .styleLoaded, .renderFrameStarted, .cameraChanged,
            .mapLoadingError(MapLoadingError(type: .tile, message: "bad \"tile\"", sourceID: "s", tileID: tile)),
            .mapLoadingError(MapLoadingError(type: .style, message: "é")),
            .styleDataLoaded(StyleDataLoaded(type: .sprite)), .styleImageMissing(id: "i"), .styleImageRemoveUnused(id: "j"),
            .sourceAdded(id: "a"), .sourceRemoved(id: "b"),
            .sourceDataLoaded(SourceDataLoaded(id: "v", type: .tile, loaded: false, tileID: tile)), .sourceDataLoaded(SourceDataLoaded(id: "v", type: .metadata)),
            .sourceDataLoaded(SourceDataLoaded(id: "g", type: .metadata, dataID: "live-3")),
            .live(.stateChanged(.connecting, previous: .closed)), .live(.subscribed(criteria: "ds/#")),
            .live(.subscriptionError(criteria: "ds/+/+/+/+/+/x", message: "refused")), .live(.error(message: "lost")),
            .dynamicEntity(.observationReceived(trackID: "7", entityID: 2, observationID: 9)),
            .dynamicEntity(.observationPurged(trackID: "7", entityID: 2, observationID: 3, reason: .purgeAll)),
            .dynamicEntity(.entityPurged(trackID: "7", entityID: 2)),
            .content(.ready(site: "city", isOnlineData: false)),
            .content(.completeAll(site: "city", isSuccessful: false, isOnlineData: true, errors: ["tiles/0/0/0.pbf": "500", "manifest": "x"])),
            .dynamicEntity(.connectionStatusChanged(.connecting, previous: .connected, attempt: 3, error: "down")),
            .live(.update(LiveUpdateReceived(topic: "ds/v/b/f/r/l/occupancy", id: "l", timestamp: "2026-11-24T00:00:00Z", properties: ["b": "2", "a": "\"1\""]))),
            .renderFrameFinished(RenderFrameFinished(renderMode: .partial, needsRepaint: true, placementChanged: false)),
            .resourceRequest(ResourceRequest(dataSource: .database, request: .tile(TileURLTemplate("https://h/{z}/{x}/{y}"), id: tile, pixelRatio: 2),
                                             response: response, cancelled: false)),
            .resourceRequest(ResourceRequest(dataSource: .network, request: Resource.style("https://h/s.json").loading(from: .network),
                                             response: failure, cancelled: false)),
            .resourceRequest(ResourceRequest(dataSource: .resourceLoader, request: .glyphs(template: "g/{fontstack}/{range}", fontStack: ["A"], rangeStart: 0),
                                             response: nil, cancelled: true)),
            .resourceRequest(ResourceRequest(dataSource: .database, request: Resource.source("https://h/t.json").loading(from: .cache),
                                             response: nil, cancelled: true)),
        ]
        for (index, payload) in payloads.enumerated() {
            let event = MapEvent(begin: SimTime(microseconds: Int64(index) * 7 - 3), end: SimTime(microseconds: 1_000_000_000_000), payload: payload)
            var bytes: [UInt8] = Array("prefix ".utf8)
            event.appendJSONLine(to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "prefix " + JSONWriter.string(.object(event.jsonObject)), "\(payload)")
        }
    }
}

@Suite("EventDispatcher")
struct EventDispatcherTests {
    private let event = MapEvent(begin: .zero, end: .zero, payload: .sourceAdded(id: "a"))

    @Test func deliversInSubscriptionOrderUntilCancelled() {
        let dispatcher = EventDispatcher()
        let log = LockedLog()
        let first = dispatcher.subscribe { _ in log.append("first") }
        let second = dispatcher.subscribe(MapEvents.sourceAdded) { log.append("second:\($0.payload)") }
        let third = dispatcher.subscribe(MapEvents.mapIdle) { _ in log.append("never") }
        dispatcher.dispatch(event)
        first.cancel()
        dispatcher.dispatch(event)
        #expect(log.entries == ["first", "second:a", "second:a"])
        _ = (second, third)
    }

    @Test func releasingTheCancelableEndsTheSubscription() {
        let dispatcher = EventDispatcher()
        let log = LockedLog()
        do {
            let subscription = dispatcher.subscribe { _ in log.append("x") }
            dispatcher.dispatch(event)
            _ = subscription
        }
        dispatcher.dispatch(event)
        #expect(log.entries == ["x"])
    }

    @Test func streamsEventsAndFinishes() async {
        let dispatcher = EventDispatcher()
        let stream = dispatcher.stream()
        dispatcher.dispatch(event)
        dispatcher.dispatch(MapEvent(begin: .zero, end: .zero, payload: .mapIdle))
        dispatcher.finish()
        var types: [MapEventType] = []
        for await received in stream { types.append(received.type) }
        #expect(types == [.sourceAdded, .mapIdle])
    }
}

/// A thread-safe list of strings for observer tests.
final class LockedLog: Sendable {
    private let storage = Mutex<[String]>([])

    func append(_ entry: String) { storage.withLock { $0.append(entry) } }
    var entries: [String] { storage.withLock { $0 } }
}

/// What a load sums up from its events.
@Suite("LoadSummary")
struct LoadSummaryTests {
    @Test func anOfflineRunIsNeverSaidToBeAnsweredByTheNetwork() {
        var summary = LoadSummary()
        func record(_ url: String, _ dataSource: DataSource, _ response: Response?) {
            summary.record(MapEvent(begin: .zero, end: .zero, payload: .resourceRequest(ResourceRequest(
                dataSource: dataSource, request: .style(url), response: response, cancelled: response == nil))))
        }
        record("https://h/a", .network, .failure(.inOfflineMode, "offline", source: .network))
        record("https://h/b", .database, .success([1], source: .cache))
        #expect(summary.responsesBySource.map(\.source) == [.database])
        #expect(summary.total.requests == 2 && summary.total.failures == 1)
        // The failed request, given up, ends with a cancellation: still one request.
        record("https://h/a", .resourceLoader, nil)
        #expect(summary.total.requests == 2 && summary.total.cancelled == 0)
        // A failure that a retry mended is forgotten: a later cancellation is a request of its own.
        record("https://h/c", .network, .failure(.server, "500", source: .network))
        record("https://h/c", .network, .success([1], source: .network))
        record("https://h/c", .resourceLoader, nil)
        #expect(summary.total.requests == 5 && summary.total.cancelled == 1)
    }

    /// `mapsim serve` sums up days of requests: the same figures as a load's summary, and nothing
    /// kept of each request.
    @Test func aServersSummaryHasTheFiguresAndKeepsNothingOfEachRequest() {
        var full = LoadSummary()
        var server = LoadSummary.figuresOnly
        for index in 0..<5_000 {
            var response: Response = index % 5 == 0 ? .failure(.notFound, "HTTP 404", source: .network) : .success([UInt8](repeating: 1, count: index % 90), source: .network)
            if index % 7 == 0 { response.notModified = true }
            let event = MapEvent(begin: .milliseconds(Int64(index)), end: .milliseconds(Int64(index) + 3), payload: .resourceRequest(ResourceRequest(
                dataSource: .network, request: Resource(url: "https://h/\(index).pbf", kind: index % 3 == 0 ? .glyphs : .tile), response: response, cancelled: false)))
            full.record(event)
            server.record(event)
        }
        #expect(server.total == full.total && server.total.requests == 5_000 && server.total.failures == 1_000)
        #expect(server.traffic.map(\.kind) == full.traffic.map(\.kind) && server.traffic.map(\.traffic) == full.traffic.map(\.traffic))
        #expect(server.notModified == full.notModified && server.notModified > 0)
        #expect(server.responsesBySource.map(\.count) == full.responsesBySource.map(\.count))
        #expect(full.requests.count == 5_000 && server.requests.isEmpty)
    }

    @Test func aMissingImageOfAnImportIsSummedUpByItsNameAndImport() {
        // Mapbox scopes an import's image id with an invisible separator: the summary never shows it.
        var summary = LoadSummary()
        for id in ["pin", StyleScope(path: ["extras"]).qualify("pin"), StyleScope(path: ["extras", "landmarks"]).qualify("maki/park")] {
            summary.record(MapEvent(begin: .zero, end: .zero, payload: .styleImageMissing(id: id)))
        }
        #expect(summary.missingImages == ["pin", "pin (import extras)", "maki/park (import extras → landmarks)"])
        #expect(!JSONWriter.string(.object(summary.json())).contains("\\u001f") && !summary.missingImages.joined().contains("\u{1F}"))
    }
}
