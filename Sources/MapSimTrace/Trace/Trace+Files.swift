import MapSim
import Foundation
import Yams
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
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch {
            throw TraceError(.malformed, file: name, "not valid YAML: \(error)")
        }
        guard let root = node.map(JSONValue.init(yaml:))?.objectValue, let header = Header(json: root) else {
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

    /// Reads a JSON-lines trace; the header line is optional (plain `--events` files read too), and
    /// an unfinished last line — a run that died mid-write — is left out.
    public static func read(jsonLines text: String, name: String = "trace") throws(TraceError) -> Trace {
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
                if isUnfinishedLast { break }
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

    /// Reads a trace file: YAML for `.yaml`/`.yml`, JSON lines otherwise.
    public static func read(file path: String) throws(TraceError) -> Trace {
        guard let data = FileManager.default.contents(atPath: path) else { throw TraceError(.unreadable, "cannot read \(path)") }
        let text = String(decoding: data, as: UTF8.self)
        return path.hasSuffix(".yaml") || path.hasSuffix(".yml") ? try read(yaml: text, name: path) : try read(jsonLines: text, name: path)
    }
}

extension JSONValue {
    /// The value of a composed YAML node, with mapping order kept.
    init(yaml node: Node) {
        switch node {
        case .scalar:
            switch node.any {
            case let bool as Bool: self = .bool(bool)
            case let int as Int: self = .number(Double(int))
            case let double as Double: self = .number(double)
            case is NSNull: self = .null
            default: self = .string(node.string ?? "")
            }
        case .mapping(let mapping):
            self = .object(JSONObject(mapping.map { ($0.key.string ?? "", JSONValue(yaml: $0.value)) }))
        case .sequence(let sequence):
            self = .array(sequence.map(JSONValue.init(yaml:)))
        case .alias:
            self = .null
        }
    }
}
