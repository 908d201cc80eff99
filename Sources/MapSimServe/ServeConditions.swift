import MapSim

/// The conditions `mapsim serve` answers under, in real time, the simulated network's own: a
/// profile's round trip, jitter (from the seed) and bandwidth; fault rules by URL pattern (a status,
/// a dropped connection, half a body, a delay — `times` per URL); and offline windows, from START
/// to END seconds after the server started, in which every connection is dropped.
public final class ServeConditions: Sendable {
    private let profile: NetworkProfile?
    private let profileName: String?
    private let faults: [FaultRule]
    private let offlineWindows: [Range<SimTime>]

    /// Conditions: no `profile` answers at once; `profileName` names it (`3g`).
    public init(profile: NetworkProfile? = nil, profileName: String? = nil, faults: [FaultRule] = [], offlineWindows: [Range<SimTime>] = []) {
        self.profile = profile
        self.profileName = profileName
        self.faults = faults
        self.offlineWindows = offlineWindows
    }

    /// The conditions as a person reads them: the network, the fault rules, the offline windows.
    public var facts: [(String, String)] {
        let network = profile.map { profile in
            (profileName.map { "\($0): " } ?? "") + "\(profile.roundTrip.shortDescription) round trip ± \(profile.jitter.shortDescription), "
                + "\(ByteCount.format(Int(profile.bytesPerSecond)))/s"
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

    /// Whether every request is answered at once, as it is: no profile, no fault, no offline window.
    var answersAtOnce: Bool { profile == nil && faults.isEmpty && offlineWindows.isEmpty }

    /// The machine that decides under these conditions, from the server's start.
    func machine() -> ServeConditionsMachine {
        ServeConditionsMachine(profile: profile, faults: faults, offlineWindows: offlineWindows)
    }
}
