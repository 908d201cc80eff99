import MapSim
import MapSimJSON
import MapSimPages
import Synchronization

/// The requests `mapsim serve` answered, as its page's waterfall shows them: the newest
/// `capacity` rows (`RequestRow`), each numbered from the server's start, so that a page asks for
/// what came after the last one it has. Older rows are dropped, so a server that runs for days keeps
/// a bounded amount.
final class ServedRequestLog: Sendable {
    private struct State {
        /// The rows kept, as JSON text.
        var rows: [String] = []
        /// How many rows were dropped from the front.
        var dropped = 0
    }

    /// The most rows kept.
    let capacity: Int
    private let state = Mutex(State())

    /// A log keeping at most `capacity` rows.
    init(capacity: Int = 20_000) {
        self.capacity = max(capacity, 1)
    }

    /// Adds the row of a `resource-request` event (other events are not requests).
    func record(_ event: MapEvent) {
        guard case .resourceRequest(let request) = event.payload else { return }
        let url = request.request.url
        let origin = url.range(of: "://").flatMap { scheme in url[scheme.upperBound...].firstIndex(of: "/") }.map { String(url[..<$0]) + "/" } ?? ""
        guard let row = RequestRow.row(event, naming: ResourcePath(base: origin)) else { return }
        let text = JSONWriter.string(row)
        state.withLock { state in
            state.rows.append(text)
            // Dropped a tenth at a time, so that dropping costs little per row.
            if state.rows.count > capacity {
                let excess = min(state.rows.count - capacity + capacity / 10, state.rows.count)
                state.rows.removeFirst(excess)
                state.dropped += excess
            }
        }
    }

    /// The rows numbered `after` and later (0 for all), as the page reads them:
    /// `{"rows": [...], "next": N, "dropped": D, "now": µs}`; `now` is the server's time.
    func json(after: Int, now: SimTime) -> String {
        state.withLock { state in
            let total = state.dropped + state.rows.count
            let start = min(max(after - state.dropped, 0), state.rows.count)
            var output = "{\"rows\":["
            output += state.rows[start...].joined(separator: ",")
            output += "],\"next\":\(total),\"dropped\":\(state.dropped),\"now\":\(now.microseconds)}"
            return output
        }
    }
}
