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
        let answered = requests.enumerated().filter { !$0.element.cancelled && $0.element.end <= time }
        guard var current = answered.max(by: { ($0.element.end, $0.offset) < ($1.element.end, $1.offset) }) else {
            steps = []
            return
        }
        var chain = [current.element]
        while let cause = Self.cause(of: current, among: answered) {
            chain.append(cause.element)
            current = cause
        }
        steps = chain.reversed()
    }

    /// The request whose arrival let `request` start; nil for the first.
    private static func cause(of request: (offset: Int, element: LoadSummary.RequestSpan),
                              among answered: [(offset: Int, element: LoadSummary.RequestSpan)]) -> (offset: Int, element: LoadSummary.RequestSpan)? {
        let before = answered.filter { $0.offset < request.offset && $0.element.end <= request.element.begin }
        if let retried = before.last(where: { $0.element.url == request.element.url && $0.element.failed }) { return retried }
        // Latest answers first; at one instant, a request of a kind that causes this one. Requests of
        // its own kind that started with it are its siblings, not its cause; one that was under way
        // before it started and ended as it started freed the slot it waited for.
        let rank = causalRank(request.element.kind)
        var remaining = before[...]
        while let latest = remaining.map(\.element.end).max() {
            let group = remaining.filter { $0.element.end == latest }
            if let cause = group.last(where: { causalRank($0.element.kind) < rank }) { return cause }
            if let waited = group.last(where: { $0.element.begin < request.element.begin }) { return waited }
            remaining = remaining.filter { $0.element.end < latest }
        }
        return nil
    }

    /// Where a kind stands in the load sequence: a request is caused by one of a lower rank.
    private static func causalRank(_ kind: Resource.Kind) -> Int {
        switch kind {
        case .style: 0
        case .source, .spriteJSON, .spriteImage, .unknown: 1
        case .tile, .image: 2
        case .glyphs: 3
        }
    }
}
