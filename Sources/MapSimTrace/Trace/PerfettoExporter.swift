import MapSim
import MapSimJSON

/// Writes a trace in the Chrome trace event format, which Perfetto (ui.perfetto.dev) opens:
///
/// - each request an async slice named after its kind — so Perfetto draws one track per kind
///   (style, sprite-json, tile, glyphs, ...), parallel requests stacked — with its path, URL,
///   status, outcome, size and what answered it in the slice's arguments;
/// - counters of the requests in flight and of the bytes received so far;
/// - the milestones (style-loaded, map-loaded, map-idle) as global markers, lines across every track,
///   and the load's phases (style, tiles, settling) as spans;
/// - the other map events as instants on the map's track, frames on a render track.
public enum PerfettoExporter {
    private static let process = 1
    private static let mapThread = 1
    private static let renderThread = 2
    private static let milestones: Set<MapEventType> = [.styleLoaded, .mapLoaded, .mapIdle]

    /// The Chrome trace JSON of `trace`, and how many trace events it holds (metadata included).
    /// Times are integer microseconds, as the format wants.
    public static func export(_ trace: Trace) -> (json: String, eventCount: Int) {
        var events: [JSONValue] = [
            metadata("process_name", tid: mapThread, name: "mapsim: \(trace.header.scenario)"),
            metadata("thread_name", tid: mapThread, name: "map"),
            metadata("thread_name", tid: renderThread, name: "render"),
        ]
        let naming = ResourcePath(base: styleURL(trace) ?? "")
        // Counter changes: +1/-1 requests in flight, bytes at each answer.
        var changes: [(time: SimTime, inFlight: Int, bytes: Int)] = []
        for (index, event) in trace.events.enumerated() {
            switch event.payload {
            case .resourceRequest(let request):
                let kind = request.request.kind.rawValue
                var args = JSONObject([("path", .string(naming.path(of: request.request.url))), ("url", .string(request.request.url)),
                                       ("status", .string(request.status)), ("outcome", .string(request.outcome.rawValue)),
                                       ("size", .number(Double(request.response?.size ?? 0))), ("answered-by", .string(request.answeredBy))])
                for member in event.payload.data.members { args[member.key] = member.value }
                events.append(entry(kind, category: "request," + kind, phase: "b", time: event.begin, tid: mapThread, id: index, args: args))
                events.append(entry(kind, category: "request," + kind, phase: "e", time: event.end, tid: mapThread, id: index, args: JSONObject()))
                changes.append((event.begin, 1, 0))
                changes.append((event.end, -1, request.response?.size ?? 0))
            case .renderFrameStarted:
                continue
            case .renderFrameFinished:
                events.append(entry(event.type.rawValue, category: "render", phase: "i", time: event.end, tid: renderThread, id: nil, args: event.payload.data))
            default:
                var marker = entry(event.type.rawValue, category: milestones.contains(event.type) ? "milestone" : "map", phase: "i", time: event.end,
                                   tid: mapThread, id: nil, args: event.payload.data)
                if milestones.contains(event.type), case .object(var object) = marker {
                    object["s"] = .string("g")
                    marker = .object(object)
                }
                events.append(marker)
            }
        }
        events += counters(changes)
        events += phases(trace)
        return (JSONWriter.string(.object(JSONObject([("traceEvents", .array(events)), ("displayTimeUnit", .string("ms"))]))), events.count)
    }

    /// The counters' samples: one per instant at which a request started or ended, in time order.
    private static func counters(_ changes: [(time: SimTime, inFlight: Int, bytes: Int)]) -> [JSONValue] {
        var samples: [JSONValue] = []
        var inFlight = 0
        var bytes = 0
        let ordered = changes.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        var index = 0
        while index < ordered.count {
            let time = ordered[index].time
            while index < ordered.count && ordered[index].time == time {
                inFlight += ordered[index].inFlight
                bytes += ordered[index].bytes
                index += 1
            }
            samples.append(counter("requests in flight", time: time, value: inFlight))
            samples.append(counter("bytes received", time: time, value: bytes))
        }
        return samples
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

    private static func counter(_ name: String, time: SimTime, value: Int) -> JSONValue {
        .object(JSONObject([("name", .string(name)), ("ph", .string("C")), ("ts", .number(Double(time.microseconds))), ("pid", .number(Double(process))),
                            ("args", .object(JSONObject([(name == "bytes received" ? "bytes" : "requests", .number(Double(value)))])))]))
    }

    private static func metadata(_ kind: String, tid: Int, name: String) -> JSONValue {
        .object(JSONObject([("name", .string(kind)), ("ph", .string("M")), ("pid", .number(Double(process))), ("tid", .number(Double(tid))),
                            ("args", .object(JSONObject([("name", .string(name))])))]))
    }

    /// The URL of the first style requested, else the header's: what paths are named below.
    private static func styleURL(_ trace: Trace) -> String? {
        TraceDiff.styleURL(of: trace.events) ?? trace.header.style
    }
}
