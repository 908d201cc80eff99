import MapSim
import MapSimJSON

/// Compares two traces and says, one line per difference, which resource, event or field differs.
public struct TraceDiff: Sendable, Equatable {
    /// Every difference, grouped by kind (headers, milestones, resource kinds in load order, event
    /// types), in trace order within a group.
    public private(set) var differences: [TraceDifference]

    /// Whether the traces agree.
    public var isEmpty: Bool { differences.isEmpty }

    /// Whether only the requests were compared: with `relaxed`, when one trace holds nothing but
    /// requests (a `mapsim serve` recording of a real client).
    public private(set) var comparedRequestsOnly = false

    /// Compares the events of `actual` (B) with those of `expected` (A); the headers (scenario, seed
    /// and engine; never the mapsim version) only with `compareHeaders`.
    ///
    /// Strictly, every field of every event counts, each event paired with its counterpart by what
    /// it is (`strictDifferences`). `relaxed` is for runs on the real network
    /// (`RelaxedComparison`): requests compare by what each resource got, parallel work as a
    /// partial order, wall-clock fields left out, URLs relative to each trace's base — by default
    /// the folder of the style it loaded (`bases` to give others: A's and B's); when one of the
    /// traces holds nothing but requests — what `mapsim serve` records of a real client — only the
    /// requests are compared.
    public init(expected: Trace, actual: Trace, relaxed: Bool = false, compareHeaders: Bool = false, bases: (String?, String?) = (nil, nil)) {
        var differences: [TraceDifference] = []
        if compareHeaders {
            let a = expected.header
            let b = actual.header
            if a.scenario != b.scenario { differences.append(.init(group: "headers", subject: "scenario", expected: a.scenario, actual: b.scenario)) }
            if a.seed != b.seed { differences.append(.init(group: "headers", subject: "seed", expected: String(a.seed), actual: String(b.seed))) }
            if a.engine != b.engine { differences.append(.init(group: "headers", subject: "engine", expected: a.engine, actual: b.engine)) }
            if a.view != b.view {
                differences.append(.init(group: "headers", subject: "view", expected: a.view.map { JSONWriter.string(.object($0)) } ?? "(none)",
                                         actual: b.view.map { JSONWriter.string(.object($0)) } ?? "(none)"))
            }
        }
        if relaxed {
            let comparison = RelaxedComparison(expected: expected, actual: actual, bases: bases)
            comparedRequestsOnly = comparison.comparedRequestsOnly
            differences += comparison.differences
        } else {
            differences += Self.strictDifferences(expected.events, actual.events)
        }
        // Grouped: headers, milestones, resource kinds in load order, then event types as first met.
        var firstSeen: [String: Int] = [:]
        for (offset, difference) in differences.enumerated() where firstSeen[difference.group] == nil { firstSeen[difference.group] = offset }
        self.differences = differences.enumerated()
            .sorted { lhs, rhs in
                (TraceDifference.groupRank(lhs.element.group), firstSeen[lhs.element.group] ?? 0, lhs.offset)
                    < (TraceDifference.groupRank(rhs.element.group), firstSeen[rhs.element.group] ?? 0, rhs.offset)
            }
            .map(\.element)
    }

    /// The differences as lines, at most `limit` of them, then how many more there are.
    public func lines(limit: Int = 20) -> [String] {
        let shown = differences.prefix(limit).map(\.description)
        return differences.count > limit ? shown + ["... and \(differences.count - limit) more"] : shown
    }

    /// `N differences: tile 2, map-loading-error 1` — the count, by group.
    public var countLine: String {
        var groups: [(String, Int)] = []
        for difference in differences {
            if let index = groups.firstIndex(where: { $0.0 == difference.group }) { groups[index].1 += 1 } else { groups.append((difference.group, 1)) }
        }
        let noun = differences.count == 1 ? "difference" : "differences"
        return "\(differences.count) \(noun): " + groups.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }

    // MARK: - Event by event

    /// Events pair up by what they are — a request by its kind and path below its trace's style
    /// (then by its whole URL: two styles in two folders that load the same files), another event
    /// by its type and payload (then by its type alone) — the first with the first, wherever they
    /// fall: two runs over a network order their events differently, and a changed answer or time
    /// is then one line per field, not an event only in A and another only in B. What pairs with
    /// nothing is only in A or only in B.
    private static func strictDifferences(_ expectedEvents: [MapEvent], _ actualEvents: [MapEvent]) -> [TraceDifference] {
        let naming = ResourcePath(base: styleURL(of: expectedEvents) ?? "")
        let namingB = ResourcePath(base: styleURL(of: actualEvents) ?? "")
        let whole = ResourcePath(base: "")
        let keys: [(MapEvent, ResourcePath) -> String] = [
            { event, naming in pairingKey(event, naming: naming) },
            { event, _ in
                if case .resourceRequest = event.payload { pairingKey(event, naming: whole) } else { event.type.rawValue }
            },
        ]
        var pairs: [Int: Int] = [:]
        var pairedB: Set<Int> = []
        for key in keys {
            var waiting: [String: [Int]] = [:]
            for (j, event) in actualEvents.enumerated() where !pairedB.contains(j) { waiting[key(event, namingB), default: []].append(j) }
            for (i, old) in expectedEvents.enumerated() where pairs[i] == nil {
                let name = key(old, naming)
                guard let j = waiting[name]?.first else { continue }
                waiting[name]?.removeFirst()
                pairs[i] = j
                pairedB.insert(j)
            }
        }
        var differences: [TraceDifference] = []
        for (i, old) in expectedEvents.enumerated() {
            let (group, subject) = describe(old, index: i + 1, naming: naming)
            guard let j = pairs[i] else {
                differences.append(.init(group: group, subject: subject, expected: "", actual: nil, index: i + 1))
                continue
            }
            for field in fieldDifferences(.object(old.jsonObject), .object(actualEvents[j].jsonObject), path: "") {
                differences.append(.init(group: group, subject: subject, field: field.path, expected: field.old, actual: field.new, index: i + 1))
            }
        }
        for (j, event) in actualEvents.enumerated() where !pairedB.contains(j) {
            let (group, subject) = describe(event, index: j + 1, naming: namingB, inB: true)
            differences.append(.init(group: group, subject: subject, expected: nil, actual: ""))
        }
        return differences
    }

    /// The group and subject of an event: a request by its kind and path, another event by its type,
    /// position, time and payload.
    private static func describe(_ event: MapEvent, index: Int, naming: ResourcePath, inB: Bool = false) -> (String, String) {
        let place = "event \(index)\(inB ? " of B" : "") at \(event.end)"
        if case .resourceRequest(let request) = event.payload {
            return (request.request.kind.rawValue, "\(naming.path(of: request.request.url)) (\(place))")
        }
        let payload = event.payload.data
        return (event.type.rawValue, payload.members.isEmpty ? place : "\(place) \(JSONWriter.string(.object(payload)))")
    }

    /// What pairs an event with its counterpart in the other trace: a request's kind and path below
    /// its trace's style, another event's type and payload.
    private static func pairingKey(_ event: MapEvent, naming: ResourcePath) -> String {
        if case .resourceRequest(let request) = event.payload {
            return "\(request.request.kind.rawValue) \(naming.path(of: request.request.url))"
        }
        return "\(event.type.rawValue) \(JSONWriter.string(.object(event.payload.data)))"
    }

    /// The URL of the first style the events requested.
    static func styleURL(of events: [MapEvent]) -> String? {
        for event in events {
            if case .resourceRequest(let request) = event.payload, request.request.kind == .style { return request.request.url }
        }
        return nil
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

    /// The paths that differ between two JSON values, with each side's value (`(absent)` for none).
    static func fieldDifferences(_ lhs: JSONValue, _ rhs: JSONValue, path: String) -> [(path: String, old: String, new: String)] {
        switch (lhs, rhs) {
        case let (.object(a), .object(b)):
            var result: [(path: String, old: String, new: String)] = []
            for key in a.keys + b.keys.filter({ a[$0] == nil }) {
                let child = path.isEmpty ? key : "\(path).\(key)"
                switch (a[key], b[key]) {
                case let (x?, y?): result += fieldDifferences(x, y, path: child)
                case let (x?, nil): result.append((child, JSONWriter.string(x), "(absent)"))
                case let (nil, y?): result.append((child, "(absent)", JSONWriter.string(y)))
                case (nil, nil): break
                }
            }
            return result
        case let (.array(a), .array(b)) where a.count == b.count:
            return zip(a, b).enumerated().flatMap { fieldDifferences($1.0, $1.1, path: "\(path)[\($0)]") }
        default:
            return lhs == rhs ? [] : [(path, JSONWriter.string(lhs), JSONWriter.string(rhs))]
        }
    }
}
