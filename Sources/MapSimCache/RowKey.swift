import GRDB
import MapSim

/// Where a resource lives in MapLibre Native's offline database: a `resources` row by URL, or a
/// `tiles` row by URL template, pixel ratio and z/x/y — keyed as MapLibre keys them: `mapbox://`
/// URLs in their canonical form without the access token, the pixel ratio 2 only for a template with
/// `{ratio}` asked for above 1 (else 1), the row as the URL has it (flipped for `tms`), and a byte
/// range (a PMTiles read) as `?_mlnRange=FROM-TO` after the URL (`&` when it has a query).
enum RowKey: Hashable, Sendable {
    case resource(url: String)
    case tile(template: String, pixelRatio: Int, z: Int, x: Int, y: Int)

    /// The key of `resource`, with `mapbox` giving the URLs to put in canonical form.
    init(_ resource: Resource, mapbox: MapboxURL) {
        if let tile = resource.tileData {
            let template = mapbox.canonical(tile.urlTemplate)
            let ratio = tile.pixelRatio > 1 && Self.namesRatio(template) ? 2 : 1
            self = .tile(template: template, pixelRatio: ratio, z: tile.id.z, x: tile.id.x, y: tile.urlY)
        } else {
            let url = mapbox.canonical(resource.url)
            if let range = resource.dataRange {
                let separator = url.contains("?") ? "&" : "?"
                self = .resource(url: "\(url)\(separator)_mlnRange=\(range.lowerBound)-\(range.upperBound)")
            } else {
                self = .resource(url: url)
            }
        }
    }

    /// Whether a tile URL template has a `{ratio}`, searched in its bytes: Foundation's `contains`
    /// goes through NSString and the standard library's `firstRange(of:)` through a generic
    /// searcher, each a cost on every tile of a download.
    static func namesRatio(_ template: String) -> Bool {
        let utf8 = template.utf8
        var rest = utf8[...]
        while let brace = rest.firstIndex(of: UInt8(ascii: "{")) {
            if utf8[brace...].starts(with: "{ratio}".utf8) { return true }
            rest = utf8[utf8.index(after: brace)...]
        }
        return false
    }

    /// Whether the row is in `tiles`.
    var isTile: Bool {
        if case .tile = self { true } else { false }
    }

    /// The table the row is in.
    var table: String {
        switch self {
        case .resource: "resources"
        case .tile: "tiles"
        }
    }

    /// The link table that pins rows of `table` to regions, and its row column.
    var regionTable: (table: String, column: String) {
        switch self {
        case .resource: ("region_resources", "resource_id")
        case .tile: ("region_tiles", "tile_id")
        }
    }

    /// The `WHERE` condition that finds the row, with `?` for `arguments`.
    var condition: String {
        switch self {
        case .resource: "url = ?"
        case .tile: "url_template = ? AND pixel_ratio = ? AND z = ? AND x = ? AND y = ?"
        }
    }

    /// The values of `condition`'s placeholders.
    var arguments: StatementArguments {
        switch self {
        case .resource(let url): [url]
        case .tile(let template, let ratio, let z, let x, let y): [template, ratio, z, x, y]
        }
    }

    /// `z/x/y` of a tile; the URL of another resource.
    var description: String {
        switch self {
        case .resource(let url): url
        case .tile(_, _, let z, let x, let y): "\(z)/\(x)/\(y)"
        }
    }
}
