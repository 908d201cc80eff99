import Synchronization

/// How many times each fault rule has applied to each URL.
final class FaultUses: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// Counts one use of `rule` for `url` if it has uses left.
    func take(rule: Int, url: String, limit: Int?) -> Bool {
        counts.withLock { counts in
            let key = "\(rule) \(url)"
            let used = counts[key, default: 0]
            if let limit, used >= limit { return false }
            counts[key] = used + 1
            return true
        }
    }
}
