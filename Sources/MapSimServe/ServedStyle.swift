import Foundation
import MapSim
import MapSimJSON
import MapSimStyle

/// A style and what it needs, as `mapsim serve` serves them: the style at `/style.json` with every
/// URL that points into its folder rewritten to the server the client used (as tileserver-gl
/// rewrites them) — sprite, glyphs, source and TileJSON URLs, tiles, GeoJSON data —, sources that
/// read an archive pointed to the archive's TileJSON, and each request path classified as the map
/// would ask for it (style, sprite, glyphs, source, tile with its z/x/y). Its `imports` too: an import
/// whose style is a file of the folder (a relative URL, or `mapbox://styles/U/S` kept as
/// `styles/v1/U/S`, the Styles API's path) is served with its own URLs rewritten the same way,
/// against its own file, since a browser's Mapbox GL JS resolves no URL against the style's (a
/// relative import or TileJSON URL against the page, a relative sprite not at all). URLs on other servers are
/// rewritten below `_remote/` when they are served from a cache or their origin
/// (`RemoteResources`), else left as they are.
struct ServedStyle: Sendable {
    /// What a path is, for the request's event.
    enum Role: Sendable, Equatable {
        case style
        case spriteJSON
        case spriteImage
        case glyphs
        /// A TileJSON or GeoJSON of a source.
        case source
        /// A TileJSON whose `tiles` are rewritten too.
        case tileJSON
        /// A style an import names, rewritten as the style is, against its own file.
        case importedStyle
        /// The image of an image source.
        case image
        /// A video of a video source (a browser asks for it with `Range: bytes=0-`).
        case video
        /// A tile of this template (the served path's) and scheme.
        case tile(template: String, scheme: StyleSource.Scheme)
        /// The TileJSON of the archive a source reads.
        case archiveTileJSON(source: String)
        /// A tile of the archive a source reads, at this template (the served path's).
        case archiveTile(source: String, template: String)
    }

    /// Where the archives of sources are served: `_archives/SOURCE.json` and `_archives/SOURCE/{z}/{x}/{y}.FORMAT`.
    static let archivesFolder = "_archives"

    /// The style file's path below the folder; nil for a style from another server.
    let stylePath: String?
    /// When the style last changed: its file's time, or what its server said.
    let modified: HTTPDate
    private let document: JSONValue
    /// Where the style is: a `file://` URL in the folder, or an `http(s)` URL.
    private let styleURL: String
    /// The served folder as a `file://` URL ending in `/`; nil when no folder is served.
    private let folderURL: String?
    /// Whether URLs on other servers are served (from a cache or their origin).
    private let servesRemote: Bool
    /// The TileJSONs on other servers whose tiles are learned when they are fetched, with the
    /// scheme their source gives: served paths.
    private(set) var remoteTileJSONs: [(path: String, scheme: StyleSource.Scheme)] = []
    /// The roles of exact paths.
    private var roles: [String: Role] = [:]
    /// The roles of templated paths (glyphs, tiles).
    private var patterns: [(URLTemplatePattern, Role)] = []
    /// The archives sources read, by source id.
    private(set) var archives: [String: ServedArchive] = [:]

    /// Reads the style file `stylePath` below `folder`; what cannot be read is an error naming it.
    init(folder: ServedFolder, stylePath: String, servesRemote: Bool) throws(ServeError) {
        guard let (relative, file) = folder.file(atPath: stylePath) else { throw ServeError(.unreadable, "\(stylePath) is not a file of \(folder.root)") }
        try self.init(file.bytes, url: "file://" + folder.root + "/" + relative, modified: file.modified, folder: folder, servesRemote: servesRemote)
    }

    /// The style `bytes` found at `url` (a `file://` URL below `folder`, or another server's),
    /// last changed at `modified`.
    init(_ bytes: [UInt8], url: String, modified: HTTPDate, folder: ServedFolder?, servesRemote: Bool) throws(ServeError) {
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw ServeError(.invalid, "\(url) is not JSON: \(error)", underlying: error)
        }
        guard document.objectValue != nil else { throw ServeError(.invalid, "\(url) is not a style: not a JSON object") }
        styleURL = url
        self.modified = modified
        self.servesRemote = servesRemote
        folderURL = folder.map { "file://" + $0.root + "/" }
        stylePath = folderURL.flatMap { url.hasPrefix($0) ? String(url.dropFirst($0.count)) : nil }
        roles["style.json"] = .style
        if let stylePath { roles[stylePath] = .style }
        try learn(archivesFolder: folder?.root ?? FileManager.default.currentDirectoryPath, folder: folder)
    }

    // MARK: - Rewriting

    /// The style as served to a client that reached the server at `base` (`http://HOST:PORT/`).
    func style(base: String) -> [UInt8] {
        guard let root = document.objectValue else { return [] }
        return Array(JSONWriter.string(.object(rewritten(root, from: styleURL, base: base, readsArchives: true))).utf8)
    }

    /// The imported style `bytes`, served at `path`, as served to a client at `base`: its URLs
    /// rewritten against its own file. Bytes that are not a JSON object are served as they are.
    func importedStyle(_ bytes: [UInt8], path: String, base: String) -> [UInt8] {
        guard let object = (try? JSONParser.parse(bytes))?.objectValue else { return bytes }
        return Array(JSONWriter.string(.object(rewritten(object, from: documentURL(ofServedPath: path), base: base, readsArchives: false))).utf8)
    }

    /// A style object (the root, an imported file, or an import's inline `data`) with its sprite,
    /// glyphs, source and import URLs rewritten, resolved against `document`; sources that read an
    /// archive pointed to its TileJSON when `readsArchives` (the root's sources only).
    private func rewritten(_ style: JSONObject, from document: String?, base: String, readsArchives: Bool) -> JSONObject {
        var root = style
        let rewrite = { (url: String) in self.rewrite(url, from: document, base: base) }
        if let sprite = root["sprite"] {
            if let url = sprite.stringValue {
                root["sprite"] = .string(rewrite(url))
            } else if let sheets = sprite.arrayValue {
                root["sprite"] = .array(sheets.map { sheet in
                    guard var object = sheet.objectValue, let url = object["url"]?.stringValue else { return sheet }
                    object["url"] = .string(rewrite(url))
                    return .object(object)
                })
            }
        }
        if let glyphs = root["glyphs"]?.stringValue { root["glyphs"] = .string(rewrite(glyphs)) }
        if let sources = root["sources"]?.objectValue {
            var rewrittenSources = sources
            for (id, value) in sources.members {
                guard var source = value.objectValue else { continue }
                if readsArchives, archives[id] != nil {
                    source["url"] = .string(base + Self.archivesFolder + "/" + Self.pathSegment(id) + ".json")
                } else if let url = source["url"]?.stringValue {
                    source["url"] = .string(rewrite(url))
                }
                if let tiles = source["tiles"]?.arrayValue { source["tiles"] = .array(tiles.map { $0.stringValue.map { .string(rewrite($0)) } ?? $0 }) }
                if let data = source["data"]?.stringValue { source["data"] = .string(rewrite(data)) }
                if let urls = source["urls"]?.arrayValue { source["urls"] = .array(urls.map { $0.stringValue.map { .string(rewrite($0)) } ?? $0 }) }
                rewrittenSources[id] = .object(source)
            }
            root["sources"] = .object(rewrittenSources)
        }
        if let imports = root["imports"]?.arrayValue {
            root["imports"] = .array(imports.map { value in
                guard var entry = value.objectValue else { return value }
                if let url = entry["url"]?.stringValue { entry["url"] = .string(rewrite(url)) }
                // Inline data is part of this style: its URLs are resolved against this style's.
                if let data = entry["data"]?.objectValue { entry["data"] = .object(rewritten(data, from: document, base: base, readsArchives: false)) }
                return .object(entry)
            })
        }
        return root
    }

    /// The TileJSON of the archive `source` reads, as served to a client at `base`.
    func archiveTileJSON(source: String, base: String) -> [UInt8]? {
        guard let archive = archives[source] else { return nil }
        return archive.tileJSON(tiles: base + Self.archiveTileTemplate(source: source, format: archive.format))
    }

    /// The served path of an archive's tiles.
    private static func archiveTileTemplate(source: String, format: String) -> String {
        archivesFolder + "/" + pathSegment(source) + "/{z}/{x}/{y}." + format
    }

    /// A source id as one path segment.
    private static func pathSegment(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? id
    }

    /// A TileJSON served at `path` as served: its `tiles` rewritten.
    func tileJSON(_ bytes: [UInt8], path: String, base: String) -> [UInt8] {
        guard var object = (try? JSONParser.parse(bytes))?.objectValue, let tiles = object["tiles"]?.arrayValue else { return bytes }
        let document = documentURL(ofServedPath: path)
        object["tiles"] = .array(tiles.map { $0.stringValue.map { .string(rewrite($0, from: document, base: base)) } ?? $0 })
        return Array(JSONWriter.string(.object(object)).utf8)
    }

    /// `url` as the client must ask for it: a URL into the folder (relative to the style, or to
    /// the document at `document`, or `file://`) — or on another server, when those are served —
    /// becomes `base` + its served path; any other is left alone, and so is an empty one, which
    /// names nothing (an inline import's `"url": ""`, an empty sprite), not the style itself.
    func rewrite(_ url: String, from document: String? = nil, base: String) -> String {
        guard !url.isEmpty, let path = servedPath(url, from: document) else { return url }
        return base + path
    }

    /// The path below the server a URL is served at, templates kept, resolved against the style
    /// (or the document at `document`); nil when it is not served.
    private func servedPath(_ url: String, from document: String? = nil) -> String? {
        let resolved = URLResolver.resolve(url, against: document ?? styleURL)
        if let folderURL, resolved.hasPrefix(folderURL) { return String(resolved.dropFirst(folderURL.count)) }
        return servesRemote ? RemoteResources.servedPath(resolved) : nil
    }

    /// The URL of what is served at `path`: a file of the folder, or a resource of another server.
    private func documentURL(ofServedPath path: String) -> String? {
        RemoteResources.originalURL(path) ?? folderURL.map { $0 + path }
    }

    /// A served path as requests are classified: without its query, percent-decoded.
    private static func matchable(_ path: String) -> String {
        ServedFolder.relativePath(path) ?? path
    }

    // MARK: - Classifying

    /// What a path is for, and the values of its template's placeholders.
    private func classify(_ path: String) -> (role: Role, values: [String: String])? {
        if let role = roles[path] { return (role, [:]) }
        for (pattern, role) in patterns {
            if let values = pattern.match(path) { return (role, values) }
        }
        return nil
    }

    /// The resource a request for `url` (`path` below the folder, no leading `/`) stands for, as the
    /// map's resource-request event names it, and what the path is for.
    func resource(url: String, path: String) -> (resource: Resource, role: Role?) {
        let classified = classify(path)
        return (resource(url: url, path: path, classified), classified?.role)
    }

    private func resource(url: String, path: String, _ classified: (role: Role, values: [String: String])?) -> Resource {
        switch classified?.role {
        case .style?, .importedStyle?: return .style(url)
        case .spriteJSON?: return Resource(url: url, kind: .spriteJSON)
        case .spriteImage?: return Resource(url: url, kind: .spriteImage)
        case .glyphs?: return Resource(url: url, kind: .glyphs)
        case .source?, .tileJSON?, .archiveTileJSON?: return .source(url)
        case .image?: return .image(url)
        case .video?: return Resource(url: url, kind: .unknown, loadingMethod: .network, storagePolicy: .volatile)
        case .archiveTile(_, let template)?:
            return tileResource(url: url, path: path, template: template, scheme: .xyz, values: classified?.values ?? [:])
        case .tile(let template, let scheme)?:
            return tileResource(url: url, path: path, template: template, scheme: scheme, values: classified?.values ?? [:])
        case nil: return Resource(url: url, kind: .unknown)
        }
    }

    private func tileResource(url: String, path: String, template: String, scheme: StyleSource.Scheme, values: [String: String]) -> Resource {
        // A path of no tile of the pyramid (1/1/2, a zoom past 30: any client may ask for one) is a
        // tile request all the same, of no tile.
        guard let z = values["z"].flatMap(Int.init), let x = values["x"].flatMap(Int.init), let y = values["y"].flatMap(Int.init),
              let tile = CanonicalTileID(checkedZ: z, x: x, y: y) else {
            return Resource(url: url, kind: .tile)
        }
        let id = scheme == .tms ? CanonicalTileID(z: z, x: x, y: tile.tmsY) : tile
        var resource = Resource(url: url, kind: .tile)
        resource.tileData = Resource.TileData(urlTemplate: template, pixelRatio: Self.isRetina(template: template, path: path) ? 2 : 1, id: id,
                                              scheme: scheme)
        return resource
    }

    /// Whether a tile path of a `{ratio}` template asks for the @2x tile.
    private static func isRetina(template: String, path: String) -> Bool {
        contains(template, "{ratio}") && contains(path, "@2x")
    }

    /// Whether `text` holds `part`, byte for byte (no Foundation, no generic search: this runs on
    /// every tile request).
    private static func contains(_ text: String, _ part: String) -> Bool {
        let bytes = Array(text.utf8)
        let needle = Array(part.utf8)
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == first && bytes[start..<start + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// Learns every path the style names below the folder (or on other servers), the tiles of its
    /// TileJSONs in the folder, and opens the archives its sources read (a relative path from
    /// `archivesFolder`; an archive that cannot be read is an error naming it); then the same of
    /// each style its imports name in the folder, as deep as Mapbox nests them.
    private mutating func learn(archivesFolder: String, folder: ServedFolder?) throws(ServeError) {
        guard let root = document.objectValue else { return }
        try learn(root, from: nil, archivesFolder: archivesFolder, folder: folder, depth: 1)
    }

    /// How many styles Mapbox nests, the root counted: the imports of a fifth are not loaded.
    private static let importDepth = 5

    /// Learns what `style` (found at `document`, nil for the style itself, `depth` styles deep)
    /// names; `archivesFolder` is nil for an imported style (archives are read for the root's sources).
    private mutating func learn(_ style: JSONObject, from document: String?, archivesFolder: String?, folder: ServedFolder?, depth: Int) throws(ServeError) {
        var sprites: [String] = []
        if let url = style["sprite"]?.stringValue { sprites.append(url) }
        for sheet in style["sprite"]?.arrayValue ?? [] { if let url = sheet["url"]?.stringValue { sprites.append(url) } }
        for sprite in sprites.compactMap({ servedPath($0, from: document) }) {
            for suffix in ["", "@2x", "@3x"] {
                roles[Self.matchable(sprite + suffix + ".json")] = .spriteJSON
                roles[Self.matchable(sprite + suffix + ".png")] = .spriteImage
            }
        }
        if let glyphs = style["glyphs"]?.stringValue.flatMap({ servedPath($0, from: document) }) {
            patterns.append((URLTemplatePattern(Self.matchable(glyphs)), .glyphs))
        }
        for (id, value) in style["sources"]?.objectValue?.members ?? [] {
            if let archivesFolder, let url = value["url"]?.stringValue, let archive = try ServedArchive(url: url, folder: archivesFolder) {
                archives[id] = archive
                roles[Self.archivesFolder + "/" + id + ".json"] = .archiveTileJSON(source: id)
                let template = Self.archiveTileTemplate(source: id, format: archive.format)
                patterns.append((URLTemplatePattern(Self.matchable(template)), .archiveTile(source: id, template: template)))
                continue
            }
            learnSource(value, from: document, folder: folder)
        }
        guard depth < Self.importDepth else { return }
        for entry in style["imports"]?.arrayValue ?? [] {
            if let data = entry["data"]?.objectValue {
                try learn(data, from: document, archivesFolder: nil, folder: folder, depth: depth + 1)
            }
            // A path already known — the style itself (a cycle), or a style learned before — keeps its role.
            guard let url = entry["url"]?.stringValue, let folder, let path = importedStylePath(url, from: document), roles[path] == nil else { continue }
            roles[path] = .importedStyle
            // What a file there names now is learned; one that is not there (yet), or not a style, names nothing.
            guard let file = folder.file(atRelativePath: path), let imported = (try? JSONParser.parse(file.bytes))?.objectValue else { continue }
            try learn(imported, from: documentURL(ofServedPath: path), archivesFolder: nil, folder: folder, depth: depth + 1)
        }
    }

    /// Learns the paths of a source (not one read from an archive) that `document` names.
    private mutating func learnSource(_ source: JSONValue, from document: String?, folder: ServedFolder?) {
        switch source["type"]?.stringValue {
        case "image":
            if let path = source["url"]?.stringValue.flatMap({ servedPath($0, from: document) }) { roles[Self.matchable(path)] = .image }
            return
        case "video":
            for path in (source["urls"]?.arrayValue ?? []).compactMap(\.stringValue).compactMap({ servedPath($0, from: document) }) {
                roles[Self.matchable(path)] = .video
            }
            return
        default:
            break
        }
        let scheme: StyleSource.Scheme = source["scheme"]?.stringValue == "tms" ? .tms : .xyz
        if let data = source["data"]?.stringValue.flatMap({ servedPath($0, from: document) }) { roles[Self.matchable(data)] = .source }
        for tile in (source["tiles"]?.arrayValue ?? []).compactMap(\.stringValue).compactMap({ servedPath($0, from: document) }) {
            patterns.append((URLTemplatePattern(Self.matchable(tile)), .tile(template: tile, scheme: scheme)))
        }
        guard let url = source["url"]?.stringValue, let path = servedPath(url, from: document) else { return }
        roles[Self.matchable(path)] = .tileJSON
        if RemoteResources.originalURL(path) != nil {
            remoteTileJSONs.append((path, scheme))
        } else if let (_, file) = folder?.file(atPath: path) {
            learnTileJSON(file.bytes, at: path, scheme: scheme)
        }
    }

    /// The path below the folder (as requests are classified) of the style an import's `url`
    /// names: a URL into the folder (relative to `document`), or `mapbox://styles/U/S` at the
    /// Styles API's path `styles/v1/U/S`, where a client whose API URL is this server asks for it.
    private func importedStylePath(_ url: String, from document: String?) -> String? {
        let styleURL = folderURL.map { MapboxURL(baseURL: String($0.dropLast())).style(url) } ?? url
        guard let path = servedPath(styleURL, from: document), RemoteResources.originalURL(path) == nil else { return nil }
        return Self.matchable(path)
    }

    /// Learns the tiles of the TileJSON `bytes` served at `path`, of a source with `scheme`.
    mutating func learnTileJSON(_ bytes: [UInt8], at path: String, scheme: StyleSource.Scheme) {
        guard let tileJSON = try? JSONParser.parse(bytes) else { return }
        let tileScheme: StyleSource.Scheme = tileJSON["scheme"]?.stringValue == "tms" ? .tms : scheme
        let document = documentURL(ofServedPath: path)
        for tile in (tileJSON["tiles"]?.arrayValue ?? []).compactMap(\.stringValue) {
            guard let tilePath = servedPath(tile, from: document) else { continue }
            patterns.append((URLTemplatePattern(Self.matchable(tilePath)), .tile(template: tilePath, scheme: tileScheme)))
        }
    }
}
