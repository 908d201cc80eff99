import Foundation
import Synchronization
import Testing
import MapSim
import MapSimJSON
import MapSimStyle
import MapSimTesting
@testable import MapSimLive

/// The dynamic-entity source on the virtual clock: feed, filter, outages, the map.
@Suite("DynamicEntitySession")
struct DynamicEntitySessionTests {
    private static let feedPath = SampleStyle.stylesFolder + "/entities/vessels.jsonl"

    private final class Log: Sendable {
        private let recorded = Mutex<[MapEvent]>([])
        var observer: @Sendable (MapEvent) -> Void { { event in self.recorded.withLock { $0.append(event) } } }
        var events: [DynamicEntityEvent] { recorded.withLock { $0.compactMap { MapEvents.dynamicEntity.payload(in: $0.payload) } } }
        var times: [SimTime] { recorded.withLock { $0.map(\.end) } }
    }

    /// A feed of `count` observations of `tracks` tracks, one every 10 ms.
    private func feed(_ count: Int, tracks: Int = 3) -> DynamicEntityFeedReader {
        let lines = (0..<count).map { #"{"geometry": {"x": 1, "y": 2}, "attributes": {"id": "v\#($0 % tracks)", "n": \#($0)}}"# }
        return DynamicEntityFeedReader(text: Array(lines.joined(separator: "\n").utf8), format: .init(trackIDField: "id"))
    }

    @Test func readsTheSampleFeedCountingTheMalformedLine() async throws {
        let reader = try DynamicEntityFeedReader(path: Self.feedPath, format: .init(trackIDField: "MMSI", timeField: "BaseDateTime", speed: 1_000))
        var offsets: [SimTime] = []
        var malformed: [Int] = []
        while let item = reader.next() {
            switch item {
            case .observation(let line): offsets.append(line.offset)
            case .malformed(let line, _): malformed.append(line)
            }
        }
        #expect(offsets.count == 60 && malformed == [35])
        // Ten seconds of feed time a line, a thousand times faster: 10 ms apart.
        #expect(offsets[1] == .milliseconds(10) && offsets.last == .milliseconds(590))
    }

    @Test func anOutageLongerThanTheScheduleEndsFailedAfterTwelveAttempts() async throws {
        let log = Log()
        let session = DynamicEntitySession(map: nil, observer: log.observer)
        await session.connect(to: feed(100_000))
        await session.advance(by: .seconds(1))
        await session.outage(for: .seconds(500))
        await session.advance(by: .seconds(200))
        let statuses = log.events.compactMap { event -> (DynamicEntityConnectionStatus, Int?)? in
            if case .connectionStatusChanged(let status, _, let attempt, _) = event { (status, attempt) } else { nil }
        }
        #expect(statuses.map(\.0) == [.connecting, .connected] + Array(repeating: .connecting, count: 12) + [.failed])
        #expect(statuses.compactMap(\.1) == Array(1...12))
        #expect(await session.status == .failed)
        let summary = await session.summary
        #expect(summary.counts.observationsReceived == 101, "from 0 to 1 s of a feed at 10 ms, then nothing")
        #expect(summary.missed > 0)
    }

    @Test func anOutageThatEndsEarlierReconnectsOnTheThirdAttemptAndLosesNothingAfter() async throws {
        let log = Log()
        let session = DynamicEntitySession(map: nil, observer: log.observer)
        await session.connect(to: feed(10_000))
        await session.advance(by: .seconds(1))
        await session.outage(for: .seconds(4))
        await session.advance(by: .seconds(20))
        let attempts = log.events.compactMap { event -> Int? in
            if case .connectionStatusChanged(.connecting, _, let attempt?, _) = event { attempt } else { nil }
        }
        #expect(attempts == [1, 2, 3])
        #expect(await session.status == .connected)
        let summary = await session.summary
        // Connected from 0 to 1 s and again from 11 s (the third attempt) to 21 s: 101 + 1,001 observations.
        #expect(summary.counts.observationsReceived == 1_102)
        #expect(summary.missed == 999)
    }

    @Test func theFilterKeepsWhatMatchesAndTheMapShowsTheNewestOfEachEntity() async throws {
        let map = Map(backends: .only(FileResourceLoader(assetRoot: SampleStyle.stylesFolder)), camera: Camera(center: LngLat(longitude: 12.66, latitude: 55.73), zoom: 11))
        await map.setStyleURI("file://" + SampleStyle.stylesFolder + "/entities/style.json")
        _ = await map.run(until: .mapIdle, timeout: .seconds(5))
        let recorder = EventRecorder(map)
        let filter = try DynamicEntityFilter(condition: try JSONParser.parse(Array(#"[">", ["get", "SOG"], 0]"#.utf8)), bounds: nil)
        let session = DynamicEntitySession(map: map, options: .init(maximumObservationsPerTrack: 3), filter: filter,
                                           binding: DynamicEntityBinding(sourceID: "vessels", trackSourceID: "vessel-tracks"))
        let reader = try DynamicEntityFeedReader(path: Self.feedPath, format: .init(trackIDField: "MMSI"))
        await session.connect(to: reader)
        await session.runToEnd()
        _ = await session.run(until: .mapIdle, timeout: .seconds(5))
        let summary = await session.summary
        #expect(summary.filteredOut == 12 && summary.malformed == 1 && summary.counts.observationsReceived == 48)
        #expect(summary.entitiesKept == 8 && summary.observationsKept == 24)
        let ariadne = try #require(await map.geoJSONFeature(source: "vessels", id: .string("219000000")))
        #expect(ariadne["properties"]?["VesselName"] == .string("ARIADNE"))
        #expect(ariadne["geometry"]?["coordinates"] == .array([.number(12.62), .number(55.71)]), "its newest observation")
        #expect(await map.geoJSONFeature(source: "vessels", id: .string("219000333")) == nil, "never moving: filtered out")
        #expect(await map.geoJSONFeature(source: "vessel-tracks", id: .string("219000000"))?["geometry"]?["type"] == .string("LineString"))
        #expect(recorder.payloads(of: MapEvents.sourceDataLoaded).contains { $0.id == "vessels" && $0.dataID != nil })
    }

    @Test func purgeAllEmptiesTheStoreAndStaysConnected() async throws {
        let session = DynamicEntitySession(map: nil)
        await session.connect(to: feed(1_000))
        await session.advance(by: .milliseconds(500))
        await session.purgeAll()
        let kept = await session.summary.observationsKept
        let status = await session.status
        #expect(kept == 0 && status == .connected)
        await session.advance(by: .milliseconds(100))
        let summary = await session.summary
        #expect(summary.observationsKept == 10 && summary.counts.entitiesReceived == 6, "three tracks before, the same three as new entities after")
    }

    /// Plays `feed` to its end in the 10 s steps `live replay` takes.
    private func play(_ feed: DynamicEntityFeedReader, options: DynamicEntityPurgeOptions) async -> DynamicEntitySession.Summary {
        let session = DynamicEntitySession(map: nil, options: options, reportsEvents: false)
        await session.connect(to: feed)
        while !(await session.isFeedFinished), await session.play(for: .seconds(10)) {}
        return await session.summary
    }

    @Test func theEndOfAReplayIsTheStoreAtTheLastObservation() async {
        let short = await play(feed(1_002), options: .init(maximumObservations: 0, maximumDuration: .seconds(5)))
        #expect(short.observationsKept == 501, "the last 5 s of 10 ms steps, both ends included")
        let long = await play(feed(20_000), options: .init(maximumObservations: 0, maximumDuration: .seconds(30)))
        #expect(long.observationsKept == 3_001)
    }

    @Test func aTimeJumpOfThousandsOfYearsCostsNothingAndOneBeyondTheClockIsMalformed() async {
        let lines = [0.0, 9.9e14, 9.9e14 + 5_000].enumerated().map { #"{"geometry": {"x": 1, "y": 2}, "attributes": {"id": \#($0.offset), "t": \#($0.element)}}"# }
        let reader = DynamicEntityFeedReader(text: Array(lines.joined(separator: "\n").utf8), format: .init(trackIDField: "id", timeField: "t"))
        let summary = await play(reader, options: .init(maximumDuration: .seconds(10)))
        #expect(summary.counts.observationsReceived == 3 && summary.observationsKept == 2 && summary.malformed == 0)
        let slow = DynamicEntityFeedReader(text: Array(lines.joined(separator: "\n").utf8), format: .init(trackIDField: "id", timeField: "t", speed: 0.001))
        guard case .observation = slow.next(), case .malformed(2, let reason)? = slow.next() else {
            Issue.record("31,000 years played a thousand times slower is beyond the clock")
            return
        }
        #expect(reason.contains("100000 years"))
    }

    @Test func aDirectoryIsNoFeed() throws {
        let error = try #require(throws: FeedError.self) { try DynamicEntityFeedReader(path: SampleStyle.stylesFolder, format: .init(trackIDField: "id")) }
        #expect(error.code == .unreadable && error.message.contains("is a directory"))
    }
}
