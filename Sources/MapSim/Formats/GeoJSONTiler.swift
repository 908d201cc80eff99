import Foundation
import MapSimJSON
import MapSimStyle

/// A GeoJSON source cut into tiles as the SDKs cut it (geojson-vt): a feature is in every tile its
/// bounding box meets, each tile widened by the source's buffer (in pixels of a 512-pixel tile, 128
/// by default: a quarter of a tile, as both SDKs scale it to geojson-vt's 8192 units), with
/// its geometry in the tile's coordinates. Feature ids come from `promoteId`, the feature's `id`, or
/// its index with `generateId`. A GeometryCollection gives one feature per geometry.
struct GeoJSONTiler: Sendable {
    /// The extent of a GeoJSON tile, as MapLibre Native sets it.
    static let extent: UInt32 = 8192

    private struct Entry: Sendable {
        var id: JSONValue?
        var type: VectorTile.Feature.GeometryType
        var properties: JSONObject
        /// Lines or rings of world coordinates, from 0 to 1.
        var world: [[TilePoint]]
        var bounds: WorldRect
    }

    /// A box in world coordinates, from 0 to 1.
    struct WorldRect: Sendable, Equatable {
        var minX, minY, maxX, maxY: Double
    }

    /// The features in order; a removed one leaves a hole until the next compaction.
    private var entries: [Entry?] = []
    /// Where the entries of each feature id are (by `GeoJSONSourceDiff.key`).
    private var positions: [String: [Int]] = [:]
    private var holes = 0
    private let buffer: Double

    /// Options of a GeoJSON source that shape its tiles.
    struct Options: Sendable {
        var buffer = 128
        var promoteId: String?
        var generateId = false
    }

    init(_ document: JSONValue, options: Options = Options()) {
        buffer = Double(options.buffer)
        let features: [JSONValue]
        switch document["type"]?.stringValue {
        case "FeatureCollection": features = document["features"]?.arrayValue ?? []
        case "Feature": features = [document]
        default: features = [.object(JSONObject([("type", .string("Feature")), ("geometry", document)]))]
        }
        for (index, feature) in features.enumerated() {
            let properties = feature["properties"]?.objectValue ?? JSONObject()
            var id = feature["id"]
            if let promoted = options.promoteId { id = properties[promoted] } else if options.generateId { id = .number(Double(index)) }
            add(id: id, geometry: feature["geometry"], properties: properties)
        }
    }

    /// Whether the source has no feature at all.
    var isEmpty: Bool { entries.count == holes }

    /// How many features it holds (a GeometryCollection counts once per geometry).
    var count: Int { entries.count - holes }

    private mutating func add(id: JSONValue?, geometry: JSONValue?, properties: JSONObject) {
        for (type, lines) in Self.geometries(geometry) {
            let points = lines.joined()
            guard let first = points.first else { continue }
            var bounds = WorldRect(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
            for point in points {
                bounds.minX = min(bounds.minX, point.x)
                bounds.maxX = max(bounds.maxX, point.x)
                bounds.minY = min(bounds.minY, point.y)
                bounds.maxY = max(bounds.maxY, point.y)
            }
            if let id { positions[GeoJSONSourceDiff.key(id), default: []].append(entries.count) }
            entries.append(Entry(id: id, type: type, properties: properties, world: lines, bounds: bounds))
        }
    }

    /// Applies `diff`; returns the boxes of every feature it touched, where they were and where they are now.
    mutating func apply(_ diff: GeoJSONSourceDiff) -> [WorldRect] {
        var touched: [WorldRect] = []
        for id in diff.ids {
            guard let change = diff.change(of: id) else { continue }
            let key = GeoJSONSourceDiff.key(id)
            let held = positions[key] ?? []
            touched += held.compactMap { entries[$0]?.bounds }
            if change.isRemoval || change.geometry != nil {
                var properties = held.first.flatMap { entries[$0]?.properties } ?? JSONObject()
                for position in held { entries[position] = nil }
                holes += held.count
                positions[key] = nil
                guard !change.isRemoval else { continue }
                Self.apply(change, to: &properties)
                add(id: id, geometry: change.geometry, properties: properties)
                touched += (positions[key] ?? []).compactMap { entries[$0]?.bounds }
            } else {
                for position in held { Self.apply(change, to: &entries[position]!.properties) }
            }
        }
        if holes > 1024 && holes * 2 > entries.count { compact() }
        return touched
    }

    private static func apply(_ change: GeoJSONSourceDiff.FeatureChange, to properties: inout JSONObject) {
        for name in change.removedProperties { properties[name] = nil }
        for (name, value) in change.properties.members { properties[name] = value }
    }

    private mutating func compact() {
        let kept = entries.compactMap { $0 }
        entries = []
        positions = [:]
        holes = 0
        for entry in kept {
            if let id = entry.id { positions[GeoJSONSourceDiff.key(id), default: []].append(entries.count) }
            entries.append(entry)
        }
    }

    /// The feature `id` as GeoJSON (`id`, `properties` and its geometry's type; a point's coordinates
    /// too, to 7 decimals); nil when the source has no such feature.
    func feature(id: JSONValue) -> JSONValue? {
        guard let position = positions[GeoJSONSourceDiff.key(id)]?.first, let entry = entries[position] else { return nil }
        var geometry = JSONObject([("type", .string(entry.type.name))])
        if entry.type == .point, let point = entry.world.first?.first {
            let longitude = (point.x - 0.5) * 360
            let latitude = atan(sinh(.pi * (1 - 2 * point.y))) * 180 / .pi
            func rounded(_ value: Double) -> JSONValue { .number((value * 1e7).rounded() / 1e7) }
            geometry["coordinates"] = .array([rounded(longitude), rounded(latitude)])
        }
        return .object(JSONObject([("type", .string("Feature")), ("id", id), ("geometry", .object(geometry)), ("properties", .object(entry.properties))]))
    }

    /// Every feature in order, each with its anchor: a point's position, else its bounding box's centre.
    func allFeatures() -> [SourceFeature] {
        entries.compactMap { entry in
            guard let entry else { return nil }
            let x = entry.type == .point ? entry.world.first?.first?.x ?? 0 : (entry.bounds.minX + entry.bounds.maxX) / 2
            let y = entry.type == .point ? entry.world.first?.first?.y ?? 0 : (entry.bounds.minY + entry.bounds.maxY) / 2
            return SourceFeature(id: entry.id, properties: entry.properties,
                                 anchor: LngLat(longitude: WebMercator.longitude(x: x), latitude: WebMercator.latitude(y: y)))
        }
    }

    /// Whether `rect` meets `tile` widened by the buffer.
    func intersects(_ rect: WorldRect, _ tile: CanonicalTileID) -> Bool {
        let (left, top, right, bottom) = area(of: tile)
        return rect.maxX >= left && rect.minX <= right && rect.maxY >= top && rect.minY <= bottom
    }

    /// The world box a tile covers with its buffer.
    private func area(of tile: CanonicalTileID) -> (left: Double, top: Double, right: Double, bottom: Double) {
        let scale = pow(2, Double(tile.z))
        let margin = buffer / 512 / scale
        return (Double(tile.x) / scale - margin, Double(tile.y) / scale - margin, Double(tile.x + 1) / scale + margin, Double(tile.y + 1) / scale + margin)
    }

    /// The features in `tile`, with their geometry in its coordinates.
    func features(in tile: CanonicalTileID) -> [VectorTile.Feature] {
        let scale = pow(2, Double(tile.z))
        let (left, top, right, bottom) = area(of: tile)
        let extent = Double(Self.extent)
        return entries.compactMap { entry in
            guard let entry, entry.bounds.maxX >= left, entry.bounds.minX <= right, entry.bounds.maxY >= top, entry.bounds.minY <= bottom else { return nil }
            if entry.type == .point {
                guard entry.world.joined().contains(where: { $0.x >= left && $0.x <= right && $0.y >= top && $0.y <= bottom }) else { return nil }
            }
            let lines = entry.world.map { line in
                line.map { TilePoint(x: ($0.x * scale - Double(tile.x)) * extent, y: ($0.y * scale - Double(tile.y)) * extent) }
            }
            return VectorTile.Feature(id: entry.id, geometryType: entry.type, properties: entry.properties, shape: .points(lines, extent: Self.extent))
        }
    }

    /// The simple geometries of a GeoJSON geometry, in world coordinates.
    private static func geometries(_ geometry: JSONValue?) -> [(VectorTile.Feature.GeometryType, [[TilePoint]])] {
        guard let geometry else { return [] }
        func point(_ position: JSONValue) -> TilePoint? {
            guard let values = position.arrayValue, values.count >= 2, let longitude = values[0].numberValue, let latitude = values[1].numberValue else { return nil }
            let sine = sin(max(min(latitude, 89.9999), -89.9999) * .pi / 180)
            return TilePoint(x: longitude / 360 + 0.5, y: 0.5 - 0.25 * log((1 + sine) / (1 - sine)) / .pi)
        }
        func line(_ positions: JSONValue?) -> [TilePoint] { (positions?.arrayValue ?? []).compactMap(point) }
        func lines(_ value: JSONValue?) -> [[TilePoint]] { (value?.arrayValue ?? []).map(line) }
        let coordinates = geometry["coordinates"]
        switch geometry["type"]?.stringValue {
        case "Point": return [(.point, [coordinates.flatMap(point).map { [$0] } ?? []])]
        case "MultiPoint": return [(.point, [line(coordinates)])]
        case "LineString": return [(.lineString, [line(coordinates)])]
        case "MultiLineString": return [(.lineString, lines(coordinates))]
        case "Polygon": return [(.polygon, lines(coordinates))]
        case "MultiPolygon": return [(.polygon, (coordinates?.arrayValue ?? []).flatMap { lines($0) })]
        case "GeometryCollection": return (geometry["geometries"]?.arrayValue ?? []).flatMap { geometries($0) }
        default: return []
        }
    }
}
