import Foundation
import MapSim
import MapSimJSON

/// One trace as a report page shows it (`PageDocument`'s `report` mode): its header, the summary
/// (milestones, requests and bytes by kind, errors), a row per request, the milestones, the critical
/// path and the tiles per source — from the same trace model `diff` and the Perfetto export read.
public struct TraceReport: Sendable {
    /// The name the page shows (a file's name, a scenario's).
    public var name: String
    /// The trace.
    public var trace: Trace

    /// A report of `trace`, shown as `name`.
    public init(name: String, trace: Trace) {
        self.name = name
        self.trace = trace
    }

    /// The number of requests (rows) the page shows.
    public var requestCount: Int {
        var count = 0
        for index in trace.events.indices where trace.events[index].type == .resourceRequest { count += 1 }
        return count
    }

    /// The trace as the page's script reads it.
    public var json: JSONValue {
        var bytes: [UInt8] = []
        appendJSON(to: &bytes)
        return (try? JSONParser.parse(bytes)) ?? .null
    }

    /// Appends the trace as the page's script reads it, as JSON, to `bytes`: each row is written as
    /// it is made, so the rows of a large trace are never held as values.
    public func appendJSON(to bytes: inout [UInt8]) {
        appendJSON(to: &bytes, rowsApart: false)
    }

    /// Appends the trace as `appendJSON(to:)` does; with `rowsApart`, without its rows, which are
    /// returned instead: runs that make one JSON array written in order, for the page to put after
    /// its script.
    @discardableResult
    func appendJSON(to bytes: inout [UInt8], rowsApart: Bool) -> [[UInt8]] {
        var builder = TraceReportBuilder(name: name, header: trace.header)
        let rows = builder.add(trace.events) + builder.finish()
        builder.appendJSON(to: &bytes, rows: rowsApart ? nil : rows)
        return rowsApart ? rows : []
    }

    /// The header as the page lists it: what ran, where, how.
    static func headerFacts(_ header: Trace.Header, summary: LoadSummary) -> [(String, String)] {
        var facts: [(String, String)] = []
        if let style = header.style ?? summary.styleURL, style != header.scenario { facts.append(("style", style)) }
        facts.append(("scenario", header.scenario))
        facts.append(("engine", header.engine))
        facts.append(("network", header.network ?? "not recorded"))
        facts.append(("seed", String(header.seed)))
        facts.append(("camera", header.camera.map(Self.describeCamera) ?? "not recorded"))
        if let view = header.view {
            if let projection = view["projection"]?.stringValue { facts.append(("projection", projection)) }
            if let terrain = view["terrain"]?.objectValue {
                let exaggeration = terrain["exaggeration"].map { $0.numberValue.map(JSONWriter.formatNumber) ?? JSONWriter.string($0) } ?? "1"
                facts.append(("terrain", "\(terrain["source"]?.stringValue ?? "?") × \(exaggeration)"))
            }
            if let state = view["global-state"] { facts.append(("global state", JSONWriter.string(state))) }
            if let config = view["config"] { facts.append(("config", JSONWriter.string(config))) }
            if let pitch = view["max-pitch"]?.numberValue { facts.append(("max pitch", JSONWriter.formatNumber(pitch))) }
        }
        facts.append(("recorded by", "mapsim \(header.mapsimVersion)"))
        return facts
    }

    /// `center -122.4, 37.8 · zoom 10 · bearing 0 · pitch 0 · 1280×720 at 1x`, naming what was
    /// left to the style.
    static func describeCamera(_ camera: JSONObject) -> String {
        var parts: [String] = []
        if let center = camera["center"]?.arrayValue?.compactMap(\.numberValue), center.count == 2 {
            parts.append("center " + center.map(JSONWriter.formatNumber).joined(separator: ", "))
        }
        for key in ["zoom", "bearing", "pitch"] {
            if let value = camera[key]?.numberValue { parts.append("\(key) \(JSONWriter.formatNumber(value))") }
        }
        parts = parts.isEmpty ? ["the style's own"] : parts.count < 4 ? parts + ["the rest the style's"] : parts
        if let size = camera["size"]?.stringValue {
            parts.append(size.replacingOccurrences(of: "x", with: "×") + " at \(JSONWriter.formatNumber(camera["pixel-ratio"]?.numberValue ?? 1))x")
        }
        return parts.joined(separator: " · ")
    }

    /// The summary as the page shows it.
    static func summaryJSON(_ summary: LoadSummary) -> JSONValue {
        func time(_ value: SimTime?) -> JSONValue { value.map { .number(Double($0.microseconds)) } ?? .null }
        func traffic(_ traffic: LoadSummary.Traffic) -> [JSONValue] {
            [.number(Double(traffic.requests)), .number(Double(traffic.bytes)), .number(Double(traffic.failures)), .number(Double(traffic.cancelled))]
        }
        return .object(JSONObject([
            ("milestones", .array([.array([.string("style-loaded"), time(summary.styleLoaded)]), .array([.string("map-loaded"), time(summary.mapLoaded)]),
                                   .array([.string("map-idle"), time(summary.mapIdle)])])),
            ("kinds", .array(summary.traffic.map { .array([.string($0.kind.rawValue)] + traffic($0.traffic)) })),
            ("total", .array(traffic(summary.total))),
            ("answered", .array(summary.responsesBySource.map { .array([.string($0.source.rawValue), .number(Double($0.count))]) })),
            ("notModified", .number(Double(summary.notModified))),
            ("errors", .array(summary.errors.map { .array([.string($0.type.rawValue), .string($0.message)]) }
                + summary.liveErrors.map { .array([.string("live"), .string($0)]) })),
            ("events", .number(Double(summary.eventCount))),
            ("frames", .number(Double(summary.frames))),
        ]))
    }
}
