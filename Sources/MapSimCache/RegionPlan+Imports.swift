import MapSim
import MapSimJSON
import MapSimStyle

/// The styles a region holds for an engine that loads Mapbox `imports`, found as that engine finds
/// them (`LoadSequence+Imports`): each import's style from its URL — relative URLs resolved against
/// the importing style's, `mapbox://styles/…` on the Styles API — or inline (`data`), nested up to
/// `StyleImport.maximumDepth` styles deep counting the root; a root that is a fragment or has a
/// schema is itself the import `basemap`. Each style brings its own sources, sprites, glyphs (its
/// own `glyphs`, or for an import Mapbox's default fonts) and models. A style URL imported twice (or
/// in a cycle) is one style of the region: its resources are the same.
extension RegionPlan {
    /// One style of the region: the root, or a style it imports.
    struct Member: Sendable {
        /// Where it is in the tree of imports (the root's scope for the root).
        var scope: StyleScope
        /// The style as written (its names unscoped).
        var style: Style
        /// Its URLs' resolver: relative URLs resolve against its own URL.
        var resources: StyleResources
        /// Its glyphs URL template as written: its own, or for an import Mapbox's default.
        var glyphs: String?
        /// How deep it is, the root 0 (a root loaded as the import `basemap` 1).
        var depth: Int
    }

    /// Where an import's style comes from.
    enum ImportedStyle: Sendable {
        /// Requested from this URL, as the engine requests it.
        case url(String)
        /// Given inline (`data`).
        case inline(JSONValue)
    }

    /// One import of a member: its scope and where its style is.
    struct PendingImport: Sendable {
        var scope: StyleScope
        var style: ImportedStyle
        /// The member that imports it.
        var parent: Member
    }

    /// The root style as a member of the region: a Mapbox engine loads a fragment or a style with
    /// a schema as the import `basemap`; either way a root with imports draws with Mapbox's default
    /// fonts when it names none.
    func root(_ style: Style) -> Member {
        if followsImports && style.loadsAsImport {
            return Member(scope: StyleScope.root.child("basemap"), style: style, resources: resources,
                          glyphs: style.glyphs ?? Engine.mapboxDefaultGlyphs, depth: 1)
        }
        let glyphs = followsImports && style.declaresImports ? style.glyphs ?? Engine.mapboxDefaultGlyphs : style.glyphs
        return Member(scope: .root, style: style, resources: resources, glyphs: glyphs, depth: 0)
    }

    /// The imports of `member` the engine loads, in order: none when the plan does not follow
    /// imports or the member is as deep as styles nest; an import with neither URL nor data is an
    /// empty style and brings nothing.
    func imports(of member: Member) -> [PendingImport] {
        guard followsImports, member.depth < StyleImport.maximumDepth - 1 else { return [] }
        return member.style.imports.compactMap { entry in
            let scope = member.scope.child(entry.id)
            if let data = entry.data { return PendingImport(scope: scope, style: .inline(data), parent: member) }
            guard !entry.url.isEmpty else { return nil }
            return PendingImport(scope: scope, style: .url(member.resources.importedStyle(entry.url, query: importStyleQuery)), parent: member)
        }
    }

    /// The member an import makes of its style: `bytes` (the JSON at its URL) or its inline
    /// document, read by Mapbox's style spec.
    func member(_ pending: PendingImport, bytes: [UInt8]? = nil) throws(StyleError) -> Member {
        let style: Style
        let url: String?
        switch pending.style {
        case .url(let styleURL):
            style = try Style.parse(bytes ?? [], flavor: .mapbox)
            url = styleURL
        case .inline(let document):
            style = try Style.parse(document, flavor: .mapbox)
            url = pending.parent.resources.styleURL
        }
        return Member(scope: pending.scope, style: style, resources: StyleResources(styleURL: url, mapbox: resources.mapbox),
                      glyphs: style.glyphs ?? Engine.mapboxDefaultGlyphs, depth: pending.parent.depth + 1)
    }

    /// The TileJSON of a tiled source of `member`; nil when its tiles are inline.
    func tileJSON(of source: StyleSource, in member: Member) -> Resource? {
        member.resources.metadata(of: source)
    }

    /// The models `member` names — its `models`, then those of its `model` sources — each a
    /// `Resource.model` of the URL the map asks for.
    func models(of member: Member) -> [Resource] {
        member.style.models.map { .model(member.resources.resolve(resources.mapbox.model($0.url))) }
            + member.style.sources.filter { $0.kind == .model }.flatMap { source in source.models.map { .model(member.resources.resolve($0.url)) } }
    }

    /// How many glyph ranges the members download: every range of every font stack of each
    /// distinct glyphs URL, as the database keys it (a Mapbox API URL and its `mapbox://` form are one).
    func glyphRangeCount(_ members: [Member]) -> Int {
        var stacks = Set<String>()
        for member in members {
            guard let glyphs = member.glyphs else { continue }
            let template = resources.mapbox.canonical(member.resources.glyphTemplate(glyphs))
            for stack in member.style.fontStacks { stacks.insert(template + "\u{0}" + stack.joined(separator: ",")) }
        }
        return stacks.count * (definition.includeIdeographs ? Self.allGlyphRanges.count : Self.nonIdeographGlyphRanges.count)
    }
}
