import MapSim
import MapSimJSON
import Synchronization

/// Writes events to a file as JSON lines, one `MapEvent.jsonLine` per line, through an `OutputFile`
/// (so `-` is standard output, links are followed and devices written through). The file is written
/// in place, so that `tail -f` follows it and a killed run leaves every line it wrote — whole lines:
/// each write carries whole lines. By default each line goes out as it happens; a writer made with
/// a `batchInterval` (a server answering thousands of requests a second) gathers lines and writes
/// them at most that long after the first of them came, so a kill loses at most that interval.
public final class EventLineWriter: Sendable {
    private struct State {
        var buffer: [UInt8] = []
        var failure: TraceError?
        /// When the buffer was last written out.
        var lastFlush = ContinuousClock.now
        /// Whether a flush is already scheduled for the lines gathered.
        var flushScheduled = false
        var closed = false
    }

    private let file: OutputFile
    private let state: Mutex<State>
    private let batchInterval: Duration?

    /// Opens `path` for writing; `header`, if given, is its first line. A file already there is
    /// replaced only when it is an events file or trace of mapsim's (`OwnedFormat.eventLines`).
    /// With `batchInterval`, lines are written together, none later than that after it came.
    public init(path: String, header: JSONObject? = nil, batchInterval: Duration? = nil) throws(TraceError) {
        file = try OutputFile(path: path, format: header == nil ? .eventLines : .trace, streamed: true)
        self.batchInterval = batchInterval
        state = Mutex(State(buffer: header.map { Array((JSONWriter.string(.object($0)) + "\n").utf8) } ?? []))
        state.withLock { flush(&$0) }
    }

    /// Appends one event.
    public func write(_ event: MapEvent) {
        // Written out of the lock: threads that record at once (a server's event loops) wait for
        // each other only to append, not to encode.
        var line: [UInt8] = []
        line.reserveCapacity(Self.typicalLineSize)
        event.appendJSONLine(to: &line)
        line.append(0x0A)
        let due: Duration? = state.withLock { state in
            state.buffer.append(contentsOf: line)
            guard let batchInterval else {
                flush(&state)
                return nil
            }
            let waited = ContinuousClock.now - state.lastFlush
            if waited >= batchInterval {
                flush(&state)
                return nil
            }
            guard !state.flushScheduled else { return nil }
            state.flushScheduled = true
            return batchInterval - waited
        }
        guard let due else { return }
        Task.detached { [self] in
            try? await Task.sleep(for: due)
            state.withLock { state in
                state.flushScheduled = false
                flush(&state)
            }
        }
    }

    /// Room for most event lines (a request's is about 500 bytes), so one is written without growing.
    private static let typicalLineSize = 1024

    /// Writes out the lines gathered and closes the file; throws if any write failed.
    public func close() throws(TraceError) {
        let failure = state.withLock { state -> TraceError? in
            flush(&state)
            state.closed = true
            return state.failure
        }
        if let failure { throw failure }
        try file.close()
    }

    private func flush(_ state: inout State) {
        state.lastFlush = ContinuousClock.now
        guard !state.buffer.isEmpty, state.failure == nil, !state.closed else { return }
        do {
            try file.write(state.buffer)
        } catch {
            state.failure = error
        }
        state.buffer.removeAll(keepingCapacity: true)
    }
}
