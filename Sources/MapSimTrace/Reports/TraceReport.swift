import Foundation
import MapSim
import MapSimJSON
import MapSimPages
import Synchronization

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

    /// What a critical path's step and a request have in common.
    private struct StepKey: Hashable {
        var kind: Resource.Kind
        var begin: SimTime
        var end: SimTime
        var url: String
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
        var summary = LoadSummary()
        var duration = SimTime.zero
        var milestones: [JSONValue] = []
        for event in trace.events {
            summary.record(event)
            duration = max(duration, event.end)
            switch event.payload {
            case .styleLoaded, .mapLoaded, .mapIdle: milestones.append(.array([.string(event.type.rawValue), .number(Double(event.end.microseconds))]))
            default: break
            }
        }
        let naming = ResourcePath(base: summary.styleURL ?? trace.header.style ?? "")
        let critical = summary.criticalPath
        // Each step of the critical path by what names its request: the first step of each.
        var criticalSteps: [StepKey: Int] = [:]
        for (index, step) in (critical?.steps ?? []).enumerated() {
            let key = StepKey(kind: step.kind, begin: step.begin, end: step.end, url: step.url)
            if criticalSteps[key] == nil { criticalSteps[key] = index }
        }
        func member(_ name: String, _ value: JSONValue) {
            JSONWriter.writeString(name, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONWriter.write(value, into: &bytes)
            bytes.append(UInt8(ascii: ","))
        }
        bytes.append(UInt8(ascii: "{"))
        member("name", .string(name))
        member("header", .array(headerFacts(summary).map { .array([.string($0.0), .string($0.1)]) }))
        member("duration", .number(Double(duration.microseconds)))
        member("milestones", .array(milestones))
        member("summary", Self.summaryJSON(summary))
        // The tiles first, the rows beside them in runs (four per core, so that the cores finish
        // together): each run writes its rows (each but the very first after a comma) and notes
        // which rows are critical steps.
        let events = trace.events
        let requests = events.indices.filter { if case .resourceRequest = events[$0].payload { true } else { false } }
        let runCount = requests.count < 4_000 ? 1 : 4 * max(1, ProcessInfo.processInfo.activeProcessorCount)
        let runLength = (requests.count + runCount - 1) / max(runCount, 1)
        let runs = Mutex<[(bytes: [UInt8], critical: [(step: Int, row: Int)])]>(Array(repeating: ([], []), count: runCount))
        let tiles = Mutex<JSONValue>(.array([]))
        DispatchQueue.concurrentPerform(iterations: runCount + 1) { [criticalSteps] iteration in
            guard iteration > 0 else {
                let json = ReportTiles(events).json
                tiles.withLock { $0 = json }
                return
            }
            let run = iteration - 1
            var written: [UInt8] = []
            var line: [UInt8] = []
            var critical: [(step: Int, row: Int)] = []
            for row in (run * runLength)..<min((run + 1) * runLength, requests.count) {
                let event = events[requests[row]]
                guard case .resourceRequest(let request) = event.payload else { continue }
                let step = criticalSteps[StepKey(kind: request.request.kind, begin: event.begin, end: event.end, url: request.request.url)]
                let isCritical = step != nil && !request.cancelled
                if isCritical, let step { critical.append((step, row)) }
                if row > 0 { written.append(UInt8(ascii: ",")) }
                RequestRow.write(event, naming: naming, critical: isCritical, into: &written, lineBuffer: &line)
            }
            runs.withLock { $0[run] = (written, critical) }
        }
        // A step asked twice is the later row's, as when the rows are written in order.
        var criticalRows: [Int: Int] = [:]
        let written = runs.withLock { $0 }
        for run in written {
            for (step, row) in run.critical { criticalRows[step] = row }
        }
        if !rowsApart {
            bytes += Array(#""rows":["#.utf8)
            for run in written { bytes += run.bytes }
            bytes += Array("],".utf8)
        }
        if let critical {
            member("tiles", tiles.withLock { $0 })
            let steps = (0..<critical.steps.count).compactMap { criticalRows[$0] }
            JSONWriter.writeString("critical", into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONWriter.write(.object(JSONObject([("milestone", .string(critical.milestone.rawValue)), ("time", .number(Double(critical.time.microseconds))),
                                                 ("steps", .array(steps.map { .number(Double($0)) }))])), into: &bytes)
        } else {
            JSONWriter.writeString("tiles", into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONWriter.write(tiles.withLock { $0 }, into: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return rowsApart ? written.map(\.bytes) : []
    }

    /// The header as the page lists it: what ran, where, how.
    private func headerFacts(_ summary: LoadSummary) -> [(String, String)] {
        let header = trace.header
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
                facts.append(("terrain", "\(terrain["source"]?.stringValue ?? "?") × \(JSONWriter.formatNumber(terrain["exaggeration"]?.numberValue ?? 1))"))
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
