import MapSimJSON

/// One problem a style has, as `gl-style-validate` reports it: a message that starts with the
/// JSON path, and the line of the offending value (none for a `null`).
public struct StyleDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// `path: what is wrong`.
    public var message: String
    /// The 1-based line of the value, when known.
    public var line: Int?
    /// A stable name of the problem, for the few that gl-style-validate names (`source.canvas`).
    public var identifier: String?
    /// Whether it is only a warning (something that may be intended), which does not make the
    /// style invalid.
    public var isWarning: Bool
    /// Whether the engine loads the style all the same and only logs it: Mapbox's
    /// `ValidationWarning` (an unknown property), which its validator reports as it reports an
    /// error, but which Mapbox GL JS does not refuse a style for.
    public var engineLoadsAnyway = false
    /// Whether it is a JSON syntax error, which gl-style-validate's JSON shows with an empty `"error": {}` first.
    public var isParseError: Bool

    /// A diagnostic.
    public init(message: String, line: Int?, identifier: String? = nil, isWarning: Bool = false, isParseError: Bool = false) {
        self.message = message
        self.line = line
        self.identifier = identifier
        self.isWarning = isWarning
        self.isParseError = isParseError
    }

    /// The diagnostic as gl-style-validate's JSON object: `{"message": ..., "line": ...}`.
    public var json: JSONValue {
        var object = JSONObject(isParseError ? [("error", .object(JSONObject()))] : [])
        object["message"] = .string(message)
        if let identifier { object["identifier"] = .string(identifier) }
        if let line { object["line"] = .number(Double(line)) }
        if isWarning { object["severity"] = .string("warning") }
        return .object(object)
    }

    public var description: String { message }

    /// Diagnostics as gl-style-validate --json writes them (JavaScript's `JSON.stringify(errors,
    /// null, 2)`): one member per line, indented by two spaces; `[]` when there are none.
    public static func jsonText(_ diagnostics: [StyleDiagnostic]) -> String {
        guard !diagnostics.isEmpty else { return "[]" }
        let objects = diagnostics.map { diagnostic in
            var members = diagnostic.isParseError ? ["    \"error\": {}"] : []
            members.append("    \"message\": \(JSONWriter.string(.string(diagnostic.message)))")
            if let identifier = diagnostic.identifier { members.append("    \"identifier\": \(JSONWriter.string(.string(identifier)))") }
            if let line = diagnostic.line { members.append("    \"line\": \(line)") }
            if diagnostic.isWarning { members.append("    \"severity\": \"warning\"") }
            return "  {\n" + members.joined(separator: ",\n") + "\n  }"
        }
        return "[\n" + objects.joined(separator: ",\n") + "\n]"
    }
}
