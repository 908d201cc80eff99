import MapSim
import MapSimJSON

/// Compares two traces event by event and says, compactly, which event and which field differ.
public struct TraceDiff: Sendable, Equatable {
    /// One difference.
    public struct Difference: Sendable, Equatable, CustomStringConvertible {
        /// The 1-based position of the event in the expected trace (or where it would be).
        public var index: Int
        /// What differs.
        public var detail: String

        /// `event N: detail`; a difference of no one event (headers, requests compared as a whole) is its detail.
        public var description: String { index == 0 ? detail : "event \(index): \(detail)" }
    }

    /// Every difference, in trace order (headers first).
    public var differences: [Difference]

    /// Whether the traces agree.
    public var isEmpty: Bool { differences.isEmpty }

    /// Whether only the requests were compared: with `relaxed`, when one trace holds nothing but
    /// requests (a `mapsim serve` recording of a real client).
    public private(set) var comparedRequestsOnly = false

    /// Compares the events of `actual` with those of `expected`; the headers (scenario and seed;
    /// never the mapsim version) only with `compareHeaders`. `relaxed` is for runs on the real
    /// network: it ignores timings, frames (their number follows the timings) and the order of the
    /// events between two consecutive milestones (`RelaxedComparison`); when one of the traces holds
    /// nothing but requests — what `mapsim serve` records of a real client — it compares the
    /// requests alone (`RequestComparison`).
    public init(expected: Trace, actual: Trace, relaxed: Bool = false, compareHeaders: Bool = false) {
        var differences: [Difference] = []
        if compareHeaders && (expected.header.scenario != actual.header.scenario || expected.header.seed != actual.header.seed) {
            differences.append(Difference(index: 0, detail: "header: scenario \(expected.header.scenario) seed \(expected.header.seed) → scenario \(actual.header.scenario) seed \(actual.header.seed)"))
        }
        if relaxed {
            if RequestComparison.isRequestsOnly(expected.events) || RequestComparison.isRequestsOnly(actual.events) {
                comparedRequestsOnly = true
                self.differences = differences + RequestComparison(expected: expected.events, actual: actual.events).differences
                return
            }
            self.differences = differences + RelaxedComparison(expected: expected.events, actual: actual.events).differences
            return
        }
        let expectedEvents = expected.events
        let actualEvents = actual.events
        let a = expectedEvents.map(\.jsonLine)
        let b = actualEvents.map(\.jsonLine)
        // Runs of events only in one trace, between events both share; a run of changed events of
        // the same types is reported field by field, anything else as missing or unexpected events.
        var i = 0
        var j = 0
        let matches = Self.commonSubsequence(a, b)
        for (mi, mj) in matches + [(a.count, b.count)] {
            let removed = Array(expectedEvents[i..<mi])
            let added = Array(actualEvents[j..<mj])
            if removed.count == added.count, zip(removed, added).allSatisfy({ $0.type == $1.type }) {
                for (offset, pair) in zip(removed, added).enumerated() {
                    let fields = Self.fieldDifferences(.object(pair.0.jsonObject), .object(pair.1.jsonObject), path: "")
                    differences.append(Difference(index: i + offset + 1, detail: "\(pair.0.type.rawValue) at \(pair.0.end): " + fields.joined(separator: "; ")))
                }
            } else {
                for (offset, event) in removed.enumerated() {
                    differences.append(Difference(index: i + offset + 1, detail: "missing \(Self.summary(event))"))
                }
                for event in added {
                    differences.append(Difference(index: mi + 1, detail: "unexpected \(Self.summary(event))"))
                }
            }
            i = mi + 1
            j = mj + 1
        }
        self.differences = differences
    }

    /// The differences as lines, at most `limit` of them.
    public func lines(limit: Int = 20) -> [String] {
        let shown = differences.prefix(limit).map(\.description)
        return differences.count > limit ? shown + ["... and \(differences.count - limit) more differences"] : shown
    }

    /// The index pairs of a longest common subsequence of `a` and `b` (after their common prefix and
    /// suffix); past 4,000 events in between, events pair up by position.
    static func commonSubsequence(_ a: [String], _ b: [String]) -> [(Int, Int)] {
        var prefix = 0
        while prefix < min(a.count, b.count), a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(a.count, b.count) - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let head = (0..<prefix).map { ($0, $0) }
        let tail = (0..<suffix).reversed().map { (a.count - 1 - $0, b.count - 1 - $0) }
        let n = a.count - prefix - suffix
        let m = b.count - prefix - suffix
        guard n > 0, m > 0 else { return head + tail }
        guard n <= 4_000, m <= 4_000 else {
            return head + (0..<min(n, m)).filter { a[prefix + $0] == b[prefix + $0] }.map { (prefix + $0, prefix + $0) } + tail
        }
        var lengths = [[UInt16]](repeating: [UInt16](repeating: 0, count: m + 1), count: n + 1)
        for x in stride(from: n - 1, through: 0, by: -1) {
            for y in stride(from: m - 1, through: 0, by: -1) {
                lengths[x][y] = a[prefix + x] == b[prefix + y] ? lengths[x + 1][y + 1] + 1 : max(lengths[x + 1][y], lengths[x][y + 1])
            }
        }
        var middle: [(Int, Int)] = []
        var x = 0
        var y = 0
        while x < n && y < m {
            if a[prefix + x] == b[prefix + y] {
                middle.append((prefix + x, prefix + y))
                x += 1
                y += 1
            } else if lengths[x + 1][y] >= lengths[x][y + 1] {
                x += 1
            } else {
                y += 1
            }
        }
        return head + middle + tail
    }

    private static func summary(_ event: MapEvent) -> String {
        "\(event.type.rawValue) at \(event.end): \(JSONWriter.string(.object(event.payload.data)))"
    }

    /// The paths that differ between two JSON values, as `path: old → new`.
    static func fieldDifferences(_ lhs: JSONValue, _ rhs: JSONValue, path: String) -> [String] {
        switch (lhs, rhs) {
        case let (.object(a), .object(b)):
            var result: [String] = []
            for key in a.keys + b.keys.filter({ a[$0] == nil }) {
                let child = path.isEmpty ? key : "\(path).\(key)"
                switch (a[key], b[key]) {
                case let (x?, y?): result += fieldDifferences(x, y, path: child)
                case let (x?, nil): result.append("\(child): \(JSONWriter.string(x)) → (absent)")
                case let (nil, y?): result.append("\(child): (absent) → \(JSONWriter.string(y))")
                case (nil, nil): break
                }
            }
            return result
        case let (.array(a), .array(b)) where a.count == b.count:
            return zip(a, b).enumerated().flatMap { fieldDifferences($1.0, $1.1, path: "\(path)[\($0)]") }
        default:
            return lhs == rhs ? [] : ["\(path): \(JSONWriter.string(lhs)) → \(JSONWriter.string(rhs))"]
        }
    }
}
