import MapSim
import MapSimJSON

/// One request as a page's waterfall draws it: an array, to keep pages of 100,000 requests small —
/// `[begin µs, end µs, kind, path, outcome, status, answered by, size, on the critical path (0 or 1),
/// the event as its JSON line]`.
public enum RequestRow {
    /// The row of a `resource-request` event; nil for another event. Paths are named by `naming`
    /// (below the style's folder).
    public static func row(_ event: MapEvent, naming: ResourcePath, critical: Bool = false) -> JSONValue? {
        guard case .resourceRequest(let request) = event.payload else { return nil }
        return .array([
            .number(Double(event.begin.microseconds)), .number(Double(event.end.microseconds)), .string(request.request.kind.rawValue),
            .string(naming.path(of: request.request.url)), .string(request.outcome.rawValue), .string(request.status),
            .string(request.answeredBy), .number(Double(request.response?.size ?? 0)), .number(critical ? 1 : 0), .string(event.jsonLine),
        ])
    }
}
