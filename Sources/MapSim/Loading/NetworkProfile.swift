/// How a simulated network delays answers: a round trip with seeded jitter, plus transfer time at
/// the profile's bandwidth, plus any delay a fault rule adds. Local files and cache hits are not
/// delayed. The jitter is drawn in delivery order from a seeded generator, so `--seed` reproduces a run.
public struct NetworkProfile: DeliveryTiming {
    /// The round-trip time of a request.
    public var roundTrip: SimTime
    /// The largest random extra delay added to a round trip.
    public var jitter: SimTime
    /// Download bandwidth in bytes per second.
    public var bytesPerSecond: Int64
    /// Extra delays from fault rules.
    public var delays: [(pattern: URLPattern, delay: SimTime)]
    private var random: SplitMix64

    /// A profile; `seed` fixes the jitter.
    public init(roundTrip: SimTime, jitter: SimTime, bytesPerSecond: Int64, seed: UInt64 = 0,
                delays: [(pattern: URLPattern, delay: SimTime)] = []) {
        self.roundTrip = roundTrip
        self.jitter = jitter
        self.bytesPerSecond = max(bytesPerSecond, 1)
        self.delays = delays
        random = SplitMix64(seed: seed)
    }

    public mutating func delay(for resource: Resource, response: Response, measured: SimTime) -> SimTime {
        guard response.source == .network else { return .zero }
        return delay(url: resource.url, bytes: response.size)
    }

    /// The delay of a network answer of `bytes` bytes for `url`: the round trip, the next jitter,
    /// the transfer and any extra delay of a rule matching the URL.
    public mutating func delay(url: String, bytes: Int) -> SimTime {
        let jitterMicroseconds = jitter.microseconds > 0 ? Int64(random.next() % UInt64(jitter.microseconds + 1)) : 0
        let transfer = Int64(bytes) * 1_000_000 / bytesPerSecond
        let extra = delays.first { $0.pattern.matches(url) }?.delay ?? .zero
        return roundTrip + SimTime(microseconds: jitterMicroseconds + transfer) + extra
    }
}
