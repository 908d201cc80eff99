import MapSim
import MapSimJSON

/// Writes a trace in the Chrome trace event format, which Perfetto (ui.perfetto.dev) and
/// chrome://tracing open: requests as async begin/end pairs (one track per resource kind), map events
/// as instants, frames as instants on their own track, and the load phases as spans.
public enum PerfettoExporter {
    private static let process = 1
    private static let mapThread = 1
    private static let renderThread = 2

    /// The Chrome trace JSON of `trace`, and how many trace events it holds (metadata included).
    /// Times are integer microseconds, as the format wants.
    public static func export(_ trace: Trace) -> (json: String, eventCount: Int) {
        var events: [JSONValue] = [
            metadata("process_name", tid: mapThread, name: "mapsim: \(trace.header.scenario)"),
            metadata("thread_name", tid: mapThread, name: "map"),
            metadata("thread_name", tid: renderThread, name: "render"),
        ]
        for (index, event) in trace.events.enumerated() {
            switch event.payload {
            case .resourceRequest(let request):
                let name = request.request.kind.rawValue + " " + shortName(request.request.url)
                let category = "resource-request," + request.request.kind.rawValue
                var args = event.payload.data
                args["url"] = .string(request.request.url)
                events.append(entry(name, category: category, phase: "b", time: event.begin, tid: mapThread, id: index, args: args))
                events.append(entry(name, category: category, phase: "e", time: event.end, tid: mapThread, id: index, args: JSONObject()))
            case .renderFrameStarted:
                continue
            case .renderFrameFinished:
                events.append(entry(event.type.rawValue, category: "render", phase: "i", time: event.end, tid: renderThread, id: nil, args: event.payload.data))
            default:
                events.append(entry(event.type.rawValue, category: "map", phase: "i", time: event.end, tid: mapThread, id: nil, args: event.payload.data))
            }
        }
        events += phases(trace)
        return (JSONWriter.string(.object(JSONObject([("traceEvents", .array(events)), ("displayTimeUnit", .string("ms"))]))), events.count)
    }

    /// Spans from the start to style-loaded, to map-loaded and to map-idle.
    private static func phases(_ trace: Trace) -> [JSONValue] {
        func first(_ type: MapEventType) -> SimTime? { trace.events.first { $0.type == type }?.end }
        var spans: [JSONValue] = []
        var start = SimTime.zero
        for (name, end) in [("loading the style", first(.styleLoaded)), ("loading tiles", first(.mapLoaded)), ("settling", first(.mapIdle))] {
            guard let end else { break }
            var span = JSONObject([("name", .string(name)), ("cat", .string("phase")), ("ph", .string("X")),
                                   ("ts", .number(Double(start.microseconds))), ("dur", .number(Double((end - start).microseconds))),
                                   ("pid", .number(Double(process))), ("tid", .number(Double(mapThread)))])
            span["args"] = .object(JSONObject())
            spans.append(.object(span))
            start = end
        }
        return spans
    }

    private static func entry(_ name: String, category: String, phase: String, time: SimTime, tid: Int, id: Int?, args: JSONObject) -> JSONValue {
        var object = JSONObject([("name", .string(name)), ("cat", .string(category)), ("ph", .string(phase)),
                                 ("ts", .number(Double(time.microseconds))), ("pid", .number(Double(process))), ("tid", .number(Double(tid)))])
        if let id { object["id"] = .number(Double(id)) }
        if phase == "i" { object["s"] = .string("t") }
        object["args"] = .object(args)
        return .object(object)
    }

    private static func metadata(_ kind: String, tid: Int, name: String) -> JSONValue {
        .object(JSONObject([("name", .string(kind)), ("ph", .string("M")), ("pid", .number(Double(process))), ("tid", .number(Double(tid))),
                            ("args", .object(JSONObject([("name", .string(name))])))]))
    }

    /// The last path component of a URL, without its query.
    private static func shortName(_ url: String) -> String {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        let parts = path.split(separator: "/")
        return parts.count >= 3 && parts.last?.contains(".pbf") == true ? parts.suffix(3).joined(separator: "/") : String(parts.last ?? Substring(url))
    }
}
