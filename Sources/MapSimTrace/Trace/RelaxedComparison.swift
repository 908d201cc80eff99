import MapSim
import MapSimJSON

/// Compares two runs of the same load on the real network, where timings and the order of
/// requests in flight together vary from run to run: the milestones (style-data-loaded,
/// style-loaded, source metadata, source-added/removed, map-loaded, map-idle) must come in the same
/// order, and the events between two consecutive milestones must be the same multiset — their times,
/// render frames and which tile happened to complete the view (`loaded`) are not compared.
struct RelaxedComparison {
    private(set) var differences: [TraceDiff.Difference] = []

    init(expected: [MapEvent], actual: [MapEvent]) {
        let a = Self.segments(expected)
        let b = Self.segments(actual)
        for index in 0..<max(a.count, b.count) {
            let left = index < a.count ? a[index] : nil
            let right = index < b.count ? b[index] : nil
            let place = (left ?? right)?.milestone.map { "after \($0)" } ?? "before the first milestone"
            if let left, let right, left.milestone != right.milestone {
                differences.append(.init(index: index + 1, detail: "milestone \(left.milestone ?? "(start)") → \(right.milestone ?? "(start)")"))
                continue
            }
            var remaining = right?.events ?? [:]
            for (key, count) in (left?.events ?? [:]).sorted(by: { $0.key < $1.key }) {
                let other = remaining.removeValue(forKey: key) ?? 0
                if count > other { differences.append(.init(index: index + 1, detail: "\(place): missing \(count - other)× \(key)")) }
                if other > count { differences.append(.init(index: index + 1, detail: "\(place): \(other - count) more × \(key)")) }
            }
            for (key, count) in remaining.sorted(by: { $0.key < $1.key }) {
                differences.append(.init(index: index + 1, detail: "\(place): unexpected \(count)× \(key)"))
            }
        }
    }

    private struct Segment {
        var milestone: String?
        var events: [String: Int] = [:]
    }

    /// The events cut at each milestone, each stretch as a multiset of events without their times.
    private static func segments(_ events: [MapEvent]) -> [Segment] {
        var segments = [Segment(milestone: nil)]
        for event in events {
            switch event.payload {
            case .renderFrameStarted, .renderFrameFinished:
                continue
            case .styleDataLoaded, .styleLoaded, .mapLoaded, .mapIdle, .sourceAdded, .sourceRemoved:
                segments.append(Segment(milestone: key(event)))
            case .sourceDataLoaded(let loaded) where loaded.type == .metadata:
                segments.append(Segment(milestone: key(event)))
            default:
                segments[segments.count - 1].events[key(event), default: 0] += 1
            }
        }
        return segments
    }

    /// The event without its times (and without the `loaded` flag of a tile, which says only which
    /// tile happened to come last).
    private static func key(_ event: MapEvent) -> String {
        var data = event.payload.data
        if case .sourceDataLoaded(let loaded) = event.payload, loaded.type == .tile { data["loaded"] = nil }
        return "\(event.type.rawValue) \(JSONWriter.string(.object(data)))"
    }
}
