import MapSim
import Foundation
import MapSimJSON

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

    /// Reads the bytes of a JSON-lines trace, as `read(jsonLines:)` reads its text.
    public static func read(jsonLines bytes: [UInt8], name: String = "trace", allowTruncated: Bool = false) throws(TraceError) -> Trace {
        var header = Header(scenario: name)
        var events: [MapEvent] = []
        var start = 0
        var lineNumber = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            defer { start = end + 1 }
            lineNumber += 1
            let line = start..<end
            guard bytes[line].contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            let isUnfinishedLast = end == bytes.count
            let object: JSONObject
            do {
                guard let parsed = try JSONParser.parse(Array(bytes[line])).objectValue else { throw TraceError(.malformed, "not an object") }
                object = parsed
            } catch {
                if isUnfinishedLast {
                    if allowTruncated { break }
                    throw TraceError(.malformed, file: name, line: lineNumber,
                                     "the last line is incomplete: the trace was cut mid-line (--allow-truncated reads the lines before it)")
                }
                throw TraceError(.malformed, file: name, line: lineNumber, "not a JSON object: \(error)", underlying: error)
            }
            if lineNumber == 1, let parsed = Header(json: object) {
                if let camera = parsed.camera, let problem = Header.problem(ofCamera: camera) {
                    throw TraceError(.malformed, file: name, line: lineNumber, "the header's camera: \(problem)")
                }
                header = parsed
                continue
            }
            do {
                events.append(try MapEvent(json: object))
            } catch {
                throw error.located(in: name, line: lineNumber)
            }
        }
        return Trace(header: header, events: events)
    }

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
