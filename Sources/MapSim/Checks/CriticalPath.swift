/// What a milestone waited for: the chain of requests whose arrivals decided when it came — the
/// style, then the TileJSON or sprite that completed the style, then a tile, then a glyph range the
/// tile needed — each with its start and end, as a browser's performance panel draws the critical
/// request chain.
///
/// It is read off the requests' times: the last request answered before the milestone ends the
/// chain, and each request's cause is the request answered last before it started — a failed
/// attempt of the same URL first (the wait was a retry), else, among requests answered at the same
/// instant, one of a kind that can cause it (a glyph range is asked for when a tile arrives, a tile
/// when the style's sources and sprite are in, those when the style is in).
public struct CriticalPath: Sendable, Equatable {
    /// The milestone the chain leads to.
    public var milestone: Map.State
    /// When it came.
    public var time: SimTime
    /// The requests, the first (the style, usually) first.
    public var steps: [LoadSummary.RequestSpan]
    /// Each step's place among the requests the path was read from.
    public var offsets: [Int]

    /// The chain of `requests` (in the order they were answered) that leads to `milestone` at `time`.
    public init(requests: [LoadSummary.RequestSpan], milestone: Map.State, at time: SimTime) {
        self.milestone = milestone
        self.time = time
        // The requests answered by the milestone, by their places: a path through 100,000 requests
        // is found with a few bytes per request, not a copy of each.
        let answered = requests.indices.filter { !requests[$0].cancelled && requests[$0].end <= time }
        guard var current = answered.max(by: { (requests[$0].end, $0) < (requests[$1].end, $1) }) else {
            steps = []
            offsets = []
            return
        }
        let index = Index(requests, answered: answered)
        var chain = [current]
        while let cause = index.cause(of: current) {
            chain.append(cause)
            current = cause
        }
        offsets = chain.reversed()
        steps = offsets.map { requests[$0] }
    }

    /// The answered requests ordered for finding causes quickly: by end (then order), and the
    /// failures of each URL — so that a chain through 100,000 requests is found in moments. Each
    /// request is named by its place in `requests`.
    private struct Index {
        let requests: [LoadSummary.RequestSpan]
        let byEnd: [Int]
        let failuresByURL: [String: [Int]]

        init(_ requests: [LoadSummary.RequestSpan], answered: [Int]) {
            self.requests = requests
            byEnd = answered.sorted { (requests[$0].end, $0) < (requests[$1].end, $1) }
            var failures: [String: [Int]] = [:]
            for offset in answered where requests[offset].failed { failures[requests[offset].url, default: []].append(offset) }
            failuresByURL = failures
        }

        /// The request whose arrival let the request at `offset` start — among those answered
        /// before it and ended by its start, a failed attempt of its URL (the wait was a retry),
        /// else, latest answers first, one of a kind that causes it, else one under way before it
        /// started (it freed the slot the request waited for); nil for the first.
        func cause(of offset: Int) -> Int? {
            let request = requests[offset]
            let begin = request.begin
            if let retried = failuresByURL[request.url]?.last(where: { $0 < offset && requests[$0].end <= begin }) { return retried }
            let rank = CriticalPath.causalRank(request.kind)
            // The last answer ended by `begin`.
            var low = 0
            var high = byEnd.count
            while low < high {
                let middle = (low + high) / 2
                if requests[byEnd[middle]].end <= begin { low = middle + 1 } else { high = middle }
            }
            var position = low - 1
            while position >= 0 {
                let end = requests[byEnd[position]].end
                var first = position
                while first > 0 && requests[byEnd[first - 1]].end == end { first -= 1 }
                let group = byEnd[first...position].filter { $0 < offset }
                if let cause = group.last(where: { CriticalPath.causalRank(requests[$0].kind) < rank }) { return cause }
                if let waited = group.last(where: { requests[$0].begin < begin }) { return waited }
                position = first - 1
            }
            return nil
        }
    }

    /// Where a kind stands in the load sequence: a request is caused by one of a lower rank.
    fileprivate static func causalRank(_ kind: Resource.Kind) -> Int {
        switch kind {
        case .style: 0
        case .source, .spriteJSON, .spriteImage, .unknown, .model: 1
        case .tile, .image: 2
        case .glyphs: 3
        }
    }
}
