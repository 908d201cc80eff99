import MapSim

/// An MQTT broker in virtual time, for runs that must give the same trace every time: it answers the
/// manager's connects and subscriptions after its latency, refuses the subscriptions it is told to
/// (SUBACK `0x80`), and delivers scripted publishes to a connected client whose subscriptions match —
/// with drops, duplicates and reordering drawn from the run's seed. It can drop the connection, stop
/// and start again; as Mosquitto with a clean session, a client that reconnects has no subscriptions
/// and what was published while it was away is gone.
///
/// It performs no I/O: each command returns the manager inputs it causes and when they arrive.
public struct SimulatedBroker: StateMachine {
    /// Misbehaviour of the broker's deliveries.
    public struct Chaos: Sendable, Equatable {
        /// The share of delivery attempts lost, from 0 to 1. Deliveries are QoS 1: a lost one is sent
        /// again after the broker's redelivery delay until it arrives (while the connection lasts).
        public var dropRate: Double
        /// The share of deliveries sent twice, from 0 to 1.
        public var duplicateRate: Double
        /// Each delivery is delayed by up to this much more than the latency, so that later
        /// publishes may arrive first.
        public var maximumExtraDelay: SimTime

        /// Chaos; none by default.
        public init(dropRate: Double = 0, duplicateRate: Double = 0, maximumExtraDelay: SimTime = .zero) {
            self.dropRate = dropRate
            self.duplicateRate = duplicateRate
            self.maximumExtraDelay = maximumExtraDelay
        }
    }

    /// How the broker behaves.
    public struct Configuration: Sendable, Equatable {
        /// How long each answer and delivery takes.
        public var latency: SimTime
        /// What it refuses to subscribe to: a subscription is refused when one of these covers it
        /// (matches its filter read as a topic, as Mosquitto's dynamic-security ACLs match a
        /// SUBSCRIBE), so `acme/hq/annex/#` refuses `acme/hq/annex/1/+/+/occupancy`.
        public var refused: [TopicCriteria]
        public var chaos: Chaos
        /// How long the broker waits for an acknowledgement before it sends a message again.
        public var redeliveryDelay: SimTime

        /// A configuration.
        public init(latency: SimTime = .milliseconds(20), refused: [TopicCriteria] = [], chaos: Chaos = Chaos(),
                    redeliveryDelay: SimTime = .seconds(1)) {
            self.latency = latency
            self.refused = refused
            self.chaos = chaos
            self.redeliveryDelay = redeliveryDelay
        }
    }

    /// What the broker is asked: by the manager (connect, disconnect, subscribe, unsubscribe) or by the
    /// script (publish, drop the connection, stop, start).
    public enum Command: Sendable, Equatable {
        case connect
        case disconnect
        case subscribe(TopicCriteria)
        case unsubscribe(TopicCriteria)
        /// A publish, held back `delay` more than the latency on its way to the client.
        case publish(LiveTopic, payload: [UInt8], delay: SimTime = .zero)
        /// The network drops the client's connection; the broker keeps running.
        case dropConnection
        /// The broker goes away (its connection is lost; connects fail until it starts).
        case stop
        case start
    }

    /// An input for the manager, due at `time`, valid only while the connection it came on is the current one.
    public struct Delivery: Sendable {
        public var time: SimTime
        /// The connection it came on; nil when it arrives whatever happens meanwhile (a failure, a close).
        public var connection: Int?
        public var input: LiveDataManager.Input
    }

    public let configuration: Configuration
    /// Whether the broker is up.
    public private(set) var isRunning = true
    /// The current connection, counted from 1; 0 before the first.
    public private(set) var connection = 0
    private var isConnected = false
    private var subscriptions: [TopicCriteria] = []
    private var random: SplitMix64

    /// A broker configured by `configuration`, whose chaos draws from `seed`.
    public init(configuration: Configuration = Configuration(), seed: UInt64 = 0) {
        self.configuration = configuration
        random = SplitMix64(seed: seed ^ 0x6C69_7665)
    }

    /// Whether `delivery` still arrives at its time: the connection it came on is still open.
    public func accepts(_ delivery: Delivery) -> Bool {
        delivery.connection.map { isConnected && $0 == connection } ?? true
    }

    /// Carries out `command` at `now`; returns what the manager will receive, and when.
    public mutating func handle(_ command: Command, at now: SimTime) -> [Delivery] {
        let answer = now + configuration.latency
        switch command {
        case .connect:
            connection += 1
            subscriptions = []
            guard isRunning else { return [Delivery(time: answer, connection: nil, input: .connectFailed("connection refused: the broker is not running"))] }
            isConnected = true
            return [Delivery(time: answer, connection: connection, input: .connected)]
        case .disconnect:
            guard isConnected else { return [] }
            isConnected = false
            subscriptions = []
            return [Delivery(time: answer, connection: nil, input: .disconnected)]
        case .subscribe(let criteria):
            guard isConnected else { return [] }
            let granted = !configuration.refused.contains { $0.covers(criteria) }
            if granted && !subscriptions.contains(criteria) { subscriptions.append(criteria) }
            return [Delivery(time: answer, connection: connection, input: .subscribeAnswered(criteria, granted: granted))]
        case .unsubscribe(let criteria):
            guard isConnected else { return [] }
            subscriptions.removeAll { $0 == criteria }
            return [Delivery(time: answer, connection: connection, input: .unsubscribeAnswered(criteria))]
        case .publish(let topic, let payload, let delay):
            guard isRunning, isConnected, subscriptions.contains(where: { $0.matches(topic) }) else { return [] }
            let message = LiveDataManager.Input.message(topic: topic.description, payload: payload)
            var deliveries = [Delivery(time: arrival(after: answer + delay), connection: connection, input: message)]
            let chaos = configuration.chaos
            if chaos.duplicateRate > 0 && draw() < chaos.duplicateRate {
                deliveries.append(Delivery(time: arrival(after: answer + delay), connection: connection, input: message))
            }
            return deliveries
        case .dropConnection:
            return lose("the connection was dropped", at: now)
        case .stop:
            isRunning = false
            return lose("the broker went away", at: now)
        case .start:
            isRunning = true
            return []
        }
    }

    private mutating func lose(_ message: String, at now: SimTime) -> [Delivery] {
        guard isConnected else { return [] }
        isConnected = false
        subscriptions = []
        return [Delivery(time: now, connection: nil, input: .connectionLost(message))]
    }

    /// A number from 0 up to 1, from the seed.
    private mutating func draw() -> Double {
        Double(random.next() >> 11) / Double(1 << 53)
    }

    /// When a message sent at `time` arrives: after any lost attempts and their redelivery delays,
    /// plus a random extra delay.
    private mutating func arrival(after time: SimTime) -> SimTime {
        let chaos = configuration.chaos
        var arrival = time
        if chaos.dropRate > 0 {
            // A loss rate of 1 would never deliver: after 16 lost attempts the next one arrives.
            var lost = 0
            while lost < 16 && draw() < chaos.dropRate {
                lost += 1
                arrival = arrival + configuration.redeliveryDelay
            }
        }
        let maximum = chaos.maximumExtraDelay.microseconds
        guard maximum > 0 else { return arrival }
        return arrival + SimTime(microseconds: Int64(draw() * Double(maximum)))
    }
}
