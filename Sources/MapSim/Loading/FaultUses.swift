import Synchronization

/// How many times each fault rule has applied to each URL.
public final class FaultUses: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// No use counted yet.
    public init() {}

    /// Counts one use of `rule` for `url` if it has uses left.
    public func take(rule: Int, url: String, limit: Int?) -> Bool {
        counts.withLock { counts in
            let key = "\(rule) \(url)"
            let used = counts[key, default: 0]
            if let limit, used >= limit { return false }
            counts[key] = used + 1
            return true
        }
    }
}
