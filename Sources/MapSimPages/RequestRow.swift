import MapSim
import MapSimJSON

/// One request as a page's waterfall draws it: an array, to keep pages of 100,000 requests small —
/// `[begin µs, end µs, kind, path, outcome, status, answered by, size, on the critical path (0 or 1),
/// the event as its JSON line]`.
public enum RequestRow {
    /// Appends the row of a `resource-request` event to `bytes`, as JSON, written field by field
    /// with no intermediate values (a report writes 100,000 of them); false, with nothing written,
    /// for another event. Paths are named by `naming` (below the style's folder).
    @discardableResult
    public static func write(_ event: MapEvent, naming: ResourcePath, critical: Bool = false, into bytes: inout [UInt8]) -> Bool {
        guard case .resourceRequest(let request) = event.payload else { return false }
        bytes.append(UInt8(ascii: "["))
        JSONWriter.writeNumber(Double(event.begin.microseconds), into: &bytes)
        bytes.append(UInt8(ascii: ","))
        JSONWriter.writeNumber(Double(event.end.microseconds), into: &bytes)
        for text in [request.request.kind.rawValue, naming.path(of: request.request.url), request.outcome.rawValue, request.status, request.answeredBy] {
            bytes.append(UInt8(ascii: ","))
            JSONWriter.writeString(text, into: &bytes)
        }
        bytes.append(UInt8(ascii: ","))
        JSONWriter.writeNumber(Double(request.response?.size ?? 0), into: &bytes)
        bytes.append(contentsOf: critical ? Array(",1,".utf8) : Array(",0,".utf8))
        var line: [UInt8] = []
        event.appendJSONLine(to: &line)
        line.withUnsafeBufferPointer { JSONWriter.writeString(utf8: $0, into: &bytes) }
        bytes.append(UInt8(ascii: "]"))
        return true
    }
}
