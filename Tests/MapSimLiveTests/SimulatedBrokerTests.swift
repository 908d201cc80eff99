import Testing
import MapSim
@testable import MapSimLive

/// `SimulatedBroker`'s transitions, command by command: what the manager receives, when, and on
/// which connection.
@Suite struct SimulatedBrokerTests {
    private let topic = try! LiveTopic(parsing: "ds/v/b/1/r/room-1/occupancy")
    private let criteria = try! TopicCriteria(parsing: "ds/v/#")

    private static func inputs(_ deliveries: [SimulatedBroker.Delivery]) -> [String] {
        deliveries.map { "\($0.input)" }
    }

    @Test func answersAfterItsLatencyAndDeliversWhatMatchesOnTheConnection() {
        var broker = SimulatedBroker(configuration: .init(latency: .milliseconds(20)))
        let connected = broker.handle(.connect, at: .seconds(1))
        #expect(connected.count == 1 && connected[0].time == .seconds(1) + .milliseconds(20) && connected[0].connection == 1)
        #expect(Self.inputs(connected) == ["connected"])
        #expect(broker.handle(.publish(topic, payload: [1]), at: .seconds(1)).isEmpty, "nothing is subscribed yet")
        let subscribed = broker.handle(.subscribe(criteria), at: .seconds(2))
        #expect(Self.inputs(subscribed) == ["subscribeAnswered(\(criteria), granted: true)"])
        let delivered = broker.handle(.publish(topic, payload: [7], delay: .milliseconds(5)), at: .seconds(3))
        #expect(delivered.count == 1 && delivered[0].time == .seconds(3) + .milliseconds(25) && broker.accepts(delivered[0]))
        let other = try! LiveTopic(parsing: "other/v/b/1/r/room-1/occupancy")
        #expect(broker.handle(.publish(other, payload: [1]), at: .seconds(3)).isEmpty, "a topic no subscription matches")
        #expect(Self.inputs(broker.handle(.unsubscribe(criteria), at: .seconds(4))) == ["unsubscribeAnswered(\(criteria))"])
        #expect(broker.handle(.publish(topic, payload: [1]), at: .seconds(4)).isEmpty)
    }

    @Test func refusesTheSubscriptionsItIsToldToWithTheirCriteria() {
        var broker = SimulatedBroker(configuration: .init(refused: [criteria]))
        _ = broker.handle(.connect, at: .zero)
        let narrower = try! TopicCriteria(parsing: "ds/v/b/#")
        #expect(Self.inputs(broker.handle(.subscribe(narrower), at: .zero)) == ["subscribeAnswered(\(narrower), granted: false)"])
        #expect(broker.handle(.publish(topic, payload: [1]), at: .zero).isEmpty, "a refused subscription delivers nothing")
    }

    @Test func aDroppedConnectionIsFeltAtOnceAndWhatWasUnderWayOnItIsNotAccepted() {
        var broker = SimulatedBroker()
        _ = broker.handle(.connect, at: .zero)
        _ = broker.handle(.subscribe(criteria), at: .zero)
        let inFlight = broker.handle(.publish(topic, payload: [1]), at: .seconds(1))
        let lost = broker.handle(.dropConnection, at: .seconds(1))
        #expect(lost.count == 1 && lost[0].time == .seconds(1) && Self.inputs(lost) == [#"connectionLost("the connection was dropped")"#])
        #expect(!broker.accepts(inFlight[0]), "a message of the dropped connection never arrives")
        // A clean session: reconnecting has no subscriptions.
        _ = broker.handle(.connect, at: .seconds(2))
        #expect(broker.connection == 2 && broker.handle(.publish(topic, payload: [1]), at: .seconds(2)).isEmpty)
        #expect(broker.handle(.dropConnection, at: .seconds(3)).count == 1)
        #expect(broker.handle(.dropConnection, at: .seconds(3)).isEmpty, "nothing to drop twice")
    }

    @Test func aStoppedBrokerRefusesConnectsUntilItStartsAgain() {
        var broker = SimulatedBroker()
        _ = broker.handle(.connect, at: .zero)
        #expect(Self.inputs(broker.handle(.stop, at: .seconds(1))) == [#"connectionLost("the broker went away")"#] && !broker.isRunning)
        let refused = broker.handle(.connect, at: .seconds(2))
        #expect(refused[0].connection == nil && Self.inputs(refused) == [#"connectFailed("connection refused: the broker is not running")"#])
        #expect(broker.handle(.start, at: .seconds(3)).isEmpty && broker.isRunning)
        #expect(Self.inputs(broker.handle(.connect, at: .seconds(3))) == ["connected"])
        #expect(Self.inputs(broker.handle(.disconnect, at: .seconds(4))) == ["disconnected"])
        #expect(broker.handle(.disconnect, at: .seconds(4)).isEmpty)
    }

    @Test func chaosDrawsFromTheSeedSoTheSameSeedGivesTheSameDeliveries() {
        func deliveries(seed: UInt64) -> [SimTime] {
            var broker = SimulatedBroker(configuration: .init(chaos: .init(dropRate: 0.3, duplicateRate: 0.3, maximumExtraDelay: .milliseconds(50))), seed: seed)
            _ = broker.handle(.connect, at: .zero)
            _ = broker.handle(.subscribe(criteria), at: .zero)
            return (0..<50).flatMap { broker.handle(.publish(topic, payload: [UInt8($0)]), at: .seconds(Double($0))).map(\.time) }
        }
        let first = deliveries(seed: 7)
        #expect(first == deliveries(seed: 7))
        #expect(first != deliveries(seed: 8))
        #expect(first.count > 50, "some are duplicated")
    }
}
