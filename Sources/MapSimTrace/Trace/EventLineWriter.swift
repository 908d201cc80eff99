import MapSim
import Foundation
import Synchronization
import MapSimJSON

/// Writes events to a file as JSON lines, one `MapEvent.jsonLine` per line, buffered. Every line is
/// complete before the next begins, so a run that dies leaves a readable file.
public final class EventLineWriter: Sendable {
    private struct State {
        var handle: FileHandle?
        var buffer: [UInt8] = []
        var failure: String?
    }

    private let state: Mutex<State>
    private let path: String
    private static let flushThreshold = 64 * 1024

    /// Creates (or truncates) the file at `path`; `header`, if given, is its first line.
    public init(path: String, header: JSONObject? = nil) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: "cannot create \(path)"])
        }
        self.path = path
        state = Mutex(State(handle: try FileHandle(forWritingTo: URL(fileURLWithPath: path))))
        if let header {
            state.withLock { $0.buffer = Array((JSONWriter.string(.object(header)) + "\n").utf8) }
        }
    }

    /// Appends one event.
    public func write(_ event: MapEvent) {
        let line = event.jsonLine
        state.withLock { state in
            state.buffer.append(contentsOf: line.utf8)
            state.buffer.append(0x0A)
            if state.buffer.count >= Self.flushThreshold { Self.flush(&state) }
        }
    }

    /// Writes what is buffered and closes the file; throws if any write failed.
    public func close() throws {
        let failure = state.withLock { state -> String? in
            Self.flush(&state)
            try? state.handle?.close()
            state.handle = nil
            return state.failure
        }
        if let failure {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: failure])
        }
    }

    private static func flush(_ state: inout State) {
        guard !state.buffer.isEmpty, let handle = state.handle else { return }
        do {
            try handle.write(contentsOf: state.buffer)
        } catch {
            state.failure = state.failure ?? "writing events failed: \(error.localizedDescription)"
        }
        state.buffer.removeAll(keepingCapacity: true)
    }
}
