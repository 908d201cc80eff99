import MapSim
import Synchronization

/// The conditions `mapsim serve` answers under, in real time, the simulated network's own: a
/// profile's round trip, jitter (from the seed) and bandwidth; fault rules by URL pattern (a status,
/// a dropped connection, half a body, a delay — `times` per URL); and offline windows, from START
/// to END seconds after the server started, in which every connection is dropped.
public final class ServeConditions: Sendable {
    /// What to do with one request.
    enum Decision: Sendable {
        /// Answer normally, this much later.
        case answer(after: SimTime)
        /// Answer with this status (and headers), this much later.
        case status(Int, headers: [(name: String, value: String)], after: SimTime)
        /// Close the connection without an answer.
        case drop
        /// Send the first half of the body only, this much later.
        case truncate(after: SimTime)
    }

    private let profile: Mutex<NetworkProfile?>
    private let profileName: String?
    private let faults: [FaultRule]
    private let offlineWindows: [Range<SimTime>]
    private let uses = FaultUses()

    /// Conditions: no `profile` answers at once; `profileName` names it (`3g`).
    public init(profile: NetworkProfile? = nil, profileName: String? = nil, faults: [FaultRule] = [], offlineWindows: [Range<SimTime>] = []) {
        self.profile = Mutex(profile)
        self.profileName = profileName
        self.faults = faults
        self.offlineWindows = offlineWindows
    }

    /// The conditions as a person reads them: the network, the fault rules, the offline windows.
    public var facts: [(String, String)] {
        let network = profile.withLock { profile in
            profile.map { profile in
                (profileName.map { "\($0): " } ?? "") + "\(profile.roundTrip.shortDescription) round trip ± \(profile.jitter.shortDescription), "
                    + "\(ByteCount.format(Int(profile.bytesPerSecond)))/s"
            }
        }
        let windows = offlineWindows.map { window in
            // A window that never ends (a scenario that goes offline for good).
            window.upperBound >= .seconds(50 * 365 * 86_400) ? "from \(window.lowerBound.shortDescription)"
                : "\(window.lowerBound.shortDescription)–\(window.upperBound.shortDescription)"
        }
        return [("network", network ?? "no delay: answers at once"),
                ("faults", faults.isEmpty ? "none" : faults.map(\.description).joined(separator: "; ")),
                ("offline", windows.isEmpty ? "never" : windows.joined(separator: ", ") + " after the server started")]
    }

    /// What to do with a request for `resource` whose answer has `size` bytes, `elapsed` after the server started.
    func decide(_ resource: Resource, size: Int, elapsed: SimTime) -> Decision {
        if offlineWindows.contains(where: { $0.contains(elapsed) }) { return .drop }
        let delay = profile.withLock { $0?.delay(url: resource.url, bytes: size) } ?? .zero
        for (index, rule) in faults.enumerated() where rule.pattern.matches(resource.url) && uses.take(rule: index, url: resource.url, limit: rule.times) {
            switch rule.effect {
            case .status(let code, let headers): return .status(code, headers: headers, after: delay)
            case .dropConnection: return .drop
            case .truncateBody: return .truncate(after: delay)
            case .delay(let extra): return .answer(after: delay + extra)
            }
        }
        return .answer(after: delay)
    }
}
