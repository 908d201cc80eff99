import MapSimJSON

/// One entry of a Mapbox style's `imports`: another style loaded into this one, in its own scope,
/// from a URL or given inline, with config values over the imported style's `schema` defaults.
public struct StyleImport: Sendable, Equatable {
    /// How deep styles nest at most, the root included (Mapbox's `MAX_IMPORT_DEPTH`): the imports
    /// of a style this deep are not loaded.
    public static let maximumDepth = 5

    /// The import's id: its scope's name, and how `config` and the map address it.
    public var id: String
    /// Where the imported style is (`url`); `mapbox://styles/USER/STYLE`, a URL, or empty with `data`.
    public var url: String
    /// The imported style given inline (`data`): nothing is requested for it.
    public var data: JSONValue?
    /// The import's config values (`config`), over the imported style's schema defaults.
    public var config: JSONObject

    /// An import.
    public init(id: String, url: String, data: JSONValue? = nil, config: JSONObject = JSONObject()) {
        self.id = id
        self.url = url
        self.data = data
        self.config = config
    }

    /// Reads one entry of `imports`.
    static func parse(_ field: JSONField) throws(StyleError) -> StyleImport {
        _ = try field.object()
        guard let id = field.member("id") else { throw field.failure("missing required property \"id\"") }
        guard let url = field.member("url") else { throw field.failure("missing required property \"url\"") }
        var entry = StyleImport(id: try id.string(), url: try url.string())
        if let data = field.member("data"), data.value != .null {
            _ = try data.object()
            entry.data = data.value
        }
        if let config = field.member("config"), config.value != .null { entry.config = try config.object() }
        return entry
    }
}
