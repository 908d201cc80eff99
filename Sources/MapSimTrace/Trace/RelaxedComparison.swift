import MapSim
import MapSimJSON

/// Compares two runs of the same load where what varies from run to run is not the map's doing:
/// on the real network answers come in another order and at other times, a warm cache answers what
/// a cold one fetched, and the server may listen on another port or the style be loaded from its
/// file instead.
///
/// - Requests compare by what each resource got — its kind, its path below the trace's base (by
///   default the folder of the style it loaded: `ResourcePath`), and the outcomes of its attempts
///   in order (`ok SIZE`, `no-content` — a tile not found too, as the map takes it —, an error's
///   reason; no size for the style and TileJSONs, which servers rewrite) — not by when they came or who answered
///   (network, cache, file): a cached copy confirmed by a 304 is the copy, and cancellations
///   count only for a resource that got nothing else.
/// - The milestones (style-data-loaded of the style, style-loaded, map-loaded, map-idle) must come
///   in the same order; every other event — sprite and source metadata, which load in parallel,
///   tiles, errors — must happen between the same two map-idles, in any order (a partial order:
///   what the load sequence orders, in order; what it runs in parallel, as a set). How often a
///   failing request was retried before the map settled depends on the network's timing: a
///   repeated answer or event counts once.
/// - Fields that come from the wall clock (`expires`, `modified`, `etag`), render frames and
///   which tile happened to complete a view (`loaded`) are left out; URLs in messages are named by
///   their paths too.
///
/// When one trace holds nothing but requests — what `mapsim serve` records of a real client — only
/// the requests are compared.
struct RelaxedComparison {
    private(set) var differences: [TraceDifference] = []
    private(set) var comparedRequestsOnly = false

    init(expected: Trace, actual: Trace, bases: (String?, String?)) {
        let namingA = ResourcePath(base: bases.0 ?? TraceDiff.styleURL(of: expected.events) ?? "")
        let namingB = ResourcePath(base: bases.1 ?? TraceDiff.styleURL(of: actual.events) ?? "")
        if Self.isRequestsOnly(expected.events) || Self.isRequestsOnly(actual.events) {
            comparedRequestsOnly = true
            let a = RunShape(expected.events, naming: namingA, requestsOnly: true)
            let b = RunShape(actual.events, naming: namingB, requestsOnly: true)
            differences = Self.compareRequests(a.segments.first?.requests ?? [], b.segments.first?.requests ?? [], prefix: "")
            return
        }
        let a = RunShape(expected.events, naming: namingA, requestsOnly: false)
        let b = RunShape(actual.events, naming: namingB, requestsOnly: false)
        for index in 0..<max(a.segments.count, b.segments.count) {
            let left = index < a.segments.count ? a.segments[index] : RunShape.Segment()
            let right = index < b.segments.count ? b.segments[index] : RunShape.Segment()
            let prefix = index == 0 ? "" : "after map-idle \(index): "
            differences += Self.compareMilestones(left.milestones, right.milestones, prefix: prefix)
            differences += Self.compareRequests(left.requests, right.requests, prefix: prefix)
            differences += Self.compareEvents(left, right, prefix: prefix)
        }
    }

    /// Whether `events` are a recording of requests only (no milestone, no frame), as `mapsim serve` writes.
    static func isRequestsOnly(_ events: [MapEvent]) -> Bool {
        !events.isEmpty && events.allSatisfy { if case .resourceRequest = $0.payload { true } else { false } }
    }

    private static func compareMilestones(_ a: [String], _ b: [String], prefix: String) -> [TraceDifference] {
        guard a != b else { return [] }
        var differences: [TraceDifference] = []
        for name in (a + b.filter { !a.contains($0) }).reduce(into: [String](), { if !$0.contains($1) { $0.append($1) } }) {
            let inA = a.count { $0 == name }
            let inB = b.count { $0 == name }
            if inA != inB {
                differences.append(.init(group: "milestones", subject: prefix + name, expected: inA == 0 ? nil : inA == 1 ? "" : "\(inA)×",
                                         actual: inB == 0 ? nil : inB == 1 ? "" : "\(inB)×"))
            }
        }
        if differences.isEmpty {
            differences.append(.init(group: "milestones", subject: prefix + "order", expected: a.joined(separator: ", "), actual: b.joined(separator: ", ")))
        }
        return differences
    }

    private static func compareRequests(_ a: [RunShape.Resource], _ b: [RunShape.Resource], prefix: String) -> [TraceDifference] {
        var differences: [TraceDifference] = []
        let inB = Dictionary(b.map { ($0.kind + " " + $0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let inA = Set(a.map { $0.kind + " " + $0.path })
        for resource in a {
            guard let other = inB[resource.kind + " " + resource.path] else {
                differences.append(.init(group: resource.kind, subject: prefix + resource.path, expected: resource.outcomes, actual: nil))
                continue
            }
            if resource.outcomes != other.outcomes {
                differences.append(.init(group: resource.kind, subject: prefix + resource.path, expected: resource.outcomes, actual: other.outcomes))
            }
        }
        for resource in b where !inA.contains(resource.kind + " " + resource.path) {
            differences.append(.init(group: resource.kind, subject: prefix + resource.path, expected: nil, actual: resource.outcomes))
        }
        return differences
    }

    private static func compareEvents(_ a: RunShape.Segment, _ b: RunShape.Segment, prefix: String) -> [TraceDifference] {
        a.events.filter { !b.seen.contains($0) }.map { TraceDifference(group: $0.type, subject: prefix + $0.key, expected: "", actual: nil) }
            + b.events.filter { !a.seen.contains($0) }.map { TraceDifference(group: $0.type, subject: prefix + $0.key, expected: nil, actual: "") }
    }
}
