import MapSim
import MapSimJSON
import MapSimPages
import Synchronization

/// The requests `mapsim serve` answered, as its page's waterfall shows them: the newest
/// `capacity` rows (`RequestRow`), each numbered from the server's start, so that a page asks for
/// what came after the last one it has. Older rows are dropped, so a server that runs for days keeps
/// a bounded amount. Recording only keeps the event (without its body); a row's JSON is written
/// when a page asks for it, off the path that answers requests.
final class ServedRequestLog: Sendable {
    private struct State {
        /// The events of the rows kept, without their bodies.
        var rows: [MapEvent] = []
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
        guard case .resourceRequest(var request) = event.payload else { return }
        var kept = event
        // The body is not shown, only its size: the log does not hold every answer's bytes.
        if var response = request.response, let data = response.data {
            response.recordedSize = data.count
            response.data = nil
            request.response = response
            kept.payload = .resourceRequest(request)
        }
        state.withLock { state in
            state.rows.append(kept)
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
        let (rows, total, dropped) = state.withLock { state in
            let start = min(max(after - state.dropped, 0), state.rows.count)
            return (Array(state.rows[start...]), state.dropped + state.rows.count, state.dropped)
        }
        var output: [UInt8] = Array("{\"rows\":[".utf8)
        var first = true
        for event in rows {
            guard case .resourceRequest(let request) = event.payload else { continue }
            let url = request.request.url
            let origin = url.range(of: "://").flatMap { scheme in url[scheme.upperBound...].firstIndex(of: "/") }.map { String(url[..<$0]) + "/" } ?? ""
            guard case .resourceRequest = event.payload else { continue }
            if !first { output.append(0x2C) }
            first = false
            RequestRow.write(event, naming: ResourcePath(base: origin), into: &output)
        }
        output += Array("],\"next\":\(total),\"dropped\":\(dropped),\"now\":\(now.microseconds)}".utf8)
        return String(decoding: output, as: UTF8.self)
    }
}
