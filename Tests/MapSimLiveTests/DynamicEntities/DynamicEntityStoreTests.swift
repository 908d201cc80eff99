import Testing
import MapSim
@testable import MapSimLive

/// The store against a straightforward model of ArcGIS's purge rules.
@Suite("DynamicEntityStore")
struct DynamicEntityStoreTests {
    /// The rules written plainly: a list of kept observations, oldest first.
    private struct Model {
        struct Kept { var id: Int64; var track: String; var received: SimTime }
        var options: DynamicEntityPurgeOptions
        var kept: [Kept] = []
        var entityOf: [String: Int64] = [:]
        var nextObservation: Int64 = 1
        var nextEntity: Int64 = 1
        var counts = DynamicEntityStore.Counts()

        mutating func purge(_ index: Int, keeping track: String?) {
            let removed = kept.remove(at: index)
            counts.observationsPurged += 1
            if !kept.contains(where: { $0.track == removed.track }) && removed.track != track {
                entityOf[removed.track] = nil
                counts.entitiesPurged += 1
            }
        }

        mutating func expire(at now: SimTime) {
            guard options.maximumDuration > .zero else { return }
            while let first = kept.first, now - first.received > options.maximumDuration { purge(0, keeping: nil) }
        }

        mutating func add(track: String, at now: SimTime) {
            expire(at: now)
            if options.maximumObservationsPerTrack > 0 {
                while kept.count(where: { $0.track == track }) >= options.maximumObservationsPerTrack {
                    purge(kept.firstIndex { $0.track == track }!, keeping: track)
                }
            }
            if options.maximumObservations > 0 {
                while kept.count >= options.maximumObservations { purge(0, keeping: track) }
            }
            if entityOf[track] == nil {
                entityOf[track] = nextEntity
                nextEntity += 1
                counts.entitiesReceived += 1
            }
            kept.append(Kept(id: nextObservation, track: track, received: now))
            nextObservation += 1
            counts.observationsReceived += 1
        }
    }

    private func observation(_ track: String) -> DynamicEntityObservation {
        DynamicEntityObservation(trackID: track, longitude: 1, latitude: 2, json: Array(#"{"attributes": {"id": "\#(track)"}}"#.utf8))
    }

    @Test(arguments: [
        DynamicEntityPurgeOptions(maximumObservations: 50),
        DynamicEntityPurgeOptions(maximumObservations: 0, maximumObservationsPerTrack: 3),
        DynamicEntityPurgeOptions(maximumObservations: 0, maximumDuration: .milliseconds(400)),
        DynamicEntityPurgeOptions(maximumObservations: 40, maximumObservationsPerTrack: 2, maximumDuration: .milliseconds(900)),
        DynamicEntityPurgeOptions(maximumObservations: 1, maximumObservationsPerTrack: 1),
    ])
    func matchesTheModel(options: DynamicEntityPurgeOptions) {
        var store = DynamicEntityStore(options: options)
        var model = Model(options: options)
        var random = SplitMix64(seed: 5)
        var now = SimTime.zero
        for step in 0..<3_000 {
            now = now + SimTime(microseconds: Int64(random.next() % 30_000))
            let track = "T\(random.next() % 40)"
            store.add(observation(track), at: now)
            model.add(track: track, at: now)
            if step % 500 == 499 {
                store.purgeExpired(at: now + .milliseconds(200))
                model.expire(at: now + .milliseconds(200))
            }
        }
        #expect(store.counts == model.counts)
        #expect(store.observationIDs == model.kept.map(\.id), "the kept set is the newest observations, in order")
        #expect(store.entityCount == model.entityOf.count)
    }

    @Test func eventsSayWhatHappenedInOrderAndAReusedTrackIsANewEntity() {
        var store = DynamicEntityStore(options: .init(maximumObservations: 0, maximumDuration: .seconds(1)))
        #expect(store.add(observation("a"), at: .zero) == [.entityReceived(trackID: "a", entityID: 1), .observationReceived(trackID: "a", entityID: 1, observationID: 1)])
        #expect(store.nextExpiry == .seconds(1) + SimTime(microseconds: 1))
        #expect(store.purgeExpired(at: .seconds(1)).isEmpty, "an age equal to the maximum is kept")
        #expect(store.add(observation("a"), at: .seconds(3)) == [
            .observationPurged(trackID: "a", entityID: 1, observationID: 1, reason: .age), .entityPurged(trackID: "a", entityID: 1),
            .entityReceived(trackID: "a", entityID: 2), .observationReceived(trackID: "a", entityID: 2, observationID: 2),
        ])
        store.add(observation("b"), at: .seconds(3))
        #expect(store.purgeAll().filter { if case .entityPurged = $0 { true } else { false } }.count == 2)
        #expect(store.count == 0 && store.entityCount == 0)
        store.add(observation("b"), at: .seconds(4))
        #expect(store.entity(trackID: "b")?.id == 4, "purgeAll keeps counting")
        #expect(store.counts == .init(observationsReceived: 4, observationsPurged: 3, entitiesReceived: 4, entitiesPurged: 3))
    }

    @Test func aMillionObservationsStayBoundedByThePurgeOptions() {
        var store = DynamicEntityStore(options: .init(), reportsEvents: false)
        let json = Array(#"{"geometry": {"x": 1, "y": 2}, "attributes": {"MMSI": 1, "SOG": 3.5, "VesselName": "A"}}"#.utf8)
        for index in 0..<1_000_000 {
            store.add(DynamicEntityObservation(trackID: String(index % 5_000), longitude: 1, latitude: 2, json: json), at: SimTime(microseconds: Int64(index) * 10))
        }
        #expect(store.count == 100_000 && store.counts.observationsPurged == 900_000)
        #expect(store.track("42").count == 20)
    }
}
