import MapSim
import MapSimCache
import MapSimContent
import MapSimJSON
import MapSimStyle

/// Puts a checked content package into the cache as a pinned set — like an offline region, but in
/// mapsim's own `mapsim_content_*` tables, named `SITE@VERSION` — so that a first run can load the
/// site with no network. Item URLs are
/// resolved against the manifest's place, next to the style; tiles are matched to the `{z}/{x}/{y}`
/// templates of the package's TileJSON documents and style, and stored for pixel ratios 1 and 2 when
/// their template does not depend on it. A previous version of the same site is unpinned once the new
/// one is in.
public enum ContentImport {
    /// What an import did.
    public struct Summary: Sendable, Equatable {
        /// The site.
        public var site: String
        /// Its version now installed.
        public var version: Int
        /// How many items were pinned as resources (style, sprites, glyphs, TileJSON, GeoJSON).
        public var resources: Int
        /// How many were pinned as tiles (each for pixel ratios 1 and 2).
        public var tiles: Int
    }

    /// Imports `package`, whose style is at `styleURL`, into `cache`; a version of the site lower
    /// than one the cache holds is refused unless `allowingDowngrade`.
    public static func run(_ package: ContentPackage, styleURL: String, cache: OfflineDatabase, allowingDowngrade: Bool = false) async throws(ContentError) -> Summary {
        var items: [ContentItem: [UInt8]] = [:]
        for (item, bytes) in package.items { items[item] = bytes }
        return try await install(package.manifest, manifestBytes: package.manifest.json, etag: nil, downloaded: items, styleURL: styleURL, cache: cache,
                                 allowingDowngrade: allowingDowngrade)
    }

    /// The manifest installed in `cache` for the style at `styleURL`, if any, as it was served.
    public static func installedManifest(styleURL: String, cache: OfflineDatabase) async -> ContentSessionMachine.ServedManifest? {
        let cached = await cache.load(Resource(url: ContentLocation(styleURL: styleURL).manifestURL, kind: .unknown))
        guard let bytes = cached.data, let manifest = try? ContentManifest(json: bytes) else { return nil }
        return ContentSessionMachine.ServedManifest(manifest: manifest, bytes: bytes, etag: cached.etag)
    }

    /// Makes `manifest` the site's content: stores the `downloaded` items (the others are in the
    /// cache already) and the manifest (`manifestBytes`, with its ETag), pins all of them as
    /// `content:SITE@VERSION`, then unpins the previous version.
    ///
    /// Anti-rollback, as signed-update systems keep it: a version of the site lower than one the
    /// cache holds — installed from any package or server, wherever its style was — is refused,
    /// nothing written, unless `allowingDowngrade`.
    static func install(_ manifest: ContentManifest, manifestBytes: [UInt8], etag: String?, downloaded: [ContentItem: [UInt8]],
                        styleURL: String, cache: OfflineDatabase, allowingDowngrade: Bool = false) async throws(ContentError) -> Summary {
        let installed: Int?
        do {
            installed = try cache.installedContentVersion(site: manifest.site)
        } catch {
            throw ContentError(.cannotRead, "the cache could not be read: \(error)", underlying: error)
        }
        if !allowingDowngrade, let installed, manifest.version < installed {
            throw ContentError(.invalidPackage, "\(manifest.site) version \(manifest.version) is older than version \(installed) installed in the cache: "
                               + "a downgrade is refused (--allow-downgrade installs it)")
        }
        let location = ContentLocation(styleURL: styleURL)
        var documents: [(item: ContentItem, bytes: [UInt8])] = []
        for item in manifest.items where item.kind == .tilejson || item.kind == .style {
            if let data = downloaded[item] {
                documents.append((item, data))
            } else if let data = await cache.load(Resource(url: location.url(of: item), kind: .unknown)).data {
                documents.append((item, data))
            }
        }
        let templates = tileTemplates(documents, location: location)
        var summary = Summary(site: manifest.site, version: manifest.version, resources: 0, tiles: 0)
        let manifestResource = Resource(url: location.manifestURL, kind: .unknown)
        var manifestResponse = Response.success(manifestBytes, source: .network)
        manifestResponse.etag = etag
        var pinned: [Resource] = [manifestResource]
        for item in manifest.items {
            let address = location.url(of: item)
            let resources: [Resource]
            if item.kind == .tile, let (template, id) = templates.lazy.compactMap({ template in match(address, template).map { (template, $0) } }).first {
                resources = [1.0, 2.0].map { Resource.tile(template, id: id, pixelRatio: $0) }
                summary.tiles += 1
            } else {
                resources = [Resource(url: address, kind: kind(of: item))]
                summary.resources += 1
            }
            if let bytes = downloaded[item] { for resource in resources { cache.store(resource, Response.success(bytes, source: .network)) } }
            pinned += resources
        }
        await cache.flush()
        if let failure = cache.problems.last { throw ContentError(.cannotWrite, "the cache could not be written: \(failure)") }
        do {
            // The manifest — what says which version is installed — goes in with the set, in one
            // transaction: a killed import leaves the version before, whole, or this one, whole.
            try await cache.pinContentSet("\(summary.site)@\(summary.version)", resources: pinned, replacing: "\(summary.site)@",
                                          storing: [(manifestResource, manifestResponse)])
        } catch {
            throw ContentError(.cannotWrite, "the cache could not be written: \(error)", underlying: error)
        }
        return summary
    }

    private static func kind(of item: ContentItem) -> Resource.Kind {
        switch item.kind {
        case .style: .style
        case .sprite: item.url.hasSuffix(".png") ? .spriteImage : .spriteJSON
        case .glyphs: .glyphs
        case .tilejson, .geojson: .source
        case .tile: .tile
        case .other: .unknown
        }
    }

    /// The `{z}/{x}/{y}` templates of the package's TileJSON documents and of its style's inline sources.
    private static func tileTemplates(_ documents: [(item: ContentItem, bytes: [UInt8])], location: ContentLocation) -> [TileURLTemplate] {
        var templates: [TileURLTemplate] = []
        for (item, bytes) in documents where item.kind == .tilejson || item.kind == .style {
            guard let document = try? JSONParser.parse(bytes) else { continue }
            let base = location.url(of: item)
            var sources: [JSONValue] = item.kind == .tilejson ? [document] : []
            if item.kind == .style, let members = document["sources"]?.objectValue?.members { sources += members.map(\.value) }
            for source in sources {
                guard let first = source["tiles"]?.arrayValue?.first?.stringValue else { continue }
                let scheme: StyleSource.Scheme = source["scheme"]?.stringValue == "tms" ? .tms : .xyz
                templates.append(TileURLTemplate(URLResolver.resolve(first, against: base), scheme: scheme))
            }
        }
        return templates
    }

    /// The tile a URL is under `template`, when the template has only `{z}`, `{x}` and `{y}`.
    private static func match(_ address: String, _ template: TileURLTemplate) -> CanonicalTileID? {
        var pattern = Substring(template.template)
        var rest = Substring(address)
        var values: [String: Int] = [:]
        while let open = pattern.firstIndex(of: "{") {
            guard let close = pattern[open...].firstIndex(of: "}") else { return nil }
            let literal = pattern[..<open]
            guard rest.hasPrefix(literal) else { return nil }
            rest = rest.dropFirst(literal.count)
            let token = String(pattern[pattern.index(after: open)..<close])
            guard ["z", "x", "y"].contains(token) else { return nil }
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard let value = Int(digits), digits.count <= 9 else { return nil }
            values[token] = value
            rest = rest.dropFirst(digits.count)
            pattern = pattern[pattern.index(after: close)...]
        }
        guard rest == pattern, let z = values["z"], let x = values["x"], let y = values["y"], let tile = CanonicalTileID(checkedZ: z, x: x, y: y) else { return nil }
        return template.scheme == .tms ? CanonicalTileID(z: z, x: x, y: tile.tmsY) : tile
    }
}
