import MapSim
import MapSimStyle

/// The offline regression test of a region: walks every zoom and every tile of every source in the
/// region, lays each vector tile out as the map does, and lists everything a map in the region would
/// need offline that the database lacks — the style, TileJSON, tiles, glyph ranges, sprite sheets,
/// GeoJSON documents and images — and, for an engine that loads Mapbox `imports`, the same for every
/// style imported, and the models. A row that must be revalidated and has expired counts as missing:
/// offline, the map cannot use it. Tiles outside a source's bounds are not asked for by the map and
/// are not checked. What `check` calls complete, an offline load of a view in the region reaches
/// map-idle from, with no error.
public struct RegionCheck: Sendable {
    /// What is missing.
    public enum Kind: String, Sendable, CaseIterable {
        case style
        case tileJSON = "tilejson"
        case sprite
        case geojson
        case image
        case tile
        /// A stored tile the map cannot read (its error would stop the tile).
        case unreadableTile = "unreadable-tile"
        case glyphs
        /// A glTF model of a Mapbox style or of its `model` source.
        case model
    }

    /// One thing a map in the region would need and the database lacks.
    public struct Missing: Sendable, Equatable {
        /// What it is.
        public var kind: Kind
        /// The URL the map would request.
        public var url: String
        /// The source, for TileJSON and tiles.
        public var source: String?
        /// The tile.
        public var tile: CanonicalTileID?
        /// The glyph range: its font stack and first code point.
        public var glyphs: GlyphRangeKey?
        /// The lowest zoom that needs it (tiles: the tile's zoom).
        public var zoom: Int?
        /// Why a stored tile cannot be used.
        public var reason: String?
    }

    /// Counts of one zoom of tiles.
    public struct ZoomCount: Sendable, Equatable {
        /// The zoom of the tiles.
        public var zoom: Int
        /// Tiles the map would ask for, over every source.
        public var tiles = 0
        /// Of them, tiles the database lacks (or cannot be read).
        public var missingTiles = 0
        /// Glyph ranges first needed at this zoom that the database lacks.
        public var missingGlyphRanges = 0
    }

    /// What a check found.
    public struct Report: Sendable, Equatable {
        /// What the database lacks, in order: style, TileJSON, sprites, GeoJSON, images, tiles, glyphs.
        public var missing: [Missing] = []
        /// Counts by zoom, lowest first.
        public var zooms: [ZoomCount] = []
        /// Resources looked up, tiles included.
        public var checked = 0

        /// Whether nothing is missing.
        public var isComplete: Bool { missing.isEmpty }
    }

    /// The database.
    public var database: OfflineDatabase
    /// The region.
    public var definition: OfflineRegionDefinition
    /// The time rows must be usable at, in seconds since 1970.
    public var now: Int64
    /// The engine whose map is checked: one that loads Mapbox `imports` needs every imported
    /// style and what each names.
    public var engine: Engine

    /// A check of `definition` in `database` at `now`, for a map of `engine`.
    public init(database: OfflineDatabase, definition: OfflineRegionDefinition, now: HTTPDate, engine: Engine = .maplibreNative) {
        self.database = database
        self.definition = definition
        self.now = now.secondsSince1970
        self.engine = engine
    }

    /// One tileset to walk: its tiles and the member whose style lays them out.
    private struct Walk {
        var set: RegionPlan.TileSet
        var member: Int
    }

    /// Runs the check; `progress` is told the tiles checked so far and the tiles to check.
    public func run(progress: (Int, Int) -> Void = { _, _ in }) throws(CacheError) -> Report {
        var report = Report()
        let plan = RegionPlan(definition: definition, mapbox: database.options.mapbox, engine: engine)
        guard let body = try lookUp([plan.style], bodies: true, into: &report).first ?? nil else {
            report.missing.append(Missing(kind: .style, url: plan.style.url))
            return report
        }
        let style: Style
        do {
            style = try Style.parse(body, flavor: plan.followsImports ? .mapbox : .maplibre)
        } catch {
            report.missing.append(Missing(kind: .style, url: plan.style.url, reason: "the stored style cannot be read: \(error)"))
            return report
        }
        let members = try self.members(root: plan.root(style), plan: plan, into: &report)
        var images: [Set<String>] = []
        var walks: [Walk] = []
        for (index, member) in members.enumerated() {
            images.append(try checkStyleResources(of: member, plan: plan, into: &report))
            for source in plan.tiledSources(member.style) {
                guard let metadata = plan.tileJSON(of: source, in: member) else {
                    if let set = plan.tileSet(of: source, tileJSON: TileJSON(tiles: source.tiles ?? []), base: member.resources.styleURL, scope: member.scope) {
                        walks.append(Walk(set: set, member: index))
                    }
                    continue
                }
                guard let data = try lookUp([metadata], bodies: true, into: &report).first ?? nil else {
                    report.missing.append(Missing(kind: .tileJSON, url: metadata.url, source: source.id))
                    continue
                }
                do {
                    if let set = plan.tileSet(of: source, tileJSON: try TileJSON.parse(data), base: metadata.url, scope: member.scope) {
                        walks.append(Walk(set: set, member: index))
                    }
                } catch {
                    report.missing.append(Missing(kind: .tileJSON, url: metadata.url, source: source.id, reason: "the stored TileJSON cannot be read: \(error)"))
                }
            }
        }
        var counts: [Int: ZoomCount] = [:]
        // The glyph ranges each member's tiles need, each at the lowest zoom that needs it.
        var glyphZooms: [[GlyphRangeKey: Int]] = Array(repeating: [:], count: members.count)
        let total = walks.reduce(0) { $0 + $1.set.count }
        var done = 0
        for walk in walks {
            let set = walk.set
            let member = members[walk.member]
            let vector = member.style.sources.first { $0.id == set.source }?.kind == .vector
            var tiles = set.makeIterator()
            var exhausted = false
            while !exhausted {
                var batch: [CanonicalTileID] = []
                while batch.count < 256 {
                    guard let id = tiles.next() else {
                        exhausted = true
                        break
                    }
                    done += 1
                    if set.bounds.intersects(id) { batch.append(id) }
                }
                if batch.isEmpty { continue }
                let resources = batch.map(set.resource)
                let found = try lookUp(resources, bodies: vector, into: &report)
                for (id, (resource, data)) in zip(batch, zip(resources, found)) {
                    counts[id.z, default: ZoomCount(zoom: id.z)].tiles += 1
                    guard let data else {
                        counts[id.z]?.missingTiles += 1
                        report.missing.append(Missing(kind: .tile, url: resource.url, source: set.source, tile: id, zoom: id.z))
                        continue
                    }
                    guard vector, !data.isEmpty else { continue }
                    do {
                        for zoom in set.layoutZooms(of: id) {
                            let needs = try TileRequirements(vectorTile: data, style: member.style, source: set.source, tile: id, zoom: zoom,
                                                             availableImages: images[walk.member], encoding: set.encoding)
                            for key in needs.glyphs where (glyphZooms[walk.member][key] ?? .max) > zoom { glyphZooms[walk.member][key] = zoom }
                        }
                    } catch {
                        counts[id.z]?.missingTiles += 1
                        report.missing.append(Missing(kind: .unreadableTile, url: resource.url, source: set.source, tile: id, zoom: id.z, reason: error.description))
                    }
                }
                progress(done, total)
            }
        }
        // A range two styles share (an import's default fonts) is one resource, listed once.
        var listed = Set<String>()
        for (member, zooms) in zip(members, glyphZooms) {
            let glyphs = zooms.keys.sorted()
            let glyphResources = plan.glyphRanges(member, needed: Set(glyphs))
            let found = try lookUp(glyphResources, bodies: false, into: &report)
            for (key, (resource, data)) in zip(glyphs, zip(glyphResources, found)) where data == nil && listed.insert(resource.url).inserted {
                let zoom = zooms[key] ?? 0
                counts[zoom, default: ZoomCount(zoom: zoom)].missingGlyphRanges += 1
                report.missing.append(Missing(kind: .glyphs, url: resource.url, glyphs: key, zoom: zoom))
            }
        }
        report.zooms = counts.values.sorted { $0.zoom < $1.zoom }
        let order = Dictionary(uniqueKeysWithValues: Kind.allCases.enumerated().map { ($1, $0) })
        report.missing = report.missing.enumerated().sorted { (order[$0.element.kind] ?? 0, $0.offset) < (order[$1.element.kind] ?? 0, $1.offset) }.map(\.element)
        return report
    }

    /// The styles of the region as the engine loads them: the root, then (for an engine that loads
    /// imports) each style it imports, as stored, in the engine's order; an imported style the
    /// database lacks, or cannot read, is missing, and so is what it would have named.
    private func members(root: RegionPlan.Member, plan: RegionPlan, into report: inout Report) throws(CacheError) -> [RegionPlan.Member] {
        var members = [root]
        var pending = plan.imports(of: root)
        var seen = Set<String>()
        while !pending.isEmpty {
            let next = pending.removeFirst()
            let member: RegionPlan.Member
            switch next.style {
            case .url(let url):
                // A style imported twice (or in a cycle) is one style of the region.
                guard seen.insert(url).inserted else { continue }
                guard let body = try lookUp([.style(url)], bodies: true, into: &report).first ?? nil else {
                    report.missing.append(Missing(kind: .style, url: url))
                    continue
                }
                do {
                    member = try plan.member(next, bytes: body)
                } catch {
                    report.missing.append(Missing(kind: .style, url: url, reason: "the stored style cannot be read: \(error)"))
                    continue
                }
            case .inline:
                guard let made = try? plan.member(next) else { continue }
                member = made
            }
            members.append(member)
            pending += plan.imports(of: member)
        }
        return members
    }

    /// Checks what `member` names besides TileJSON and tiles — sprite sheets at the region's pixel
    /// ratio, GeoJSON documents, images and (for an engine that loads imports) models — and
    /// returns the names of its sprites' images.
    private func checkStyleResources(of member: RegionPlan.Member, plan: RegionPlan, into report: inout Report) throws(CacheError) -> Set<String> {
        var images = Set<String>()
        for sheet in member.style.sprites {
            let parts = [member.resources.spriteJSON(sheet, pixelRatio: definition.pixelRatio), member.resources.spriteImage(sheet, pixelRatio: definition.pixelRatio)]
            let found = try lookUp(parts, bodies: true, into: &report)
            for (part, data) in zip(parts, found) {
                guard let data else {
                    report.missing.append(Missing(kind: .sprite, url: part.url))
                    continue
                }
                if part.kind == .spriteJSON, let index = try? SpriteIndex.parse(data) { images.formUnion(index.names) }
            }
        }
        for source in member.style.sources where (source.kind == .geojson || source.kind == .image) && !(source.url ?? "").isEmpty {
            let url = member.resources.resolve(source.url ?? "")
            let resource = source.kind == .geojson ? Resource.source(url) : Resource.image(url)
            if try lookUp([resource], bodies: false, into: &report).first ?? nil == nil {
                report.missing.append(Missing(kind: source.kind == .geojson ? .geojson : .image, url: resource.url, source: source.id))
            }
        }
        if plan.followsImports {
            let models = plan.models(of: member)
            for (model, data) in zip(models, try lookUp(models, bodies: false, into: &report)) where data == nil {
                report.missing.append(Missing(kind: .model, url: model.url))
            }
        }
        return images
    }

    /// The bodies of the usable rows of `resources` (empty for no content), nil for each the
    /// database lacks; bodies are read only when `bodies`.
    private func lookUp(_ resources: [Resource], bodies: Bool, into report: inout Report) throws(CacheError) -> [[UInt8]?] {
        report.checked += resources.count
        let found = try database.regionLookup(resources, bodies: Array(repeating: bodies, count: resources.count), usableAt: now)
        return found.map { lookup in
            guard lookup.storedSize != nil else { return nil }
            return lookup.body ?? []
        }
    }
}
