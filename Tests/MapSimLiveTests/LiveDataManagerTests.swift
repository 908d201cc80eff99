import Testing
import MapSim
@testable import MapSimLive

/// The manager's rules, input by input.
@Suite("LiveDataManager")
struct LiveDataManagerTests {
    private let occupancy = TopicCriteria(dataset: "ds", domainType: "occupancy")
    private let positions = TopicCriteria(dataset: "ds", domainType: "position")

    private func events(_ actions: [LiveDataManager.Action]) -> [String] {
        actions.compactMap { if case .emit(let event) = $0 { event.type.rawValue } else { nil } }
    }

    @Test func theFirstSubscribeConnectsAndTheLastUnsubscribeDisconnects() {
        var manager = LiveDataManager()
        let now = SimTime.zero
        #expect(manager.handle(.subscribe(occupancy), at: now) == [.emit(.stateChanged(.connecting, previous: .closed)), .connect])
        #expect(manager.handle(.connected, at: now) == [.emit(.stateChanged(.connected, previous: .connecting)), .subscribe(occupancy)])
        #expect(manager.handle(.subscribeAnswered(occupancy, granted: true), at: now) == [.emit(.subscribed(criteria: occupancy.mqttFilter))])
        #expect(manager.handle(.subscribe(positions), at: now) == [.subscribe(positions)])
        #expect(manager.handle(.unsubscribe(occupancy), at: now) == [.unsubscribe(occupancy)])
        #expect(manager.handle(.unsubscribeAnswered(occupancy), at: now) == [.emit(.unsubscribed(criteria: occupancy.mqttFilter))])
        #expect(manager.handle(.unsubscribe(positions), at: now) == [.unsubscribe(positions)])
        #expect(manager.handle(.unsubscribeAnswered(positions), at: now)
                == [.emit(.unsubscribed(criteria: positions.mqttFilter)), .emit(.stateChanged(.disconnecting, previous: .connected)), .disconnect])
        #expect(manager.handle(.disconnected, at: now) == [.emit(.stateChanged(.closed, previous: .disconnecting))])
    }

    @Test func aRefusedSubscriptionIsReportedOnceAndNeverRetried() {
        var manager = LiveDataManager()
        _ = manager.handle(.subscribe(occupancy), at: .zero)
        _ = manager.handle(.subscribe(positions), at: .zero)
        _ = manager.handle(.connected, at: .zero)
        #expect(events(manager.handle(.subscribeAnswered(positions, granted: false), at: .zero)) == ["live-subscription-error"])
        _ = manager.handle(.subscribeAnswered(occupancy, granted: true), at: .zero)
        _ = manager.handle(.connectionLost("reset"), at: .seconds(5))
        _ = manager.handle(.reconnectDue, at: .seconds(6))
        let resubscribed = manager.handle(.connected, at: .seconds(6)).filter { if case .subscribe = $0 { true } else { false } }
        #expect(resubscribed == [.subscribe(occupancy)], "only what was granted is subscribed again")
    }

    @Test func aLostConnectionIsRetriedWithBackoffAndEverythingIsSubscribedAgain() {
        var manager = LiveDataManager(seed: 3)
        _ = manager.handle(.subscribe(occupancy), at: .zero)
        _ = manager.handle(.subscribe(positions), at: .zero)
        _ = manager.handle(.connected, at: .zero)
        var delays: [Int64] = []
        var now = SimTime.seconds(1)
        let lost = manager.handle(.connectionLost("broker went away"), at: now)
        #expect(events(lost) == ["live-error", "live-state-changed"] && manager.state == .closed)
        if case .scheduleReconnect(let due)? = lost.last { delays.append((due - now).microseconds) }
        for _ in 0..<5 {
            now = now + .seconds(30)
            _ = manager.handle(.reconnectDue, at: now)
            let failed = manager.handle(.connectFailed("refused"), at: now)
            if case .scheduleReconnect(let due)? = failed.last { delays.append((due - now).microseconds) }
        }
        // 1 s, 2 s, 4 s, 8 s, then 10 s at most, each times 0.75...1.
        for (attempt, delay) in delays.enumerated() {
            let full = min(10_000_000, 1_000_000 << Int64(attempt))
            #expect(delay >= full * 3 / 4 && delay <= full, "attempt \(attempt + 1): \(delay)")
        }
        #expect(delays.count == 6)
        _ = manager.handle(.reconnectDue, at: now + .seconds(30))
        let reconnected = manager.handle(.connected, at: now + .seconds(30))
        #expect(reconnected.contains(.subscribe(occupancy)) && reconnected.contains(.subscribe(positions)))
    }

    @Test func updatesAreMatchedOnTheClientAndTheNewestWins() throws {
        var manager = LiveDataManager()
        _ = manager.handle(.subscribe(occupancy), at: .zero)
        _ = manager.handle(.connected, at: .zero)
        _ = manager.handle(.subscribeAnswered(occupancy, granted: true), at: .zero)
        let topic = "ds/v/b/f/r/room-1/occupancy"
        let newer = #"{"timestamp": "2026-11-23T10:00:02Z", "properties": {"occupied": "true"}}"#
        let older = #"{"timestamp": "2026-11-23T10:00:01Z", "properties": {"occupied": "false"}}"#
        #expect(events(manager.handle(.message(topic: topic, payload: Array(newer.utf8)), at: .zero)) == ["live-update"])
        #expect(manager.handle(.message(topic: topic, payload: Array(older.utf8)), at: .zero).isEmpty, "an older update never overwrites a newer one")
        #expect(manager.handle(.message(topic: "ds/v/b/f/r/room-1/position", payload: Array(newer.utf8)), at: .zero).isEmpty, "not asked for")
        #expect(events(manager.handle(.message(topic: "ds/v/b", payload: []), at: .zero)) == ["live-error"])
        #expect(manager.store.update(id: "room-1", domainType: "occupancy")?.properties == ["occupied": "true"])
    }

    @Test func eventsHaveTheHouseNamesAndPayloads() throws {
        let event = LiveEvent.stateChanged(.connected, previous: .connecting)
        #expect(event.type.rawValue == "live-state-changed")
        #expect(event.data == .init([("state", .string("connected")), ("previous", .string("connecting"))]))
        let refused = LiveEvent.subscriptionError(criteria: occupancy.mqttFilter, message: "no")
        #expect(refused.data["criteria"] == .string("ds/+/+/+/+/+/occupancy"))
        let line = MapEvent(begin: .zero, end: .milliseconds(5), payload: .live(refused)).jsonLine
        #expect(line == #"{"type":"live-subscription-error","begin":0,"end":5000,"data":{"criteria":"ds/+/+/+/+/+/occupancy","message":"no"}}"#)
        #expect(try LiveEvent(type: .liveSubscriptionError, data: refused.data) == refused, "it reads back")
    }

    @Test func unsubscribingWhatWasNotSubscribedOrFailingToIsAnError() {
        var manager = LiveDataManager()
        #expect(events(manager.handle(.unsubscribe(occupancy), at: .zero)) == ["live-unsubscription-error"])
        _ = manager.handle(.subscribe(occupancy), at: .zero)
        _ = manager.handle(.connected, at: .zero)
        _ = manager.handle(.subscribeAnswered(occupancy, granted: true), at: .zero)
        #expect(manager.handle(.unsubscribeFailed(occupancy, "timed out"), at: .zero)
                == [.emit(.unsubscriptionError(criteria: occupancy.mqttFilter, message: "timed out"))])
    }

    @Test func aCloseWhileSomethingIsWantedConnectsAgainAtOnce() {
        var manager = LiveDataManager()
        _ = manager.handle(.subscribe(occupancy), at: .zero)
        _ = manager.handle(.connected, at: .zero)
        #expect(manager.handle(.disconnected, at: .zero)
                == [.emit(.stateChanged(.closed, previous: .connected)), .emit(.stateChanged(.connecting, previous: .closed)), .connect])
    }

    @Test func aReconnectThatIsNoLongerWantedDoesNothing() {
        var manager = LiveDataManager()
        _ = manager.handle(.subscribe(occupancy), at: .zero)
        _ = manager.handle(.connectFailed("refused"), at: .zero)
        _ = manager.handle(.unsubscribe(occupancy), at: .zero)
        #expect(manager.handle(.reconnectDue, at: .seconds(1)).isEmpty)
        #expect(manager.state == .closed)
    }

    @Test func messagesOutsideTheCriteriaAskedOrNotOnATopicAreNotUpdates() {
        var manager = LiveDataManager()
        _ = manager.handle(.subscribe(occupancy), at: .zero)
        _ = manager.handle(.connected, at: .zero)
        let payload = Array(#"{"id": "r1", "timestamp": "2026-01-01T00:00:00Z", "properties": {"state": "busy"}}"#.utf8)
        #expect(manager.handle(.message(topic: "ds/v/b/f/r/r1/position", payload: payload), at: .zero).isEmpty, "never asked for")
        // A broker sends what a subscription matches only after its SUBACK; a real transport may hand
        // the message over before the answer (a retained message right behind the SUBACK): it counts,
        // and is the grant, reported first (a run that ends at its first update shows both); the
        // answer, when it is taken, says nothing more.
        #expect(events(manager.handle(.message(topic: "ds/v/b/f/r/r1/occupancy", payload: payload), at: .zero)) == ["live-subscribed", "live-update"],
                "asked, the answer not taken yet")
        #expect(manager.active == [occupancy])
        #expect(manager.handle(.subscribeAnswered(occupancy, granted: true), at: .zero).isEmpty)
        #expect(events(manager.handle(.subscribe(positions), at: .zero)) == [])
        _ = manager.handle(.subscribeAnswered(positions, granted: false), at: .zero)
        let position = Array(#"{"id": "r1", "timestamp": "2026-01-01T00:00:00Z", "properties": {"x": 1}}"#.utf8)
        #expect(manager.handle(.message(topic: "ds/v/b/f/r/r2/position", payload: position), at: .zero).isEmpty, "refused: nothing counts")
        #expect(events(manager.handle(.message(topic: "ds/v", payload: payload), at: .zero)) == ["live-error"])
    }
}
