import MapSim
import MapSimJSON
import MapSimStyle

/// A tiled source of a region's style as stored in the offline database: what an export of the
/// region to a tile archive writes — its tiles (by the URL template MapLibre keyed them with) and
/// its TileJSON, for the archive's metadata. A region downloaded for an engine that loads Mapbox
/// imports has the sources of the styles its style imports too, each in its import's scope.
public struct RegionArchiveSource: Sendable {
    /// The source's id in its style.
    public var id: String
    /// The import whose style declares it (the root's scope for the root style's own).
    public var scope: StyleScope
    /// vector, raster or raster-dem.
    public var kind: StyleSource.Kind
    /// The URL template its tile rows are keyed by, in canonical form.
    public var urlTemplate: String
    /// Its TileJSON as stored (or made from the style's inline `tiles`), as a JSON object.
    public var tileJSON: JSONObject

    /// How a user names it: its id for the root style's, `IMPORT/ID` for an import's
    /// (`basemap/composite`; a nested import's `a/a2/ID`), as events name imports.
    public var name: String { scope.isRoot ? id : "\(scope)/\(id)" }

    /// The tiled sources of region `region`'s stored style, in the style's order, then those of the
    /// styles it imports (when it was downloaded for an engine that loads them) in the order the
    /// engine loads them; a source whose TileJSON is not stored is left out.
    public static func sources(of region: OfflineRegion, in database: OfflineDatabase) throws -> [RegionArchiveSource] {
        let definition = try region.definition.get()
        let (plan, keys) = try database.plan(of: region.id, definition: definition)
        guard let styleBody = try database.resourceData(url: plan.style.url) else {
            throw CacheError(.noSuchRegion, path: database.path, "the style of region \(region.id), \(plan.style.url), is not stored in \(database.path)")
        }
        let root = plan.root(try Style.parse(styleBody, flavor: plan.followsImports ? .mapbox : .maplibre))
        let members = plan.followsImports ? try database.storedMembers(root: root, plan: plan, keys: keys).members : [root]
        var found: [RegionArchiveSource] = []
        for member in members {
            for source in plan.tiledSources(member.style) {
                var body: [UInt8]
                var base = member.resources.styleURL
                if let metadata = plan.tileJSON(of: source, in: member) {
                    guard let stored = try database.resourceData(url: metadata.url) else { continue }
                    body = stored
                    base = metadata.url
                } else {
                    var inline = JSONObject()
                    inline["tiles"] = .array((source.tiles ?? []).map { .string($0) })
                    body = []
                    JSONWriter.write(.object(inline), into: &body)
                }
                guard let set = plan.tileSet(of: source, tileJSON: try TileJSON.parse(body), base: base, scope: member.scope),
                      case .object(let object) = try JSONParser.parse(body) else { continue }
                found.append(RegionArchiveSource(id: source.id, scope: member.scope, kind: source.kind,
                                                 urlTemplate: database.options.mapbox.canonical(set.template.template), tileJSON: object))
            }
        }
        return found
    }
}
