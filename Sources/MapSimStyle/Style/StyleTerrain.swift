import MapSimJSON

/// The style's `terrain` (style spec v8): the map's ground raised by a `raster-dem` source.
public struct StyleTerrain: Sendable, Hashable {
    /// The `raster-dem` source whose heights the ground takes.
    public var source: String
    /// How much the heights are multiplied by (default 1).
    public var exaggeration: Double

    /// Terrain over `source`, its heights times `exaggeration`.
    public init(source: String, exaggeration: Double = 1) {
        self.source = source
        self.exaggeration = exaggeration
    }

    /// Reads `terrain`: its source must be a `raster-dem` source of `sources`.
    static func parse(_ field: JSONField, sources: [StyleSource]) throws(StyleError) -> StyleTerrain {
        _ = try field.object()
        guard let sourceField = field.member("source") else { throw field.failure("missing required property \"source\"") }
        let id = try sourceField.string()
        guard let source = sources.first(where: { $0.id == id }) else { throw sourceField.failure("source \"\(id)\" not found") }
        guard source.kind == .rasterDEM else { throw sourceField.failure("terrain source \"\(id)\" must be a raster-dem source, not \(source.kind.rawValue)") }
        return StyleTerrain(source: id, exaggeration: try field.member("exaggeration")?.number(in: 0...1_000) ?? 1)
    }
}
