import MapSim
import MapSimJSON
import Synchronization

/// Writes events to a file as JSON lines, one `MapEvent.jsonLine` per line, through an `OutputFile`
/// (so `-` is standard output, links are followed and devices written through). The file is written
/// in place, each line as it happens, so that `tail -f` follows it and a killed run leaves every
/// line it wrote — whole lines: each goes out in one write.
public final class EventLineWriter: Sendable {
    private struct State {
        var buffer: [UInt8] = []
        var failure: TraceError?
    }

    private let file: OutputFile
    private let state: Mutex<State>

    /// Opens `path` for writing; `header`, if given, is its first line. A file already there is
    /// replaced only when it is an events file or trace of mapsim's (`OwnedFormat.eventLines`).
    public init(path: String, header: JSONObject? = nil) throws(TraceError) {
        file = try OutputFile(path: path, format: header == nil ? .eventLines : .trace, streamed: true)
        state = Mutex(State(buffer: header.map { Array((JSONWriter.string(.object($0)) + "\n").utf8) } ?? []))
        state.withLock { flush(&$0) }
    }

    /// Appends one event.
    public func write(_ event: MapEvent) {
        state.withLock { state in
            event.appendJSONLine(to: &state.buffer)
            state.buffer.append(0x0A)
            flush(&state)
        }
    }

    /// Closes the file; throws if any write failed.
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
