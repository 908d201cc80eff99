import MapSim
import MapSimStyle

extension OfflineDatabase {
    /// A region's status when no download runs, as MapLibre Native's `getStatus` works it out:
    /// the completed counts from what the database holds, the required counts from the stored
    /// style and TileJSON documents — precise only when every TileJSON is stored. Tile counts of a
    /// tile pyramid use MapLibre's `tileCount` (the columns and rows between the corners' tiles).
    /// A region downloaded with only the glyph ranges its tiles need requires those ranges. A region
    /// downloaded for a Mapbox engine requires the styles its style imports and what they name, as
    /// the download found them (`RegionPlan+Imports`), each resource once — precise only when every
    /// imported style is stored too.
    ///
    /// This is the one definition of a region's completeness: `region download` ends with it, and
    /// `status`, `list` and `check` report it.
    public func status(of region: OfflineRegion) throws(CacheError) -> OfflineRegionStatus {
        var status = try completedStatus(of: region.id)
        status.requiredResourceCount += 1
        guard case .success(let definition) = region.definition else { return status }
        let (plan, keys) = try plan(of: region.id, definition: definition)
        guard let body = try storedResponse(RowKey(plan.style, mapbox: keys), for: plan.style.url)?.data,
              let style = try? Style.parse(body, flavor: plan.followsImports ? .mapbox : .maplibre) else { return status }
        status.requiredResourceCountIsPrecise = true
        let root = plan.root(style)
        guard plan.followsImports else {
            try count(root, plan: plan, keys: keys, into: &status)
            let glyphRanges = try glyphSavings(of: region.id)?.needed ?? plan.glyphRangeCount(style)
            status.requiredResourceCount += glyphRanges
            return status
        }
        let stored = try storedMembers(root: root, plan: plan, keys: keys)
        status.requiredResourceCount += stored.importedStyles
        if !stored.isWhole { status.requiredResourceCountIsPrecise = false }
        let members = stored.members
        let needed = try glyphSavings(of: region.id)?.needed
        var shared = Set<String>()
        for member in members { try count(member, plan: plan, keys: keys, shared: &shared, glyphs: needed == nil, into: &status) }
        status.requiredResourceCount += needed ?? 0
        return status
    }

    /// The styles of a region downloaded for an engine that loads imports, as the download found
    /// them: `root`, then each style it imports as stored, each URL once (a style imported twice, or
    /// in a cycle, is one style of the region), looked up by their rows' `keys` (`plan(of:definition:)`).
    /// `importedStyles` counts the imported styles' URLs; `isWhole` is false when one of them is not
    /// stored, so what it names is not known.
    func storedMembers(root: RegionPlan.Member, plan: RegionPlan, keys: MapboxURL) throws(CacheError) -> (members: [RegionPlan.Member], importedStyles: Int, isWhole: Bool) {
        var members = [root]
        var seen: Set<String> = [keys.canonical(plan.style.url)]
        var isWhole = true
        var next = 0
        while next < members.count {
            for pending in plan.imports(of: members[next]) {
                if case .url(let url) = pending.style {
                    guard seen.insert(keys.canonical(url)).inserted else { continue }
                    guard let data = try storedResponse(RowKey(.style(url), mapbox: keys), for: url)?.data else {
                        isWhole = false
                        continue
                    }
                    if let member = try? plan.member(pending, bytes: data) { members.append(member) }
                } else if let member = try? plan.member(pending) {
                    members.append(member)
                }
            }
            next += 1
        }
        return (members, seen.count - 1, isWhole)
    }

    /// Adds to `status` what one style of the region requires besides its glyph ranges: its
    /// TileJSON and tiles, GeoJSON documents and images, and sprites at ratios 1 and 2.
    private func count(_ member: RegionPlan.Member, plan: RegionPlan, keys: MapboxURL, into status: inout OfflineRegionStatus) throws(CacheError) {
        for (metadata, set) in try tileSets(of: member, plan: plan, keys: keys, status: &status) {
            if metadata != nil { status.requiredResourceCount += 1 }
            if let set { add(set, plan: plan, to: &status) }
        }
        let style = member.style
        status.requiredResourceCount += style.sources.filter { ($0.kind == .geojson || $0.kind == .image) && !($0.url ?? "").isEmpty }.count
        status.requiredResourceCount += 4 * style.sprites.count
    }

    /// Adds to `status` what one style of a region with imports requires, as its download queued
    /// it: each resource, TileJSON and tile set once however many styles name it (`shared`, by the
    /// URL as the database keys it), the
    /// glyph ranges only with `glyphs`, and the style's models.
    private func count(_ member: RegionPlan.Member, plan: RegionPlan, keys: MapboxURL, shared: inout Set<String>, glyphs: Bool, into status: inout OfflineRegionStatus) throws(CacheError) {
        for (metadata, set) in try tileSets(of: member, plan: plan, keys: keys, status: &status) {
            if let metadata, !shared.insert(keys.canonical(metadata.url)).inserted { continue }
            if metadata != nil { status.requiredResourceCount += 1 }
            if let set, shared.insert(keys.canonical(set.template.template)).inserted { add(set, plan: plan, to: &status) }
        }
        status.requiredResourceCount += plan.styleResources(member, glyphs: glyphs).filter { shared.insert(keys.canonical($0.url)).inserted }.count
    }

    /// The tiled sources of `member`: each one's TileJSON resource (nil when its tiles are inline)
    /// and its tiles in the region (nil when its TileJSON is not stored — the count is then not
    /// precise — or the source has none in the region).
    private func tileSets(of member: RegionPlan.Member, plan: RegionPlan, keys: MapboxURL, status: inout OfflineRegionStatus) throws(CacheError) -> [(Resource?, RegionPlan.TileSet?)] {
        var sets: [(Resource?, RegionPlan.TileSet?)] = []
        for source in plan.tiledSources(member.style) {
            guard let metadata = plan.tileJSON(of: source, in: member) else {
                sets.append((nil, plan.tileSet(of: source, tileJSON: TileJSON(tiles: source.tiles ?? []), base: member.resources.styleURL, scope: member.scope)))
                continue
            }
            guard let data = try storedResponse(RowKey(metadata, mapbox: keys), for: metadata.url)?.data, let parsed = try? TileJSON.parse(data) else {
                status.requiredResourceCountIsPrecise = false
                sets.append((metadata, nil))
                continue
            }
            sets.append((metadata, plan.tileSet(of: source, tileJSON: parsed, base: metadata.url, scope: member.scope)))
        }
        return sets
    }

    /// Adds a tile set's tiles, counted as MapLibre's `tileCount` counts them.
    private func add(_ set: RegionPlan.TileSet, plan: RegionPlan, to status: inout OfflineRegionStatus) {
        let count = set.zooms.reduce(0) { $0 + plan.definition.statusTileCount(atZoom: $1) }
        status.requiredTileCount += count
        status.requiredResourceCount += count
    }
}

extension OfflineDatabase {
    /// A region's completeness: its status (`status(of:)`) and what is missing, with why.
    public func completeness(of region: OfflineRegion) throws(CacheError) -> RegionCompleteness {
        RegionCompleteness(status: try status(of: region), absent: try absentResources(of: region.id))
    }
}
