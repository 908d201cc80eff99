import MapSim
import Synchronization

/// The conditions `mapsim serve` answers under, in real time, the simulated network's own: a
/// profile's round trip, jitter (from the seed) and bandwidth; fault rules by URL pattern (a status,
/// a dropped connection, half a body, a delay — `times` per URL); and offline windows, from START
/// to END seconds after the server started, in which every connection is dropped.
public final class ServeConditions: Sendable {
    /// What to do with one request.
    enum Decision: Sendable, Equatable {
        /// Answer normally, this much later.
        case answer(after: SimTime)
        /// Answer with this status (and headers), this much later.
        case status(Int, headers: [(name: String, value: String)], after: SimTime)
        /// Close the connection without an answer.
        case drop
        /// Send the first half of the body only, this much later.
        case truncate(after: SimTime)

        static func == (lhs: Decision, rhs: Decision) -> Bool {
            switch (lhs, rhs) {
            case let (.answer(a), .answer(b)): a == b
            case let (.status(a, x, c), .status(b, y, d)): a == b && c == d && x.map(\.name) == y.map(\.name) && x.map(\.value) == y.map(\.value)
            case (.drop, .drop): true
            case let (.truncate(a), .truncate(b)): a == b
            default: false
            }
        }
    }

    private let profile: Mutex<NetworkProfile?>
    private let faults: [FaultRule]
    private let offlineWindows: [Range<SimTime>]
    private let uses = Mutex<[String: Int]>([:])

    /// Conditions: no `profile` answers at once.
    public init(profile: NetworkProfile? = nil, faults: [FaultRule] = [], offlineWindows: [Range<SimTime>] = []) {
        self.profile = Mutex(profile)
        self.faults = faults
        self.offlineWindows = offlineWindows
    }

    /// Whether anything changes the answers.
    var isIdeal: Bool { faults.isEmpty && offlineWindows.isEmpty && profile.withLock { $0 == nil } }

    /// What to do with a request for `resource` whose answer has `size` bytes, `elapsed` after the server started.
    func decide(_ resource: Resource, size: Int, elapsed: SimTime) -> Decision {
        if offlineWindows.contains(where: { $0.contains(elapsed) }) { return .drop }
        let delay = profile.withLock { profile -> SimTime in
            guard var current = profile else { return .zero }
            let delay = current.delay(for: resource, response: Response(data: [UInt8](repeating: 0, count: size), source: .network), measured: .zero)
            profile = current
            return delay
        }
        for (index, rule) in faults.enumerated() where rule.pattern.matches(resource.url) && take(rule: index, url: resource.url, limit: rule.times) {
            switch rule.effect {
            case .status(let code, let headers): return .status(code, headers: headers, after: delay)
            case .dropConnection: return .drop
            case .truncateBody: return .truncate(after: delay)
            case .delay(let extra): return .answer(after: delay + extra)
            }
        }
        return .answer(after: delay)
    }

    private func take(rule: Int, url: String, limit: Int?) -> Bool {
        uses.withLock { counts in
            let key = "\(rule) \(url)"
            let used = counts[key, default: 0]
            if let limit, used >= limit { return false }
            counts[key] = used + 1
            return true
        }
    }
}
