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

    /// The chain of `requests` (in the order they were answered) that leads to `milestone` at `time`.
    public init(requests: [LoadSummary.RequestSpan], milestone: Map.State, at time: SimTime) {
        self.milestone = milestone
        self.time = time
        let answered = requests.enumerated().filter { !$0.element.cancelled && $0.element.end <= time }.map { Answered(offset: $0.offset, span: $0.element) }
        guard var current = answered.max(by: { ($0.span.end, $0.offset) < ($1.span.end, $1.offset) }) else {
            steps = []
            return
        }
        let index = Index(answered)
        var chain = [current.span]
        while let cause = index.cause(of: current) {
            chain.append(cause.span)
            current = cause
        }
        steps = chain.reversed()
    }

    /// A request answered before the milestone, with its place in the order of answers.
    private struct Answered {
        var offset: Int
        var span: LoadSummary.RequestSpan
    }

    /// The answered requests ordered for finding causes quickly: by end (then order), and the
    /// failures of each URL — so that a chain through 100,000 requests is found in moments.
    private struct Index {
        let byEnd: [Answered]
        let failuresByURL: [String: [Answered]]

        init(_ answered: [Answered]) {
            byEnd = answered.sorted { ($0.span.end, $0.offset) < ($1.span.end, $1.offset) }
            failuresByURL = Dictionary(grouping: answered.filter(\.span.failed), by: \.span.url)
        }

        /// The request whose arrival let `request` start — among those answered before it and
        /// ended by its start, a failed attempt of its URL (the wait was a retry), else, latest
        /// answers first, one of a kind that causes it, else one under way before it started (it
        /// freed the slot the request waited for); nil for the first.
        func cause(of request: Answered) -> Answered? {
            let begin = request.span.begin
            if let retried = failuresByURL[request.span.url]?.last(where: { $0.offset < request.offset && $0.span.end <= begin }) { return retried }
            let rank = CriticalPath.causalRank(request.span.kind)
            // The last answer ended by `begin`.
            var low = 0
            var high = byEnd.count
            while low < high {
                let middle = (low + high) / 2
                if byEnd[middle].span.end <= begin { low = middle + 1 } else { high = middle }
            }
            var position = low - 1
            while position >= 0 {
                let end = byEnd[position].span.end
                var first = position
                while first > 0 && byEnd[first - 1].span.end == end { first -= 1 }
                let group = byEnd[first...position].filter { $0.offset < request.offset }
                if let cause = group.last(where: { CriticalPath.causalRank($0.span.kind) < rank }) { return cause }
                if let waited = group.last(where: { $0.span.begin < begin }) { return waited }
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
