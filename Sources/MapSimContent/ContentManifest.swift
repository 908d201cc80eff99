import Crypto
import Foundation
import MapSimJSON

/// What a site's content is, served next to its style as `manifest.json`:
///
/// ```json
/// {"site": "mapsim-city", "version": 3, "items": [
///   {"url": "style.json", "kind": "style", "size": 2481, "sha256": "9f86d0…"},
///   {"url": "tiles/11/327/791.pbf", "kind": "tile", "size": 996, "sha256": "60303a…"}]}
/// ```
///
/// `site` names the site, `version` is a whole number that grows with each publication, and each
/// item has its URL relative to the manifest, its kind (`style`, `sprite`, `glyphs`, `tilejson`,
/// `tile`, `geojson`, `other`), its size and its SHA-256. A package's signature covers the manifest,
/// and the manifest's hashes cover every item.
public struct ContentManifest: Sendable, Equatable {
    public var site: String
    public var version: Int
    public var items: [ContentItem]

    /// A manifest.
    public init(site: String, version: Int, items: [ContentItem]) {
        self.site = site
        self.version = version
        self.items = items
    }

    /// Reads a manifest; what is wrong is an error naming the field.
    public init(json bytes: [UInt8]) throws(ContentError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw ContentError(.invalidManifest, "the manifest is not JSON: \(error)", underlying: error)
        }
        guard let site = value["site"]?.stringValue, !site.isEmpty else { throw ContentError(.invalidManifest, "the manifest has no \"site\" (a non-empty string)") }
        guard let version = value["version"]?.numberValue, version == version.rounded(), version >= 0, version < 9e15 else {
            throw ContentError(.invalidManifest, "the manifest's \"version\" is not a whole number")
        }
        guard let entries = value["items"]?.arrayValue else { throw ContentError(.invalidManifest, "the manifest has no \"items\" array") }
        var items: [ContentItem] = []
        var seen = Set<String>()
        for (index, entry) in entries.enumerated() {
            guard let url = entry["url"]?.stringValue, Self.isSafePath(url) else {
                throw ContentError(.invalidManifest, "items[\(index)]: \"url\" is not a relative path inside the site")
            }
            guard seen.insert(url).inserted else { throw ContentError(.invalidManifest, "items[\(index)]: \(url) is listed twice") }
            guard let kindName = entry["kind"]?.stringValue, let kind = ContentItem.Kind(rawValue: kindName) else {
                throw ContentError(.invalidManifest, "items[\(index)] (\(url)): \"kind\" is not one of \(ContentItem.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let size = entry["size"]?.numberValue, size == size.rounded(), size >= 0, size < 9e15 else {
                throw ContentError(.invalidManifest, "items[\(index)] (\(url)): \"size\" is not a whole number of bytes")
            }
            guard let hash = entry["sha256"]?.stringValue, hash.count == 64, hash.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
                throw ContentError(.invalidManifest, "items[\(index)] (\(url)): \"sha256\" is not 64 lowercase hexadecimal digits")
            }
            items.append(ContentItem(url: url, kind: kind, size: Int(size), sha256: hash))
        }
        self.init(site: site, version: Int(version), items: items)
    }

    /// The manifest as JSON text, one item a line.
    public var json: [UInt8] {
        let head = "{\"site\": \(JSONWriter.string(.string(site))), \"version\": \(version), \"items\": ["
        let lines = items.map { "\n  " + JSONWriter.string($0.json) }.joined(separator: ",")
        return Array((head + lines + "]}\n").utf8)
    }

    /// The manifest of every file below `directory` (but a `manifest.json` there), in path order.
    public static func make(directory: String, site: String, version: Int) throws(ContentError) -> ContentManifest {
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw ContentError(.cannotRead, "cannot read the folder \(directory)")
        }
        var paths: [String] = []
        for case let url as URL in enumerator {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(root.path.count + 1))
            if path != "manifest.json" && !path.hasSuffix(".mapsimpkg") { paths.append(path) }
        }
        var items: [ContentItem] = []
        for path in paths.sorted() {
            let bytes: [UInt8]
            do {
                bytes = try InputFile.read(root.path + "/" + path, limit: 1 << 30)
            } catch {
                throw ContentError(.cannotRead, "\(error)", underlying: error)
            }
            items.append(ContentItem(url: path, kind: ContentItem.kind(of: path), size: bytes.count, sha256: sha256(bytes)))
        }
        return ContentManifest(site: site, version: version, items: items)
    }

    /// The SHA-256 of `bytes` in lowercase hexadecimal.
    public static func sha256(_ bytes: [UInt8]) -> String {
        var text = ""
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 15)])
        }
        return text
    }

    private static let hexDigits = Array("0123456789abcdef")

    /// Whether `path` stays inside the site: relative, no `..`, no empty level, no backslash.
    static func isSafePath(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"), !path.contains("://") else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != ".." && $0 != "." }
    }
}
