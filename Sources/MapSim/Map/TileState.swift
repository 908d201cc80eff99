import MapSimJSON
import MapSimStyle

/// One tile of a source.
struct TileState: Sendable {
    enum Status: Sendable, Equatable {
        case loading(RequestID)
        /// The data is here; glyphs are not yet asked for.
        case parsing
        case waitingForGlyphs(Set<GlyphRangeKey>)
        case loaded
        case failed
    }

    var status: Status
    var content: TileContent?
    /// Whether a frame has drawn it (its fade-in has started).
    var rendered = false

    var isComplete: Bool {
        status == .loaded || status == .failed
    }
}

extension TileState {
    /// Tiles sort by the request that loads them, so cancellations come out in request order.
    var requestOrder: Int {
        if case .loading(let id) = status { return id.value }
        return Int.max
    }
}
