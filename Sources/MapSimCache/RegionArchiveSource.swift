import MapSim
import MapSimJSON
import MapSimStyle

/// A tiled source of a region's style as stored in the offline database: what an export of the
/// region to a tile archive writes — its tiles (by the URL template MapLibre keyed them with) and
/// its TileJSON, for the archive's metadata.
public struct RegionArchiveSource: Sendable {
    /// The source's id in the style.
    public var id: String
    /// vector, raster or raster-dem.
    public var kind: StyleSource.Kind
    /// The URL template its tile rows are keyed by, in canonical form.
    public var urlTemplate: String
    /// Its TileJSON as stored (or made from the style's inline `tiles`), as a JSON object.
    public var tileJSON: JSONObject

    /// The tiled sources of region `region`'s stored style, in the style's order; a source whose
    /// TileJSON is not stored is left out.
    public static func sources(of region: OfflineRegion, in database: OfflineDatabase) throws -> [RegionArchiveSource] {
        let definition = try region.definition.get()
        let plan = RegionPlan(definition: definition, mapbox: database.options.mapbox)
        guard let styleBody = try database.resourceData(url: plan.style.url) else {
            throw CacheError(.noSuchRegion, path: database.path, "the style of region \(region.id), \(plan.style.url), is not stored in \(database.path)")
        }
        let style = try Style.parse(styleBody)
        var found: [RegionArchiveSource] = []
        for source in plan.tiledSources(style) {
            var body: [UInt8]
            var base = plan.resources.styleURL
            if let metadata = plan.tileJSON(of: source) {
                guard let stored = try database.resourceData(url: metadata.url) else { continue }
                body = stored
                base = metadata.url
            } else {
                var inline = JSONObject()
                inline["tiles"] = .array((source.tiles ?? []).map { .string($0) })
                body = []
                JSONWriter.write(.object(inline), into: &body)
            }
            guard let set = plan.tileSet(of: source, tileJSON: try TileJSON.parse(body), base: base),
                  case .object(let object) = try JSONParser.parse(body) else { continue }
            found.append(RegionArchiveSource(id: source.id, kind: source.kind, urlTemplate: database.options.mapbox.canonical(set.template.template), tileJSON: object))
        }
        return found
    }
}
