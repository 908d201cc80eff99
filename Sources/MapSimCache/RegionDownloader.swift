import Foundation
import MapSim
import MapSimJSON
import MapSimStyle

/// What an offline region covers.
public struct RegionDefinition: Sendable, Equatable {
    /// The style's URL.
    public var styleURL: String
    /// The area.
    public var bounds: LngLatBounds
    /// The lowest zoom downloaded.
    public var minZoom: Int
    /// The highest zoom downloaded.
    public var maxZoom: Int
    /// The pixel ratio of sprites and `{ratio}` tiles.
    public var pixelRatio: Double

    /// A region.
    public init(styleURL: String, bounds: LngLatBounds, minZoom: Int, maxZoom: Int, pixelRatio: Double = 1) {
        self.styleURL = styleURL
        self.bounds = bounds
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.pixelRatio = pixelRatio
    }

    /// The definition as the JSON stored with the region.
    var json: String {
        JSONWriter.string(.object(JSONObject([
            ("style", .string(styleURL)),
            ("bounds", .array([bounds.west, bounds.south, bounds.east, bounds.north].map(JSONValue.number))),
            ("minzoom", .number(Double(minZoom))), ("maxzoom", .number(Double(maxZoom))), ("pixelRatio", .number(pixelRatio)),
        ])))
    }
}

/// How far a region download is.
public struct RegionProgress: Sendable, Equatable {
    /// Resources done (stored, found in the cache, or absent on the server).
    public var completedResources = 0
    /// Resources known to be needed so far; grows as TileJSONs arrive.
    public var requiredResources = 0
    /// Bytes stored or found.
    public var completedBytes = 0
    /// Resources that could not be downloaded.
    public var failures: [String] = []

    /// Whether every required resource is done.
    public var isComplete: Bool { completedResources + failures.count == requiredResources }
}

/// Downloads an offline region into a cache, as MapLibre's offline download does: the style, its
/// sprites, the glyph ranges its text can use, every source's TileJSON and every tile of the
/// region's pyramid — each pinned to the region so that it is never evicted. Entries already in the
/// cache are pinned without a request.
public struct RegionDownloader: Sendable {
    /// The cache to fill.
    public var cache: SQLiteCache
    /// Answers `file://` and `asset://` URLs.
    public var file: any ResourceLoader
    /// The network.
    public var network: any ResourceLoader
    /// How `mapbox://` URLs are normalized.
    public var mapbox: MapboxURL
    /// The most requests in flight at once.
    public var maximumConcurrentRequests: Int

    /// A downloader.
    public init(cache: SQLiteCache, file: any ResourceLoader, network: any ResourceLoader, mapbox: MapboxURL = MapboxURL(),
                maximumConcurrentRequests: Int = 20) {
        self.cache = cache
        self.file = file
        self.network = network
        self.mapbox = mapbox
        self.maximumConcurrentRequests = max(1, maximumConcurrentRequests)
    }

    /// Downloads `region`, calling `progress` after every resource; returns the region's id and the
    /// final progress. A style that cannot be loaded or parsed is an error.
    public func download(_ region: RegionDefinition, progress: @escaping @Sendable (RegionProgress) -> Void = { _ in }) async throws(CacheError) -> (id: Int64, progress: RegionProgress) {
        let id = try cache.createRegion(definition: region.json)
        var state = RegionProgress(requiredResources: 1)
        let styleURL = mapbox.style(region.styleURL)
        let (styleResponse, styleBytes) = await fetch(Resource(url: styleURL, kind: .style), region: id)
        guard let data = styleResponse.data else {
            throw CacheError("cannot download the style \(styleURL): \(styleResponse.error?.message ?? "no content")")
        }
        let style: Style
        do {
            style = try Style.parse(data)
        } catch {
            throw CacheError("cannot parse the style \(styleURL): \(error)")
        }
        state.completedResources = 1
        state.completedBytes = styleBytes
        progress(state)

        var pending = styleResources(style, styleURL: styleURL, region: region)
        var sources = style.sources.filter { $0.url != nil && $0.isTiled && $0.kind != .geojson }
        state.requiredResources += pending.count + sources.count
        for source in sources { pending.append(Resource(url: resolve(mapbox.source(source.url!), styleURL), kind: .source)) }
        progress(state)

        await withTaskGroup(of: (Resource, Response, Int).self) { group in
            var inFlight = 0
            func startNext() {
                while inFlight < maximumConcurrentRequests, !pending.isEmpty {
                    let resource = pending.removeFirst()
                    inFlight += 1
                    group.addTask {
                        let (response, bytes) = await fetch(resource, region: id)
                        return (resource, response, bytes)
                    }
                }
            }
            startNext()
            while let (resource, response, bytes) = await group.next() {
                inFlight -= 1
                if response.error == nil || (response.error?.reason == .notFound && resource.kind == .glyphs) {
                    state.completedResources += 1
                    state.completedBytes += bytes
                } else {
                    state.failures.append("\(resource.url): \(response.error?.message ?? "failed")")
                }
                if resource.kind == .source, let data = response.data, let index = sources.firstIndex(where: { resolve(mapbox.source($0.url!), styleURL) == resource.url }) {
                    let tiles = tileResources(of: sources.remove(at: index), tileJSONData: data, tileJSONURL: resource.url, region: region)
                    state.requiredResources += tiles.count
                    pending += tiles
                }
                progress(state)
                startNext()
            }
        }
        return (id, state)
    }

    /// The sprites, glyph ranges and inline tiles of a style.
    private func styleResources(_ style: Style, styleURL: String, region: RegionDefinition) -> [Resource] {
        var resources: [Resource] = []
        for sheet in style.sprites {
            let base = resolve(mapbox.sprite(sheet.url), styleURL)
            resources.append(Resource(url: SpriteURL.url(base: base, part: .json, pixelRatio: region.pixelRatio), kind: .spriteJSON))
            resources.append(Resource(url: SpriteURL.url(base: base, part: .png, pixelRatio: region.pixelRatio), kind: .spriteImage))
        }
        if let glyphs = style.glyphs {
            let template = resolve(mapbox.glyphs(glyphs), styleURL)
            var stacks: [[String]] = []
            for layer in style.layers where layer.kind == .symbol && layer.hasText && !stacks.contains(layer.textFont) {
                stacks.append(layer.textFont)
            }
            for stack in stacks {
                for start in stride(from: 0, to: 65_536, by: 256) {
                    resources.append(Resource(url: GlyphURL.url(template: template, fontStack: stack, rangeStart: start), kind: .glyphs))
                }
            }
        }
        for source in style.sources where source.url == nil && source.tiles != nil {
            let metadata = TileJSON(tiles: source.tiles ?? []).overridden(by: source)
            resources += tiles(of: source, metadata: metadata, templateBase: styleURL, region: region)
        }
        return resources
    }

    private func tileResources(of source: StyleSource, tileJSONData: [UInt8], tileJSONURL: String, region: RegionDefinition) -> [Resource] {
        guard let metadata = try? TileJSON.parse(tileJSONData).overridden(by: source) else { return [] }
        return tiles(of: source, metadata: metadata, templateBase: tileJSONURL, region: region)
    }

    /// Every tile of the region's pyramid that the source has.
    private func tiles(of source: StyleSource, metadata: TileJSON, templateBase: String, region: RegionDefinition) -> [Resource] {
        guard let first = metadata.tiles.first else { return [] }
        let template = TileURLTemplate(resolve(mapbox.tile(first), templateBase), scheme: metadata.scheme)
        let low = max(region.minZoom, metadata.minZoom)
        let high = min(region.maxZoom, metadata.maxZoom)
        guard low <= high else { return [] }
        var resources: [Resource] = []
        for z in low...high {
            let n = Double(1 << z)
            let minX = Int(WebMercator.x(longitude: region.bounds.west) * n)
            let maxX = min(Int(WebMercator.x(longitude: region.bounds.east) * n), (1 << z) - 1)
            let minY = Int(WebMercator.y(latitude: region.bounds.north) * n)
            let maxY = min(Int(WebMercator.y(latitude: region.bounds.south) * n), (1 << z) - 1)
            guard minX <= maxX, minY <= maxY else { continue }
            for x in max(minX, 0)...maxX {
                for y in max(minY, 0)...maxY {
                    let id = CanonicalTileID(z: z, x: x, y: y)
                    guard metadata.bounds.intersects(id) else { continue }
                    resources.append(Resource(url: template.url(for: id, pixelRatio: region.pixelRatio), kind: .tile,
                                              tileData: .init(urlTemplate: template.template, pixelRatio: region.pixelRatio, id: id)))
                }
            }
        }
        return resources
    }

    /// One resource: from the cache if there, else from the network (stored); pinned to the region.
    private func fetch(_ resource: Resource, region: Int64) async -> (Response, Int) {
        if URLResolver.isLocalFile(resource.url) {
            let response = await file.load(resource)
            return (response, response.size)
        }
        let cached = await cache.load(resource)
        var response = cached
        if cached.error != nil {
            response = await network.load(resource)
            cache.store(resource, response)
        }
        if response.error == nil {
            try? cache.pin(resource, to: region)
        }
        return (response, response.size)
    }

    private func resolve(_ url: String, _ base: String) -> String {
        URLResolver.resolve(url, against: base)
    }
}
