/// How many times each fault rule has applied to each URL: of a list of rules, the first that
/// matches a URL and has uses left for it applies, and is counted — so "the first two requests of
/// tiles.json fail" holds whatever order requests run in.
public struct FaultUses: Sendable {
    /// Uses so far, by "RULE URL" (the rule's place in its list).
    private var counts: [String: Int] = [:]

    /// No use counted yet.
    public init() {}

    /// The first of `rules` that matches `url` and has uses left for it, its use counted; nil when none applies.
    public mutating func take(from rules: [FaultRule], for url: String) -> FaultRule? {
        for (index, rule) in rules.enumerated() where rule.pattern.matches(url) {
            let key = "\(index) \(url)"
            let used = counts[key, default: 0]
            if let limit = rule.times, used >= limit { continue }
            counts[key] = used + 1
            return rule
        }
        return nil
    }
}
