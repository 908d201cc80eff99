import Synchronization

/// Values `mapsim serve` made once and uses again, by key, shared by every connection: made on
/// demand, kept while their total cost stays within `budget`; when a new one would pass it,
/// everything is forgotten and made again as asked. What is kept never changes an answer, only
/// saves making it.
final class BoundedCache<Value: Sendable>: Sendable {
    let budget: Int
    private let cost: @Sendable (Value) -> Int
    private let kept = Mutex<(values: [String: Value], cost: Int)>(([:], 0))

    /// A cache of values costing `cost` each (1 unless said), `budget` in all.
    init(budget: Int, cost: @escaping @Sendable (Value) -> Int = { _ in 1 }) {
        self.budget = max(budget, 1)
        self.cost = cost
    }

    /// The value kept under `key`, or `make`'s, kept; nil when `make` makes none.
    func value(_ key: String, make: () -> Value?) -> Value? {
        if let value = kept.withLock({ $0.values[key] }) { return value }
        guard let made = make() else { return nil }
        let price = cost(made)
        kept.withLock { kept in
            if kept.cost + price > budget { kept = ([:], 0) }
            guard price <= budget else { return }
            kept.values[key] = made
            kept.cost += price
        }
        return made
    }
}
