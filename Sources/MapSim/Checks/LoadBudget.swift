import Foundation

/// A limit on one figure of a load, as Lighthouse budgets limit a page's: when a milestone comes,
/// how many requests go out and how many bytes come back (in all, or of one resource kind), and how
/// many map-loading-errors happen. `mapsim load --budget` and a scenario's `budget` expectation
/// both check these, from the same `LoadSummary`.
///
/// Names: `style-loaded`, `map-loaded`, `map-idle` (a duration on the load's clock: `800ms`, `2s`),
/// `requests` and `requests.KIND`, `bytes` and `bytes.KIND` (`500KB`, `5MB`; KIND as the summary
/// names kinds: `tile`, `glyphs`, `sprite-image`, ...), `errors`.
public struct LoadBudget: Sendable, Hashable, CustomStringConvertible {
    /// What a budget limits.
    public enum Metric: Sendable, Hashable {
        /// When the milestone first came.
        case milestone(Map.State)
        /// Requests, of one kind or of every kind (nil).
        case requests(Resource.Kind?)
        /// Bytes received, of one kind or of every kind (nil).
        case bytes(Resource.Kind?)
        /// map-loading-error events.
        case errors
    }

    /// What is limited.
    public var metric: Metric
    /// The most the figure may be: microseconds for a milestone, bytes, or a count.
    public var limit: Int64

    /// A budget of `limit` on `metric`.
    public init(_ metric: Metric, limit: Int64) {
        self.metric = metric
        self.limit = limit
    }

    /// The budget `NAME=LIMIT` says, as `--budget` takes it: `map-idle=2s`, `requests.tile=40`,
    /// `bytes=5MB`, `errors=0`.
    public init(parsing text: String) throws(BudgetError) {
        guard let equals = text.firstIndex(of: "=") else {
            throw BudgetError(.malformed, "\"\(text)\" is not NAME=LIMIT (for example map-idle=2s, requests.tile=40, bytes=5MB, errors=0)")
        }
        try self.init(name: String(text[..<equals]), limit: String(text[text.index(after: equals)...]))
    }

    /// The budget named `name` with the limit `limit` as written (`2s`, `500KB`, `40`).
    public init(name: String, limit: String) throws(BudgetError) {
        let metric = try Self.metric(named: name)
        let value: Int64?
        switch metric {
        case .milestone: value = SimTime(parsing: limit)?.microseconds
        case .bytes: value = ByteCount.parse(limit).map(Int64.init)
        case .requests, .errors: value = Int64(limit).flatMap { $0 >= 0 ? $0 : nil }
        }
        guard let value else {
            let expected = switch metric {
            case .milestone: "a duration such as 800ms or 2s"
            case .bytes: "a size such as 500KB or 5MB"
            case .requests, .errors: "a whole number, 0 or more"
            }
            throw BudgetError(.malformed, "budget \(name): \"\(limit)\" is not \(expected)")
        }
        self.init(metric, limit: value)
    }

    /// The metric a budget name names.
    private static func metric(named name: String) throws(BudgetError) -> Metric {
        if let state = Map.State(rawValue: name) { return .milestone(state) }
        switch name {
        case "requests": return .requests(nil)
        case "bytes": return .bytes(nil)
        case "errors": return .errors
        default: break
        }
        for (prefix, make) in [("requests.", Metric.requests), ("bytes.", Metric.bytes)] where name.hasPrefix(prefix) {
            let kind = String(name.dropFirst(prefix.count))
            guard let known = Resource.Kind(rawValue: kind) else {
                throw BudgetError(.malformed, "budget \(name): unknown resource kind \"\(kind)\"; use one of "
                                  + Resource.Kind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return make(known)
        }
        throw BudgetError(.malformed, "unknown budget \"\(name)\"; use style-loaded, map-loaded, map-idle, requests, requests.KIND, bytes, bytes.KIND or errors")
    }

    /// The budget's name: `map-idle`, `requests.tile`, `bytes`, `errors`.
    public var name: String {
        switch metric {
        case .milestone(let state): state.rawValue
        case .requests(let kind): kind.map { "requests.\($0.rawValue)" } ?? "requests"
        case .bytes(let kind): kind.map { "bytes.\($0.rawValue)" } ?? "bytes"
        case .errors: "errors"
        }
    }

    /// `NAME=LIMIT`, as `--budget` takes it: `map-idle=2s`, `bytes=5MB`, `requests.tile=40`.
    public var description: String {
        let written: String
        switch metric {
        case .milestone: written = SimTime(microseconds: limit).shortDescription.replacingOccurrences(of: " ", with: "")
        case .bytes:
            let units: [(Int64, String)] = [(1_000_000_000, "GB"), (1_000_000, "MB"), (1_000, "KB")]
            written = units.first { limit >= $0.0 && limit % $0.0 == 0 }.map { "\(limit / $0.0)\($0.1)" } ?? "\(limit)B"
        case .requests, .errors: written = String(limit)
        }
        return "\(name)=\(written)"
    }

    /// The figure this budget limits in `summary`; nil for a milestone that never came.
    public func measure(_ summary: LoadSummary) -> Int64? {
        switch metric {
        case .milestone(.styleLoaded): summary.styleLoaded?.microseconds
        case .milestone(.mapLoaded): summary.mapLoaded?.microseconds
        case .milestone(.mapIdle): summary.mapIdle?.microseconds
        case .requests(let kind): Int64(kind.map { summary.traffic(of: $0).requests } ?? summary.total.requests)
        case .bytes(let kind): Int64(kind.map { summary.traffic(of: $0).bytes } ?? summary.total.bytes)
        case .errors: Int64(summary.errors.count)
        }
    }

    /// Whether `summary` keeps within this budget, and the line that says so.
    public func check(_ summary: LoadSummary) -> BudgetVerdict {
        let value = measure(summary)
        return BudgetVerdict(budget: self, value: value, isMet: value.map { $0 <= limit } ?? false)
    }

    /// A figure of `metric` for people: `333.3 ms`, `1.2 MB`, `12`.
    static func text(_ value: Int64, of metric: Metric) -> String {
        switch metric {
        case .milestone: SimTime(microseconds: value).shortDescription
        case .bytes: ByteCount.format(Int(value))
        case .requests, .errors: String(value)
        }
    }
}

/// How a load fared against one budget.
public struct BudgetVerdict: Sendable, Equatable {
    /// The budget.
    public var budget: LoadBudget
    /// The figure measured; nil for a milestone that never came.
    public var value: Int64?
    /// Whether the figure is within the limit.
    public var isMet: Bool

    /// One line naming the budget, the figure and the limit: `budget map-idle: 333.3 ms > 100 ms`,
    /// `budget requests.tile: 4 ≤ 40`, `budget map-idle: never reached, limit 2 s`.
    public var line: String {
        let limit = LoadBudget.text(budget.limit, of: budget.metric)
        guard let value else { return "budget \(budget.name): never reached, limit \(limit)" }
        return "budget \(budget.name): \(LoadBudget.text(value, of: budget.metric)) \(isMet ? "≤" : ">") \(limit)"
    }
}
