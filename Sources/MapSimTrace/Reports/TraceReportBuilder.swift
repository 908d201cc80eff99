import Foundation
import MapSim
import MapSimJSON
import MapSimPages
import Synchronization

/// One trace's report gathered event by event, as a long trace is read a block at a time: what the
/// page's header, summary, milestones, critical path and tiles need is kept as figures, and each
/// request's row is handed back as JSON to be written at once — what is kept does not grow with the
/// rows' text.
struct TraceReportBuilder {
    /// The name the page shows.
    let name: String
    /// The trace's header.
    let header: Trace.Header
    private var summary = LoadSummary(keepingEveryRequestURL: false)
    private var duration = SimTime.zero
    private var milestones: [JSONValue] = []
    private var tiles = ReportTiles()
    /// The rows that are no request of the summary, in order: a request given up after it failed
    /// is a row, but the summary counts it once. Few: they alone set its requests and the rows apart.
    private var uncountedRows: [Int] = []
    /// The request events seen: the rows.
    private(set) var rowCount = 0
    /// The rows handed back so far.
    private var rowsWritten = 0
    /// Events whose rows wait for the URL of the first style requested, which names their paths:
    /// requests, and what the tiles read (kept in order with them). Nothing else waits, so that a
    /// trace with no style request (a region download's `--events`: 68,000 status changes) is not
    /// held whole until its end.
    private var waiting: [MapEvent] = []
    /// What names the rows' paths, once known.
    private var naming: ResourcePath?

    /// A report of a trace with `header`, shown as `name`.
    init(name: String, header: Trace.Header) {
        self.name = name
        self.header = header
    }

    /// Adds the next events of the trace, in order; returns the rows of its requests that can be
    /// written now, as runs of JSON to write one after another, each row but the trace's very first
    /// after a comma. Rows wait until the first style request names the paths below it.
    mutating func add(_ events: [MapEvent]) -> [[UInt8]] {
        for event in events {
            if case .resourceRequest = event.payload {
                let before = summary.requests.count
                summary.record(event)
                if summary.requests.count == before { uncountedRows.append(rowCount) }
                rowCount += 1
            } else {
                summary.record(event)
            }
            duration = max(duration, event.end)
            switch event.payload {
            case .styleLoaded, .mapLoaded, .mapIdle: milestones.append(.array([.string(event.type.rawValue), .number(Double(event.end.microseconds))]))
            default: break
            }
        }
        if naming == nil {
            guard let style = summary.styleURL else {
                waiting += events.filter { event in
                    if case .resourceRequest = event.payload { return true }
                    return ReportTiles.reads(event)
                }
                return []
            }
            naming = ResourcePath(base: style)
        }
        guard waiting.isEmpty else {
            let all = waiting + events
            waiting = []
            return rows(of: all)
        }
        return rows(of: events)
    }

    /// The rows still waiting at the trace's end — none was a style's request: their paths are
    /// named below the header's style.
    mutating func finish() -> [[UInt8]] {
        guard naming == nil else { return [] }
        naming = ResourcePath(base: header.style ?? "")
        let all = waiting
        waiting = []
        return rows(of: all)
    }

    /// The rows of the requests among `events`, written in runs on every core (four per core, so
    /// that the cores finish together), while another thread adds the events to the tiles.
    private mutating func rows(of events: [MapEvent]) -> [[UInt8]] {
        guard let naming else { return [] }
        let requests = events.indices.filter { if case .resourceRequest = events[$0].payload { true } else { false } }
        let runCount = requests.count < 4_000 ? 1 : 4 * max(1, ProcessInfo.processInfo.activeProcessorCount)
        let runLength = (requests.count + runCount - 1) / runCount
        let first = rowsWritten
        let runs = Mutex<[[UInt8]]>(Array(repeating: [], count: runCount))
        // The tiles move into the lock and back, never copied: the one thread that adds to them
        // holds it throughout.
        let tiles = Mutex(ReportTiles())
        tiles.withLock { swap(&$0, &self.tiles) }
        DispatchQueue.concurrentPerform(iterations: runCount + 1) { iteration in
            guard iteration > 0 else {
                tiles.withLock { tiles in
                    for event in events { tiles.add(event) }
                }
                return
            }
            let run = iteration - 1
            var written: [UInt8] = []
            var line: [UInt8] = []
            for position in (run * runLength)..<min((run + 1) * runLength, requests.count) {
                if first + position > 0 { written.append(UInt8(ascii: ",")) }
                RequestRow.write(events[requests[position]], naming: naming, into: &written, lineBuffer: &line)
            }
            runs.withLock { $0[run] = written }
        }
        tiles.withLock { swap(&$0, &self.tiles) }
        rowsWritten += requests.count
        return runs.withLock { $0 }.filter { !$0.isEmpty }
    }

    /// The row of the summary's request at `offset`: its place, moved past each uncounted row
    /// before it.
    private func row(ofRequest offset: Int) -> Int {
        var row = offset
        for uncounted in uncountedRows {
            guard uncounted <= row else { break }
            row += 1
        }
        return row
    }

    /// Appends the trace as the page's script reads it, as a JSON object, to `bytes`: with `rows`
    /// (the runs `add(_:)` and `finish()` returned) inline, or without them when the page keeps them
    /// in an element of their own. Call after `finish()`.
    func appendJSON(to bytes: inout [UInt8], rows: [[UInt8]]?) {
        func member(_ name: String, _ value: JSONValue) {
            JSONWriter.writeString(name, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONWriter.write(value, into: &bytes)
            bytes.append(UInt8(ascii: ","))
        }
        bytes.append(UInt8(ascii: "{"))
        member("name", .string(name))
        member("header", .array(TraceReport.headerFacts(header, summary: summary).map { .array([.string($0.0), .string($0.1)]) }))
        member("duration", .number(Double(duration.microseconds)))
        member("milestones", .array(milestones))
        member("summary", TraceReport.summaryJSON(summary))
        if let rows {
            bytes += Array(#""rows":["#.utf8)
            for run in rows { bytes += run }
            bytes += Array("],".utf8)
        }
        JSONWriter.writeString("tiles", into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        JSONWriter.write(tiles.json, into: &bytes)
        if let critical = summary.criticalPath {
            bytes.append(UInt8(ascii: ","))
            JSONWriter.writeString("critical", into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            let steps = critical.offsets.map { JSONValue.number(Double(row(ofRequest: $0))) }
            JSONWriter.write(.object(JSONObject([("milestone", .string(critical.milestone.rawValue)), ("time", .number(Double(critical.time.microseconds))),
                                                 ("steps", .array(steps))])), into: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }
}
