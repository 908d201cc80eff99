import MapSimJSON

/// Resolves a constant `text-field` for one feature: `{name}` tokens take the feature's property.
public enum TextField {
    /// The text a feature shows; a token for a missing property shows nothing.
    public static func resolve(_ field: String, properties: [(key: String, value: JSONValue)]) -> String {
        TokenReplacer.replace(in: field) { token in
            guard let value = properties.first(where: { $0.key == token })?.value else { return "" }
            switch value {
            case .string(let s): return s
            case .number(let n): return JSONWriter.formatNumber(n)
            case .bool(let b): return b ? "true" : "false"
            default: return ""
            }
        }
    }
}
