import Foundation
import MapSim
import MapSimJSON
import MapSimStyle

/// A style and what it needs, as `mapsim serve` serves them: the style at `/style.json` with every
/// URL that points into its folder rewritten to the server the client used (as tileserver-gl
/// rewrites them) — sprite, glyphs, source and TileJSON URLs, tiles, GeoJSON data —, sources that
/// read an archive pointed to the archive's TileJSON, and each request path classified as the map
/// would ask for it (style, sprite, glyphs, source, tile with its z/x/y). URLs on other servers are
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
        guard var root = document.objectValue else { return [] }
        if let sprite = root["sprite"] {
            if let url = sprite.stringValue {
                root["sprite"] = .string(rewrite(url, base: base))
            } else if let sheets = sprite.arrayValue {
                root["sprite"] = .array(sheets.map { sheet in
                    guard var object = sheet.objectValue, let url = object["url"]?.stringValue else { return sheet }
                    object["url"] = .string(rewrite(url, base: base))
                    return .object(object)
                })
            }
        }
        if let glyphs = root["glyphs"]?.stringValue { root["glyphs"] = .string(rewrite(glyphs, base: base)) }
        if let sources = root["sources"]?.objectValue {
            var rewritten = sources
            for (id, value) in sources.members {
                guard var source = value.objectValue else { continue }
                if archives[id] != nil {
                    source["url"] = .string(base + Self.archivesFolder + "/" + Self.pathSegment(id) + ".json")
                } else if let url = source["url"]?.stringValue {
                    source["url"] = .string(rewrite(url, base: base))
                }
                if let tiles = source["tiles"]?.arrayValue { source["tiles"] = .array(tiles.map { $0.stringValue.map { .string(rewrite($0, base: base)) } ?? $0 }) }
                if let data = source["data"]?.stringValue { source["data"] = .string(rewrite(data, base: base)) }
                if let urls = source["urls"]?.arrayValue { source["urls"] = .array(urls.map { $0.stringValue.map { .string(rewrite($0, base: base)) } ?? $0 }) }
                rewritten[id] = .object(source)
            }
            root["sources"] = .object(rewritten)
        }
        return Array(JSONWriter.string(.object(root)).utf8)
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
    /// becomes `base` + its served path; any other is left alone.
    func rewrite(_ url: String, from document: String? = nil, base: String) -> String {
        guard let path = servedPath(url, from: document) else { return url }
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
        case .style?: return .style(url)
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
        guard let z = values["z"].flatMap(Int.init), let x = values["x"].flatMap(Int.init), let y = values["y"].flatMap(Int.init) else {
            return Resource(url: url, kind: .tile)
        }
        let id = CanonicalTileID(z: z, x: x, y: scheme == .tms ? (1 << z) - 1 - y : y)
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
    /// `archivesFolder`; an archive that cannot be read is an error naming it).
    private mutating func learn(archivesFolder: String, folder: ServedFolder?) throws(ServeError) {
        guard let root = document.objectValue else { return }
        var sprites: [String] = []
        if let url = root["sprite"]?.stringValue { sprites.append(url) }
        for sheet in root["sprite"]?.arrayValue ?? [] { if let url = sheet["url"]?.stringValue { sprites.append(url) } }
        for sprite in sprites.compactMap({ servedPath($0) }) {
            for suffix in ["", "@2x", "@3x"] {
                roles[Self.matchable(sprite + suffix + ".json")] = .spriteJSON
                roles[Self.matchable(sprite + suffix + ".png")] = .spriteImage
            }
        }
        if let glyphs = root["glyphs"]?.stringValue.flatMap({ servedPath($0) }) { patterns.append((URLTemplatePattern(Self.matchable(glyphs)), .glyphs)) }
        for (id, value) in root["sources"]?.objectValue?.members ?? [] {
            if let url = value["url"]?.stringValue, let archive = try ServedArchive(url: url, folder: archivesFolder) {
                archives[id] = archive
                roles[Self.archivesFolder + "/" + id + ".json"] = .archiveTileJSON(source: id)
                let template = Self.archiveTileTemplate(source: id, format: archive.format)
                patterns.append((URLTemplatePattern(Self.matchable(template)), .archiveTile(source: id, template: template)))
                continue
            }
            switch value["type"]?.stringValue {
            case "image":
                if let path = value["url"]?.stringValue.flatMap({ servedPath($0) }) { roles[Self.matchable(path)] = .image }
                continue
            case "video":
                for path in (value["urls"]?.arrayValue ?? []).compactMap(\.stringValue).compactMap({ servedPath($0) }) { roles[Self.matchable(path)] = .video }
                continue
            default:
                break
            }
            let scheme: StyleSource.Scheme = value["scheme"]?.stringValue == "tms" ? .tms : .xyz
            if let data = value["data"]?.stringValue.flatMap({ servedPath($0) }) { roles[Self.matchable(data)] = .source }
            for tile in (value["tiles"]?.arrayValue ?? []).compactMap(\.stringValue).compactMap({ servedPath($0) }) {
                patterns.append((URLTemplatePattern(Self.matchable(tile)), .tile(template: tile, scheme: scheme)))
            }
            guard let url = value["url"]?.stringValue, let path = servedPath(url) else { continue }
            roles[Self.matchable(path)] = .tileJSON
            if RemoteResources.originalURL(path) != nil {
                remoteTileJSONs.append((path, scheme))
            } else if let (_, file) = folder?.file(atPath: path) {
                learnTileJSON(file.bytes, at: path, scheme: scheme)
            }
        }
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
