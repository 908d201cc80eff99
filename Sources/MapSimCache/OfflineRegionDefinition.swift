import Foundation
import MapSim
import MapSimJSON
import MapSimStyle

/// What an offline region covers, as MapLibre Native defines it: a style, an area — a tile pyramid's
/// bounds or any GeoJSON geometry — a zoom range (the upper end may be unbounded), the pixel ratio of
/// its sprites and `{ratio}` tiles, and whether CJK ideographs are downloaded. `encoded` is the text
/// MapLibre Native stores in `regions.definition`; `init(decoding:)` reads it as MapLibre does.
public struct OfflineRegionDefinition: Sendable, Equatable {
    /// The area of a region.
    public enum Area: Sendable, Equatable {
        /// A tile pyramid: every tile inside the bounds.
        case bounds(LngLatBounds)
        /// Every tile the geometry touches at each zoom (not its bounding box).
        case geometry(GeoJSONGeometry)
    }

    /// The style's URL.
    public var styleURL: String
    /// The area.
    public var area: Area
    /// The lowest zoom.
    public var minZoom: Double
    /// The highest zoom; `.infinity` for every zoom the sources have.
    public var maxZoom: Double
    /// The pixel ratio (held as MapLibre holds it, a 32-bit float).
    public var pixelRatio: Double
    /// Whether glyph ranges of CJK ideographs and Hangul are downloaded.
    public var includeIdeographs: Bool

    /// A definition; throws, as MapLibre does, for a negative or non-finite zoom, a max zoom below
    /// the min, a pixel ratio that is negative or not finite, or bounds that are not positions.
    public init(styleURL: String, area: Area, minZoom: Double, maxZoom: Double, pixelRatio: Double = 1,
                includeIdeographs: Bool = false) throws(OfflineRegionDefinitionError) {
        guard minZoom.isFinite, minZoom >= 0, !maxZoom.isNaN, maxZoom >= minZoom else {
            throw OfflineRegionDefinitionError("the zoom range \(minZoom)...\(maxZoom) is not a zoom range: min ≥ 0, max ≥ min")
        }
        guard pixelRatio.isFinite, pixelRatio >= 0 else { throw OfflineRegionDefinitionError("the pixel ratio \(pixelRatio) must be a finite number ≥ 0") }
        if case .bounds(let bounds) = area {
            guard [bounds.west, bounds.east].allSatisfy(\.isFinite), [bounds.south, bounds.north].allSatisfy({ (-90...90).contains($0) }) else {
                throw OfflineRegionDefinitionError("the bounds \(bounds.west),\(bounds.south),\(bounds.east),\(bounds.north) are not positions: latitudes must be in -90...90")
            }
        }
        self.styleURL = styleURL
        self.area = area
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.pixelRatio = Double(Float(pixelRatio))
        self.includeIdeographs = includeIdeographs
    }

    /// The definition as MapLibre Native encodes it in `regions.definition`: members `style_url`,
    /// `min_zoom`, `max_zoom` (left out when unbounded), `pixel_ratio`, `include_ideographs`, then
    /// `bounds` as `[south, west, north, east]` or `geometry`; numbers always with a fraction or an
    /// exponent (`11.0`), as MapLibre's JSON writer writes doubles.
    public var encoded: String {
        var members: [(String, EncodedValue)] = [("style_url", .text(styleURL)), ("min_zoom", .double(minZoom))]
        if maxZoom.isFinite { members.append(("max_zoom", .double(maxZoom))) }
        members += [("pixel_ratio", .double(pixelRatio)), ("include_ideographs", .flag(includeIdeographs))]
        switch area {
        case .bounds(let bounds):
            members.append(("bounds", .list([bounds.south, bounds.west, bounds.north, bounds.east].map(EncodedValue.double))))
        case .geometry(let geometry):
            members.append(("geometry", EncodedValue(geometry.json)))
        }
        var text = ""
        EncodedValue.object(members).write(to: &text)
        return text
    }

    /// Reads `regions.definition` as MapLibre Native does: it must be a JSON object with a string
    /// `style_url`, numbers written as doubles for `min_zoom`, `pixel_ratio` and `max_zoom` (when
    /// present), a boolean `include_ideographs` (when present; true otherwise), and `bounds` —
    /// four doubles, south, west, north, east — or a GeoJSON `geometry`. The error says what
    /// MapLibre would refuse.
    public init(decoding text: String) throws(OfflineRegionDefinitionError) {
        let bytes = Array(text.utf8)
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw OfflineRegionDefinitionError("the definition is not JSON: \(error)")
        }
        guard let object = json.objectValue else { throw OfflineRegionDefinitionError("the definition is not a JSON object") }
        let literals = JSONLineIndex(scanning: bytes, keepingLiterals: true)
        func double(_ key: String, element: Int? = nil) throws(OfflineRegionDefinitionError) -> Double {
            var value = object[key]
            if let element {
                let items = value?.arrayValue ?? []
                value = items.indices.contains(element) ? items[element] : nil
            }
            guard case .number(let number)? = value else {
                throw OfflineRegionDefinitionError("\(key)\(element.map { "[\($0)]" } ?? "") must be a number")
            }
            guard Self.isWrittenAsDouble(literals.literal(element.map { "\(key)[\($0)]" } ?? key) ?? "") else {
                throw OfflineRegionDefinitionError("\(key)\(element.map { "[\($0)]" } ?? "") must be written as a double (\(Self.double(number))): MapLibre Native refuses integers here")
            }
            return number
        }
        guard let style = object["style_url"]?.stringValue else { throw OfflineRegionDefinitionError("style_url must be a string") }
        let minZoom = try double("min_zoom")
        let maxZoom = object["max_zoom"] == nil ? Double.infinity : try double("max_zoom")
        let pixelRatio = try double("pixel_ratio")
        var includeIdeographs = true
        if let flag = object["include_ideographs"] {
            guard let value = flag.boolValue else { throw OfflineRegionDefinitionError("include_ideographs must be true or false") }
            includeIdeographs = value
        }
        let area: Area
        if object["bounds"] != nil {
            guard object["bounds"]?.arrayValue?.count == 4 else { throw OfflineRegionDefinitionError("bounds must be four numbers: south, west, north, east") }
            let (south, west, north, east) = (try double("bounds", element: 0), try double("bounds", element: 1),
                                              try double("bounds", element: 2), try double("bounds", element: 3))
            area = .bounds(LngLatBounds(west: min(west, east), south: min(south, north), east: max(west, east), north: max(south, north)))
        } else if let geometry = object["geometry"] {
            do {
                area = .geometry(try GeoJSONGeometry(json: geometry))
            } catch {
                throw OfflineRegionDefinitionError(error.message)
            }
        } else {
            throw OfflineRegionDefinitionError("the definition has neither bounds nor geometry")
        }
        try self.init(styleURL: style, area: area, minZoom: minZoom, maxZoom: maxZoom, pixelRatio: pixelRatio, includeIdeographs: includeIdeographs)
    }

    /// The smallest rectangle holding the area; nil for a geometry without positions.
    public var bounds: LngLatBounds? {
        switch area {
        case .bounds(let bounds): bounds
        case .geometry(let geometry): geometry.bounds
        }
    }

    /// The zooms of a source's tiles the region covers, as MapLibre's `coveringZoomRange`: the
    /// region's zooms turned into the source's (floored for vector tiles, rounded for raster; shifted
    /// by the tile size), within the zooms the source has. Nil when they do not meet.
    public func tileZooms(of pyramid: TilePyramid) -> ClosedRange<Int>? {
        func covering(_ zoom: Double) -> Double {
            let exact = zoom + log2(512 / Double(pyramid.tileSize))
            return pyramid.rounding == .floor ? floor(exact) : exact.rounded()
        }
        let low = max(covering(minZoom), Double(pyramid.minZoom))
        let high = min(maxZoom.isFinite ? covering(maxZoom) : .infinity, Double(pyramid.maxZoom))
        guard low <= high, high >= 0 else { return nil }
        return Int(max(low, 0))...Int(high)
    }

    /// The tiles of zoom `z` the area touches, one at a time.
    public func tiles(atZoom z: Int) -> GeometryTileCover {
        switch area {
        case .bounds(let bounds): GeometryTileCover(bounds: bounds, zoom: z)
        case .geometry(let geometry): GeometryTileCover(geometry: geometry, zoom: z)
        }
    }

    /// How many tiles of zoom `z` MapLibre counts for the area in a region's status: for bounds, its
    /// `util::tileCount` (the columns and rows of the corners' tiles); for a geometry, the cover.
    public func statusTileCount(atZoom z: Int) -> Int {
        guard case .bounds(let bounds) = area else { return tiles(atZoom: z).count }
        guard z > 0 else { return 1 }
        let tiles = Double(1 << z)
        func project(_ latitude: Double, _ longitude: Double) -> (x: Double, y: Double) {
            let clamped = min(max(latitude, -LngLat.maximumMercatorLatitude), LngLat.maximumMercatorLatitude)
            let scale = tiles / 360
            return ((180 + longitude) * scale, (180 - 180 / Double.pi * log(tan(Double.pi / 4 + clamped * Double.pi / 360))) * scale)
        }
        let southwest = project(bounds.south, bounds.west)
        let northeast = project(bounds.north, bounds.east)
        let x1 = floor(southwest.x)
        let x2 = ceil(northeast.x) - 1
        let y1 = min(max(floor(southwest.y), 0), tiles - 1)
        let y2 = min(max(floor(northeast.y), 0), tiles - 1)
        let dx = x1 > x2 ? (tiles - x1) + x2 : x2 - x1
        return Int((dx + 1) * (y1 - y2 + 1))
    }

    // MARK: - Encoding

    /// A JSON value as MapLibre's writer writes it: doubles always with a fraction or an exponent.
    private indirect enum EncodedValue {
        case text(String)
        case double(Double)
        case flag(Bool)
        case list([EncodedValue])
        case object([(String, EncodedValue)])
        case null

        init(_ json: JSONValue) {
            switch json {
            case .null: self = .null
            case .bool(let flag): self = .flag(flag)
            case .number(let number): self = .double(number)
            case .string(let text): self = .text(text)
            case .array(let items): self = .list(items.map(EncodedValue.init))
            case .object(let object): self = .object(object.members.map { ($0.key, EncodedValue($0.value)) })
            }
        }

        func write(to text: inout String) {
            switch self {
            case .text(let string): JSONWriter.writeString(string, to: &text)
            case .double(let number): text += OfflineRegionDefinition.double(number)
            case .flag(let flag): text += flag ? "true" : "false"
            case .null: text += "null"
            case .list(let items):
                text += "["
                for (index, item) in items.enumerated() {
                    if index > 0 { text += "," }
                    item.write(to: &text)
                }
                text += "]"
            case .object(let members):
                text += "{"
                for (index, (key, value)) in members.enumerated() {
                    if index > 0 { text += "," }
                    JSONWriter.writeString(key, to: &text)
                    text += ":"
                    value.write(to: &text)
                }
                text += "}"
            }
        }
    }

    /// A double as rapidjson's writer prints it: the shortest digits, then `Prettify` — `11.0`,
    /// `37.7`, `0.001`, `1e-7`, `1.5e30`.
    static func double(_ value: Double) -> String {
        guard value != 0 else { return value.sign == .minus ? "-0.0" : "0.0" }
        let sign = value < 0 ? "-" : ""
        let (digits, exponent) = shortestDigits(abs(value))
        let length = digits.count
        let kk = length + exponent
        let body: String
        if exponent >= 0 && kk <= 21 {
            body = digits + String(repeating: "0", count: exponent) + ".0"
        } else if kk > 0 && kk <= 21 {
            body = String(digits.prefix(kk)) + "." + String(digits.dropFirst(kk))
        } else if kk > -6 && kk <= 0 {
            body = "0." + String(repeating: "0", count: -kk) + digits
        } else if length == 1 {
            body = digits + "e" + String(kk - 1)
        } else {
            body = String(digits.prefix(1)) + "." + String(digits.dropFirst()) + "e" + String(kk - 1)
        }
        return sign + body
    }

    /// Whether a number is written as rapidjson reads a double (`IsDouble`): with a fraction or an
    /// exponent, or too large for a 64-bit integer.
    private static func isWrittenAsDouble(_ literal: String) -> Bool {
        if literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) { return true }
        return Int64(literal) == nil && UInt64(literal) == nil
    }

    /// The shortest decimal digits that read back as `value` (positive, finite), and the power of
    /// ten of the last digit.
    private static func shortestDigits(_ value: Double) -> (digits: String, exponent: Int) {
        let text = "\(value)"
        let parts = text.split(separator: "e", maxSplits: 1)
        var exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0]
        var digits = ""
        if let point = mantissa.firstIndex(of: ".") {
            let fraction = mantissa[mantissa.index(after: point)...]
            digits = String(mantissa[..<point]) + fraction
            exponent -= fraction.count
        } else {
            digits = String(mantissa)
        }
        while digits.count > 1, digits.hasPrefix("0") { digits.removeFirst() }
        while digits.count > 1, digits.hasSuffix("0") {
            digits.removeLast()
            exponent += 1
        }
        return (digits, exponent)
    }
}
