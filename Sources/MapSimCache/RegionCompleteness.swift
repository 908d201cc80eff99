import Foundation
import MapSim
import MapSimJSON

/// Whether a region is complete, and if not what is missing and why — the one verdict `region
/// download`, `status`, `list` and `check` give. Complete is MapLibre Native's
/// `OfflineRegionStatus.complete()`: every required resource stored, the required ones counted from
/// the database (`OfflineDatabase.status(of:)`). What the server did not have at the last download
/// (a 404: MapLibre's download skips it, its status still requires it) is named, grouped — a glyph
/// server without most ranges is one line, not 128 —; the rest is not downloaded yet.
public struct RegionCompleteness: Sendable, Equatable {
    /// The status.
    public var status: OfflineRegionStatus
    /// What the server did not have at the last download: kind and URL.
    public var absent: [Absent]

    /// One resource the server did not have.
    public struct Absent: Sendable, Equatable {
        /// Its kind.
        public var kind: Resource.Kind
        /// Its URL.
        public var url: String
    }

    /// A verdict from a status and what the server lacked.
    public init(status: OfflineRegionStatus, absent: [(kind: Resource.Kind, url: String)]) {
        self.status = status
        self.absent = absent.map { Absent(kind: $0.kind, url: $0.url) }
    }

    /// Whether every required resource is stored.
    public var isComplete: Bool { status.isComplete }

    /// How many required resources are not stored.
    public var missingCount: Int { max(0, status.requiredResourceCount - status.completedResourceCount) }

    /// What is missing, one line per kind of reason: the server's 404s by kind (glyph ranges by
    /// font stack, and by glyphs URL when one font stack comes from several), then what is not
    /// downloaded yet. Empty when complete.
    public var missingLines: [String] {
        guard !isComplete else { return [] }
        var lines: [String] = []
        var groups: [(one: String, many: String, items: [String])] = []
        let described = absent.map(Self.describe)
        var glyphURLs: [String: Set<String>] = [:]
        for item in described { if let glyphs = item.glyphs { glyphURLs[glyphs.fontStack, default: []].insert(glyphs.base) } }
        for item in described {
            var (one, many) = (item.one, item.many)
            if let glyphs = item.glyphs, (glyphURLs[glyphs.fontStack]?.count ?? 0) > 1 {
                one += " from \(glyphs.base)"
                many += " from \(glyphs.base)"
            }
            if let index = groups.firstIndex(where: { $0.many == many }) { groups[index].items.append(item.name) } else { groups.append((one, many, [item.name])) }
        }
        for var group in groups {
            group.items.sort { $0.compare($1, options: .numeric) == .orderedAscending }
            let shown = group.items.count > 6 ? group.items.prefix(3) + ["…"] + group.items.suffix(2) : group.items[...]
            lines.append("\(group.items.count) \(group.items.count == 1 ? group.one : group.many) the server does not have (404): " + shown.joined(separator: ", "))
        }
        let notYet = missingCount - absent.count
        if notYet > 0 {
            lines.append("\(notYet) resource\(notYet == 1 ? "" : "s") not downloaded yet (failed, or the download stopped): run the same download again")
        }
        return lines
    }

    /// How an absent resource is named: its group, singular and plural (glyph ranges by font
    /// stack), its short name (a range, a tile's z/x/y, else its URL), and for a glyph range its
    /// font stack and the glyphs URL up to it.
    private static func describe(_ item: Absent) -> (one: String, many: String, name: String, glyphs: (fontStack: String, base: String)?) {
        let path = item.url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? item.url
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map { String($0).removingPercentEncoding ?? String($0) }
        switch item.kind {
        case .glyphs where parts.count >= 2:
            let range = parts[parts.count - 1].split(separator: ".").first.map(String.init) ?? parts[parts.count - 1]
            let fontStack = parts[parts.count - 2]
            let base = path.split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(separator: "/") + "/"
            return ("glyph range of \(fontStack)", "glyph ranges of \(fontStack)", range, (fontStack, base))
        case .tile where parts.count >= 3:
            return ("tile", "tiles", parts.suffix(3).joined(separator: "/"), nil)
        default:
            return (item.kind.rawValue, item.kind.rawValue + " resources", item.url, nil)
        }
    }

    /// The verdict as JSON: `complete`, the counts, `missing` (the lines).
    public var json: JSONObject {
        JSONObject([("complete", .bool(isComplete)), ("missing-resource-count", .number(Double(missingCount))),
                    ("absent-on-server", .array(absent.map { .object(JSONObject([("kind", .string($0.kind.rawValue)), ("url", .string($0.url))])) })),
                    ("missing", .array(missingLines.map(JSONValue.string)))])
    }
}
