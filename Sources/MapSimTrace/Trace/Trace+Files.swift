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
            throw TraceError(.malformed, file: name, line: error.line, error.reason)
        }
        guard let root = document.objectValue, let header = Header(json: root) else {
            throw TraceError(.malformed, file: name, "not a mapsim trace (no \"mapsim\" and \"scenario\" header)")
        }
        var events: [MapEvent] = []
        for (index, value) in (root["events"]?.arrayValue ?? []).enumerated() {
            guard let object = value.objectValue else { throw TraceError(.malformed, file: name, "event \(index + 1) is not a mapping") }
            do {
                events.append(try MapEvent(json: object))
            } catch {
                throw TraceError(.malformed, file: name, "event \(index + 1): \(error.reason)")
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
        var header = Header(scenario: name)
        var events: [MapEvent] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let isUnfinishedLast = index == lines.count - 1 && !text.hasSuffix("\n")
            let object: JSONObject
            do {
                guard let parsed = try JSONParser.parse(String(line)).objectValue else { throw TraceError(.malformed, "not an object") }
                object = parsed
            } catch {
                if isUnfinishedLast {
                    if allowTruncated { break }
                    throw TraceError(.malformed, file: name, line: index + 1,
                                     "the last line is incomplete: the trace was cut mid-line (--allow-truncated reads the lines before it)")
                }
                throw TraceError(.malformed, file: name, line: index + 1, "not a JSON object: \(error)")
            }
            if index == 0, let parsed = Header(json: object) {
                header = parsed
                continue
            }
            do {
                events.append(try MapEvent(json: object))
            } catch {
                throw error.located(in: name, line: index + 1)
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
            throw TraceError(.unreadable, "\(error)")
        }
        guard bytes.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw TraceError(.unreadable, "\(path) is empty: not a trace (`mapsim load --trace` and --events always write one)")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return isYAML ? try read(yaml: text, name: path) : try read(jsonLines: text, name: path, allowTruncated: allowTruncated)
    }
}
