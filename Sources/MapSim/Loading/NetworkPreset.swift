/// The simulated networks a user names (`--network`, a scenario's `network.profile`).
///
/// `3g` and `4g` are WebPageTest's connectivity profiles of the same names (3G: 1.6 Mbps down, 300 ms
/// RTT; 4G: 9 Mbps down, 170 ms RTT); `wifi` is a good home Wi-Fi link (30 Mbps, 20 ms RTT) and
/// `lan` a gigabit LAN (1 Gbps, 1 ms RTT), mapsim's own figures. Jitter is a tenth of the RTT.
/// `offline` is the one preset that is not a speed: the timing of `lan`, with the map starting
/// offline — this is the only place that knows it.
public enum NetworkPreset: String, Sendable, CaseIterable {
    case lan
    case wifi
    case fourG = "4g"
    case threeG = "3g"
    case offline

    /// The preset's timing, its jitter drawn from `seed`.
    public func profile(seed: UInt64 = 0) -> NetworkProfile {
        switch self {
        case .lan, .offline: NetworkProfile(roundTrip: .milliseconds(1), jitter: SimTime(microseconds: 100), bytesPerSecond: 125_000_000, seed: seed)
        case .wifi: NetworkProfile(roundTrip: .milliseconds(20), jitter: .milliseconds(2), bytesPerSecond: 3_750_000, seed: seed)
        case .fourG: NetworkProfile(roundTrip: .milliseconds(170), jitter: .milliseconds(17), bytesPerSecond: 1_125_000, seed: seed)
        case .threeG: NetworkProfile(roundTrip: .milliseconds(300), jitter: .milliseconds(30), bytesPerSecond: 200_000, seed: seed)
        }
    }

    /// Whether a map on this network starts offline.
    public var startsOffline: Bool { self == .offline }

    /// The names, as users type them.
    public static var names: [String] { allCases.map(\.rawValue) }
}
