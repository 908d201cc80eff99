import MapSim
import MapSimJSON

/// One request as a page's waterfall draws it: an array, to keep pages of 100,000 requests small —
/// `[begin µs, end µs, kind, path, outcome, status, answered by, size, on the critical path (0 or 1),
/// the event as its JSON line]`. A row is written with 0 for the critical path: a row is written as
/// its request is read, before the load's critical path is known, and the page marks the rows its
/// trace's `critical.steps` name.
public enum RequestRow {
    /// Appends the row of a `resource-request` event to `bytes`, as JSON, written field by field
    /// with no intermediate values (a report writes 100,000 of them); false, with nothing written,
    /// for another event. Paths are named by `naming` (below the style's folder).
    @discardableResult
    public static func write(_ event: MapEvent, naming: ResourcePath, into bytes: inout [UInt8]) -> Bool {
        var line: [UInt8] = []
        return write(event, naming: naming, into: &bytes, lineBuffer: &line)
    }

    /// Writes a row as `write(_:naming:into:)` does, with `lineBuffer` to write the event's JSON
    /// line in before it is escaped into the row: one buffer serves every row of a run.
    @discardableResult
    public static func write(_ event: MapEvent, naming: ResourcePath, into bytes: inout [UInt8], lineBuffer line: inout [UInt8]) -> Bool {
        guard case .resourceRequest(let request) = event.payload else { return false }
        func text(_ text: String) {
            bytes.append(UInt8(ascii: ","))
            JSONWriter.writeString(text, into: &bytes)
        }
        bytes.append(UInt8(ascii: "["))
        JSONWriter.writeNumber(Double(event.begin.microseconds), into: &bytes)
        bytes.append(UInt8(ascii: ","))
        JSONWriter.writeNumber(Double(event.end.microseconds), into: &bytes)
        text(request.request.kind.rawValue)
        text(naming.path(of: request.request.url))
        text(request.outcome.rawValue)
        text(request.status)
        text(request.answeredBy)
        bytes.append(UInt8(ascii: ","))
        JSONWriter.writeNumber(Double(request.response?.size ?? 0), into: &bytes)
        bytes.append(contentsOf: ",0,".utf8)
        line.removeAll(keepingCapacity: true)
        event.appendJSONLine(to: &line)
        line.withUnsafeBufferPointer { JSONWriter.writeString(utf8: $0, into: &bytes) }
        bytes.append(UInt8(ascii: "]"))
        return true
    }
}
