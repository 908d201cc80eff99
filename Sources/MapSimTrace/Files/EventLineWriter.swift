import MapSim
import MapSimJSON
import Synchronization

/// Writes events to a file as JSON lines, one `MapEvent.jsonLine` per line, buffered, through an
/// `OutputFile` (so `-` is standard output, links are followed and devices written through). Every
/// line is complete before the next begins.
public final class EventLineWriter: Sendable {
    private struct State {
        var buffer: [UInt8] = []
        var failure: TraceError?
    }

    private let file: OutputFile
    private let state: Mutex<State>
    private let flushThreshold: Int

    /// Opens `path` for writing; `header`, if given, is its first line. A `streamed` file (a live
    /// recording) is written in place, each line as it comes, so that `tail -f` follows it; else
    /// lines are buffered and the file put in place whole at the end.
    public init(path: String, header: JSONObject? = nil, streamed: Bool = false) throws(TraceError) {
        file = try OutputFile(path: path, streamed: streamed)
        flushThreshold = streamed ? 1 : 64 * 1024
        state = Mutex(State(buffer: header.map { Array((JSONWriter.string(.object($0)) + "\n").utf8) } ?? []))
    }

    /// Appends one event.
    public func write(_ event: MapEvent) {
        state.withLock { state in
            event.appendJSONLine(to: &state.buffer)
            state.buffer.append(0x0A)
            if state.buffer.count >= flushThreshold { flush(&state) }
        }
    }

    /// Writes what is buffered and puts the file in place; throws if any write failed.
    public func close() throws(TraceError) {
        let failure = state.withLock { state -> TraceError? in
            flush(&state)
            return state.failure
        }
        if let failure { throw failure }
        try file.close()
    }

    private func flush(_ state: inout State) {
        guard !state.buffer.isEmpty, state.failure == nil else { return }
        do {
            try file.write(state.buffer)
        } catch {
            state.failure = error
        }
        state.buffer.removeAll(keepingCapacity: true)
    }
}
