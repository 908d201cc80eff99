import Foundation
import MapSimStyle

/// A tile URL template and how to fill it: `{z} {x} {y} {quadkey} {prefix} {ratio} {bbox-epsg-3857}`,
/// with rows flipped for the `tms` scheme. Unknown tokens are left as they are, as in the SDKs.
public struct TileURLTemplate: Sendable, Hashable {
    /// The template text.
    public var template: String
    /// The row scheme.
    public var scheme: StyleSource.Scheme

    /// A template for the rows of `scheme`.
    public init(_ template: String, scheme: StyleSource.Scheme = .xyz) {
        self.template = template
        self.scheme = scheme
    }

    /// The URL of tile `id` for a screen of `pixelRatio` (`{ratio}` is `@2x` above 1).
    public func url(for id: CanonicalTileID, pixelRatio: Double = 1) -> String {
        TokenReplacer.replace(in: template) { token in
            switch token {
            case "z": String(id.z)
            case "x": String(id.x)
            case "y": String(scheme == .tms ? id.tmsY : id.y)
            case "quadkey": Self.quadkey(id)
            case "prefix": Self.prefix(id)
            case "ratio": pixelRatio > 1 ? "@2x" : ""
            case "bbox-epsg-3857": Self.bbox(id)
            default: nil
            }
        }
    }

    /// The Bing quadkey of a tile: one base-4 digit per zoom level.
    static func quadkey(_ id: CanonicalTileID) -> String {
        var key = ""
        for level in stride(from: id.z, to: 0, by: -1) {
            let mask = 1 << (level - 1)
            var digit = 0
            if id.x & mask != 0 { digit += 1 }
            if id.y & mask != 0 { digit += 2 }
            key.append(Character(String(digit)))
        }
        return key
    }

    /// Two hex digits: x mod 16 and y mod 16, for sharded tile hosts.
    static func prefix(_ id: CanonicalTileID) -> String {
        String(id.x % 16, radix: 16) + String(id.y % 16, radix: 16)
    }

    /// The tile's bounds in EPSG:3857 metres: `minx,miny,maxx,maxy`.
    static func bbox(_ id: CanonicalTileID) -> String {
        let tiles = Double(1 << id.z)
        let low = WebMercator.metres(x: Double(id.x) / tiles, y: Double(id.y + 1) / tiles)
        let high = WebMercator.metres(x: Double(id.x + 1) / tiles, y: Double(id.y) / tiles)
        return [low.x, low.y, high.x, high.y].map(shortest).joined(separator: ",")
    }

    /// `value` as MapLibre Native writes a bbox coordinate: the shortest text that reads back as
    /// the same double (up to 17 digits), without a `.0` on whole numbers (`0`, not `0.0`).
    static func shortest(_ value: Double) -> String {
        let text = "\(value)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
