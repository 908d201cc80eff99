import MapSim
import Foundation
import MapSimJSON
import Synchronization

extension Trace {
    /// The golden-trace YAML: a commented header, then one event per line in flow style, so a change
    /// in behaviour shows as a changed line in review. Times are integer microseconds.
    public var yaml: String {
        var output = "# mapsim trace: the events of one run; begin and end are microseconds of virtual time.\n"
        for member in header.json.members { output += "\(member.key): \(YAMLWriter.flow(member.value))\n" }
        output += events.isEmpty ? "events: []\n" : "events:\n"
        for event in events { output += "  - \(YAMLWriter.flow(.object(event.jsonObject)))\n" }
        return output
    }

    /// Reads a YAML trace.
    public static func read(yaml text: String, name: String = "trace") throws(TraceError) -> Trace {
        let document: JSONValue
        do {
            document = try YAMLReader.read(text)
        } catch {
            throw TraceError(.malformed, file: name, line: error.line, error.reason, underlying: error)
        }
        guard let root = document.objectValue, let header = Header(json: root) else {
            throw TraceError(.malformed, file: name, "not a mapsim trace (no \"mapsim\" and \"scenario\" header)")
        }
        if let camera = header.camera, let problem = Header.problem(ofCamera: camera) {
            throw TraceError(.malformed, file: name, "the header's camera: \(problem)")
        }
        var events: [MapEvent] = []
        for (index, value) in (root["events"]?.arrayValue ?? []).enumerated() {
            guard let object = value.objectValue else { throw TraceError(.malformed, file: name, "event \(index + 1) is not a mapping") }
            do {
                events.append(try MapEvent(json: object))
            } catch {
                throw TraceError(.malformed, file: name, "event \(index + 1): \(error.reason)", underlying: error)
            }
        }
        return Trace(header: header, events: events)
    }

    /// The JSON-lines form: the header object on the first line, then one event per line.
    public var jsonLines: String {
        ([JSONWriter.string(.object(header.json))] + events.map(\.jsonLine)).joined(separator: "\n") + "\n"
    }

    /// Reads a JSON-lines trace; the header line is optional (plain `--events` files read too). An
    /// unfinished last line — a run that died mid-write — is an error that names it, unless
    /// `allowTruncated`, which reads the lines before it.
    public static func read(jsonLines text: String, name: String = "trace", allowTruncated: Bool = false) throws(TraceError) -> Trace {
        try read(jsonLines: Array(text.utf8), name: name, allowTruncated: allowTruncated)
    }

    /// Reads the bytes of a JSON-lines trace, as `read(jsonLines:)` reads its text. The lines are
    /// decoded in parallel, in as many runs of lines as there are cores; what is wrong is said of
    /// the first line, in the file's order, that has it.
    public static func read(jsonLines bytes: [UInt8], name: String = "trace", allowTruncated: Bool = false) throws(TraceError) -> Trace {
        var lines = Self.lines(of: bytes, from: 0, firstNumber: 1)
        let header = try Self.header(of: bytes, lines: &lines, name: name)
        let events = try decode(bytes, lines: lines, isFinal: true, name: name, allowTruncated: allowTruncated)
        return Trace(header: header ?? Header(scenario: name), events: events)
    }

    /// The lines of `bytes` from `start` that are not blank, each with its number (the first is
    /// `firstNumber`); how many lines there were, blank ones too, is the last number's.
    static func lines(of bytes: [UInt8], from start: Int, firstNumber: Int) -> (found: [(range: Range<Int>, number: Int)], count: Int) {
        var lines: [(range: Range<Int>, number: Int)] = []
        var start = start
        var lineNumber = firstNumber - 1
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            lineNumber += 1
            if bytes[start..<end].contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) { lines.append((start..<end, lineNumber)) }
            start = end + 1
        }
        return (lines, lineNumber - firstNumber + 1)
    }

    /// The header on the first line of a trace, taken off `lines`; nil when the first line is no
    /// header (plain `--events` files have none).
    static func header(of bytes: [UInt8], lines: inout (found: [(range: Range<Int>, number: Int)], count: Int), name: String) throws(TraceError) -> Header? {
        guard let line = lines.found.first, line.number == 1, case .object(let object)? = try? JSONParser.parse(bytes, document: line.range),
              let parsed = Header(json: object) else { return nil }
        if let camera = parsed.camera, let problem = Header.problem(ofCamera: camera) {
            throw TraceError(.malformed, file: name, line: line.number, "the header's camera: \(problem)")
        }
        lines.found.removeFirst()
        return parsed
    }

    /// The events of `lines` of `bytes`, decoded in parallel, in as many runs of lines as there
    /// are cores; what is wrong is said of the first line, in order, that has it. In the `isFinal`
    /// bytes of a trace a last line without its newline is one cut mid-way: left out when
    /// `allowTruncated`.
    static func decode(_ bytes: [UInt8], lines: (found: [(range: Range<Int>, number: Int)], count: Int), isFinal: Bool, name: String,
                       allowTruncated: Bool) throws(TraceError) -> [MapEvent] {
        let lines = lines.found
        // Each run decodes its lines until the first that fails.
        let runCount = lines.count < 2_000 ? 1 : max(1, ProcessInfo.processInfo.activeProcessorCount)
        let runLength = (lines.count + runCount - 1) / max(runCount, 1)
        let decoded = Mutex<[(events: [MapEvent], failure: (index: Int, error: TraceError)?)]>(Array(repeating: ([], nil), count: runCount))
        DispatchQueue.concurrentPerform(iterations: runCount) { run in
            let indices = (run * runLength)..<min((run + 1) * runLength, lines.count)
            var events: [MapEvent] = []
            events.reserveCapacity(indices.count)
            var failure: (index: Int, error: TraceError)?
            bytes.withUnsafeBufferPointer { buffer in
                for index in indices {
                    let line = lines[index]
                    // A resource request read straight from its bytes; anything else as JSON.
                    if let event = ResourceRequestLine.event(buffer, range: line.range) {
                        events.append(event)
                        continue
                    }
                    do throws(TraceError) {
                        events.append(try decodeEvent(bytes, line: line, isUnfinishedLast: isFinal && line.range.upperBound == bytes.count, name: name))
                    } catch {
                        failure = (index, error)
                        break
                    }
                }
            }
            decoded.withLock { $0[run] = (events, failure) }
        }
        var events: [MapEvent] = []
        events.reserveCapacity(lines.count)
        for run in decoded.withLock({ $0 }) {
            events += run.events
            guard let failure = run.failure else { continue }
            // A last line cut mid-way is left out when asked; everything before it was read.
            if allowTruncated, failure.error.reason == cutLastLine { break }
            throw failure.error
        }
        return events
    }

    /// One line of a JSON-lines trace as an event; `isUnfinishedLast` when it is the last line and
    /// no newline ends it (a run that died mid-line).
    private static func decodeEvent(_ bytes: [UInt8], line: (range: Range<Int>, number: Int), isUnfinishedLast: Bool, name: String) throws(TraceError) -> MapEvent {
        let object: JSONObject
        do {
            guard let parsed = try JSONParser.parse(bytes, document: line.range).objectValue else { throw TraceError(.malformed, "not an object") }
            object = parsed
        } catch {
            if isUnfinishedLast {
                throw TraceError(.malformed, file: name, line: line.number, cutLastLine)
            }
            throw TraceError(.malformed, file: name, line: line.number, "not a JSON object: \(error)", underlying: error)
        }
        do {
            return try MapEvent(json: object)
        } catch {
            throw error.located(in: name, line: line.number)
        }
    }

    /// What a trace whose last line was cut is told.
    static let cutLastLine = "the last line is incomplete: the trace was cut mid-line (--allow-truncated reads the lines before it)"

    /// The largest YAML trace read (golden traces are reviewed by people: far smaller).
    public static let maximumYAMLSize = 32 * 1024 * 1024
    /// The largest JSON-lines trace read.
    public static let maximumJSONLinesSize = 1024 * 1024 * 1024

    /// Reads a trace file: YAML for `.yaml`/`.yml`, JSON lines otherwise. An empty file (or one of
    /// blanks) is no trace: even a load that did nothing records its header.
    public static func read(file path: String, allowTruncated: Bool = false) throws(TraceError) -> Trace {
        let isYAML = path.hasSuffix(".yaml") || path.hasSuffix(".yml")
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path, limit: isYAML ? maximumYAMLSize : maximumJSONLinesSize)
        } catch {
            throw TraceError(.unreadable, "\(error)", underlying: error)
        }
        guard bytes.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw TraceError(.unreadable, "\(path) is empty: not a trace (`mapsim load --trace` and --events always write one)")
        }
        return isYAML ? try read(yaml: String(decoding: bytes, as: UTF8.self), name: path) : try read(jsonLines: bytes, name: path, allowTruncated: allowTruncated)
    }
}
