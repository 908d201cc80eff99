import MapSim
import MapSimJSON

/// A golden trace and a new run side by side, as a scenario's page shows them: the events paired
/// as `diff` pairs them (a longest common subsequence of their lines), each pair marked the same,
/// changed (an event of the same type whose fields differ), only in the golden trace or only in
/// the new run.
public struct TraceSideBySide: Sendable {
    /// How a pair differs.
    public enum Mark: Int, Sendable {
        case same = 0
        case changed = 1
        case onlyGolden = 2
        case onlyNew = 3
    }

    /// The pairs: an index into the golden events, one into the new events (nil where a side has
    /// none), and how they differ.
    public private(set) var pairs: [(golden: Int?, new: Int?, mark: Mark)] = []
    private let golden: Trace
    private let new: Trace

    /// `golden` and `new` paired.
    public init(golden: Trace, new: Trace) {
        self.golden = golden
        self.new = new
        let a = golden.events.map(\.jsonLine)
        let b = new.events.map(\.jsonLine)
        var i = 0
        var j = 0
        for (mi, mj) in TraceDiff.commonSubsequence(a, b) + [(a.count, b.count)] {
            let removed = Array(i..<mi)
            let added = Array(j..<mj)
            var pairedAdded: Set<Int> = []
            for (offset, index) in removed.enumerated() {
                if offset < added.count, golden.events[index].type == new.events[added[offset]].type {
                    pairs.append((index, added[offset], .changed))
                    pairedAdded.insert(added[offset])
                } else {
                    pairs.append((index, nil, .onlyGolden))
                }
            }
            for index in added where !pairedAdded.contains(index) { pairs.append((nil, index, .onlyNew)) }
            if mi < a.count { pairs.append((mi, mj, .same)) }
            i = mi + 1
            j = mj + 1
        }
    }

    /// The pairs and both sides' events as the page reads them.
    public var json: JSONObject {
        JSONObject([
            ("pairs", .array(pairs.map { .array([.number(Double($0.golden ?? -1)), .number(Double($0.new ?? -1)), .number(Double($0.mark.rawValue))]) })),
            ("golden", .array(golden.events.map { .string(Self.line($0)) })),
            ("actual", .array(new.events.map { .string(Self.line($0)) })),
        ])
    }

    /// An event as one line: its time, type and payload.
    static func line(_ event: MapEvent) -> String {
        let data = event.payload.data
        return "\(event.end) \(event.type.rawValue)" + (data.members.isEmpty ? "" : " " + JSONWriter.string(.object(data)))
    }
}
