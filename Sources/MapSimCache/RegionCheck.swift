import MapSim
import MapSimStyle

/// The offline regression test of a region: walks every zoom and every tile of every source in the
/// region, lays each vector tile out as the map does, and lists everything a map in the region would
/// need offline that the database lacks — the style, TileJSON, tiles, glyph ranges, sprite sheets,
/// GeoJSON documents and images. A row that must be revalidated and has expired counts as missing:
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

    /// A check of `definition` in `database` at `now`.
    public init(database: OfflineDatabase, definition: OfflineRegionDefinition, now: HTTPDate) {
        self.database = database
        self.definition = definition
        self.now = now.secondsSince1970
    }

    /// Runs the check; `progress` is told the tiles checked so far and the tiles to check.
    public func run(progress: (Int, Int) -> Void = { _, _ in }) throws(CacheError) -> Report {
        var report = Report()
        let plan = RegionPlan(definition: definition, mapbox: database.options.mapbox)
        guard let body = try lookUp([plan.style], bodies: true, into: &report).first ?? nil else {
            report.missing.append(Missing(kind: .style, url: plan.style.url))
            return report
        }
        let style: Style
        do {
            style = try Style.parse(body)
        } catch {
            report.missing.append(Missing(kind: .style, url: plan.style.url, reason: "the stored style cannot be read: \(error)"))
            return report
        }
        var images = Set<String>()
        for sheet in style.sprites {
            let parts = [plan.resources.spriteJSON(sheet, pixelRatio: definition.pixelRatio), plan.resources.spriteImage(sheet, pixelRatio: definition.pixelRatio)]
            let found = try lookUp(parts, bodies: true, into: &report)
            for (part, data) in zip(parts, found) {
                guard let data else {
                    report.missing.append(Missing(kind: .sprite, url: part.url))
                    continue
                }
                if part.kind == .spriteJSON, let index = try? SpriteIndex.parse(data) { images.formUnion(index.names) }
            }
        }
        var sets: [RegionPlan.TileSet] = []
        for source in plan.tiledSources(style) {
            guard let metadata = plan.tileJSON(of: source) else {
                if let set = plan.tileSet(of: source, tileJSON: TileJSON(tiles: source.tiles ?? []), base: plan.resources.styleURL) { sets.append(set) }
                continue
            }
            guard let data = try lookUp([metadata], bodies: true, into: &report).first ?? nil else {
                report.missing.append(Missing(kind: .tileJSON, url: metadata.url, source: source.id))
                continue
            }
            do {
                if let set = plan.tileSet(of: source, tileJSON: try TileJSON.parse(data), base: metadata.url) { sets.append(set) }
            } catch {
                report.missing.append(Missing(kind: .tileJSON, url: metadata.url, source: source.id, reason: "the stored TileJSON cannot be read: \(error)"))
            }
        }
        for source in style.sources where (source.kind == .geojson || source.kind == .image) && !(source.url ?? "").isEmpty {
            let resource = source.kind == .geojson ? Resource.source(plan.resources.resolve(source.url ?? "")) : Resource.image(plan.resources.resolve(source.url ?? ""))
            if try lookUp([resource], bodies: false, into: &report).first ?? nil == nil {
                report.missing.append(Missing(kind: source.kind == .geojson ? .geojson : .image, url: resource.url, source: source.id))
            }
        }
        var counts: [Int: ZoomCount] = [:]
        var glyphZooms: [GlyphRangeKey: Int] = [:]
        let total = sets.reduce(0) { $0 + $1.count }
        var done = 0
        for set in sets {
            let vector = style.sources.first { $0.id == set.source }?.kind == .vector
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
                            let needs = try TileRequirements(vectorTile: data, style: style, source: set.source, tile: id, zoom: zoom, availableImages: images, encoding: set.encoding)
                            for key in needs.glyphs where (glyphZooms[key] ?? .max) > zoom { glyphZooms[key] = zoom }
                        }
                    } catch {
                        counts[id.z]?.missingTiles += 1
                        report.missing.append(Missing(kind: .unreadableTile, url: resource.url, source: set.source, tile: id, zoom: id.z, reason: error.description))
                    }
                }
                progress(done, total)
            }
        }
        let glyphs = glyphZooms.keys.sorted()
        let glyphResources = plan.glyphRanges(style, needed: Set(glyphs))
        let found = try lookUp(glyphResources, bodies: false, into: &report)
        for (key, (resource, data)) in zip(glyphs, zip(glyphResources, found)) where data == nil {
            let zoom = glyphZooms[key] ?? 0
            counts[zoom, default: ZoomCount(zoom: zoom)].missingGlyphRanges += 1
            report.missing.append(Missing(kind: .glyphs, url: resource.url, glyphs: key, zoom: zoom))
        }
        report.zooms = counts.values.sorted { $0.zoom < $1.zoom }
        let order = Dictionary(uniqueKeysWithValues: Kind.allCases.enumerated().map { ($1, $0) })
        report.missing = report.missing.enumerated().sorted { (order[$0.element.kind] ?? 0, $0.offset) < (order[$1.element.kind] ?? 0, $1.offset) }.map(\.element)
        return report
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
