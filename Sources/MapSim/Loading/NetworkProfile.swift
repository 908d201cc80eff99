/// How a simulated network delays answers: a round trip with seeded jitter, plus transfer time at
/// the profile's bandwidth, plus any delay a fault rule adds. Local files and cache hits are not
/// delayed. The jitter is drawn in delivery order from a seeded generator, so `--seed` reproduces a run.
public struct NetworkProfile: DeliveryTiming {
    /// The profile's name.
    public var name: String
    /// The round-trip time of a request.
    public var roundTrip: SimTime
    /// The largest random extra delay added to a round trip.
    public var jitter: SimTime
    /// Download bandwidth in bytes per second.
    public var bytesPerSecond: Int64
    /// Extra delays from fault rules.
    public var delays: [(pattern: URLPattern, delay: SimTime)]
    /// Spans of virtual time during which the network is gone.
    public var offlineWindows: [Range<SimTime>] = []
    private var random: SplitMix64

    /// A profile; `seed` fixes the jitter.
    public init(name: String, roundTrip: SimTime, jitter: SimTime, bytesPerSecond: Int64, seed: UInt64 = 0,
                delays: [(pattern: URLPattern, delay: SimTime)] = []) {
        self.name = name
        self.roundTrip = roundTrip
        self.jitter = jitter
        self.bytesPerSecond = max(bytesPerSecond, 1)
        self.delays = delays
        random = SplitMix64(seed: seed)
    }

    public mutating func delay(for resource: Resource, response: Response, measured: SimTime) -> SimTime {
        guard response.source == .network else { return .zero }
        let jitterMicroseconds = jitter.microseconds > 0 ? Int64(random.next() % UInt64(jitter.microseconds + 1)) : 0
        let transfer = Int64(response.size) * 1_000_000 / bytesPerSecond
        let extra = delays.first { $0.pattern.matches(resource.url) }?.delay ?? .zero
        return roundTrip + SimTime(microseconds: jitterMicroseconds + transfer) + extra
    }

    /// The named profiles. `3g` and `4g` are WebPageTest's connectivity profiles of the same names
    /// (3G: 1.6 Mbps down, 300 ms RTT; 4G: 9 Mbps down, 170 ms RTT); `wifi` is a good home Wi-Fi
    /// link (30 Mbps, 20 ms RTT) and `lan` a gigabit LAN (1 Gbps, 1 ms RTT), mapsim's own figures;
    /// `offline` has the timing of `lan` and starts the map offline. Jitter is a tenth of the RTT.
    public static func named(_ name: String, seed: UInt64 = 0) -> NetworkProfile? {
        switch name {
        case "lan", "offline": NetworkProfile(name: name, roundTrip: .milliseconds(1), jitter: SimTime(microseconds: 100), bytesPerSecond: 125_000_000, seed: seed)
        case "wifi": NetworkProfile(name: name, roundTrip: .milliseconds(20), jitter: .milliseconds(2), bytesPerSecond: 3_750_000, seed: seed)
        case "4g": NetworkProfile(name: name, roundTrip: .milliseconds(170), jitter: .milliseconds(17), bytesPerSecond: 1_125_000, seed: seed)
        case "3g": NetworkProfile(name: name, roundTrip: .milliseconds(300), jitter: .milliseconds(30), bytesPerSecond: 200_000, seed: seed)
        default: nil
        }
    }

    /// The names `named(_:)` knows.
    public static let names = ["lan", "wifi", "4g", "3g", "offline"]
}
