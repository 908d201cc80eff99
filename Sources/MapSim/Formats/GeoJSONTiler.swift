import Foundation
import MapSimJSON
import MapSimStyle

/// A GeoJSON source cut into tiles as the SDKs cut it (geojson-vt): a feature is in every tile its
/// bounding box meets, each tile widened by the source's buffer (128 units of 8192 by default), with
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
        var minX, minY, maxX, maxY: Double
    }

    private let entries: [Entry]
    private let buffer: Double

    /// Options of a GeoJSON source that shape its tiles.
    struct Options: Sendable {
        var buffer = 128
        var promoteId: String?
        var generateId = false
    }

    init(_ document: JSONValue, options: Options = Options()) {
        buffer = Double(options.buffer)
        var entries: [Entry] = []
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
            for (type, lines) in Self.geometries(feature["geometry"]) {
                let points = lines.joined()
                guard !points.isEmpty else { continue }
                entries.append(Entry(id: id, type: type, properties: properties, world: lines,
                                     minX: points.map(\.x).min() ?? 0, minY: points.map(\.y).min() ?? 0,
                                     maxX: points.map(\.x).max() ?? 0, maxY: points.map(\.y).max() ?? 0))
            }
        }
        self.entries = entries
    }

    /// Whether the source has no feature at all.
    var isEmpty: Bool { entries.isEmpty }

    /// The features in `tile`, with their geometry in its coordinates.
    func features(in tile: CanonicalTileID) -> [VectorTile.Feature] {
        let scale = pow(2, Double(tile.z))
        let margin = buffer / Double(Self.extent) / scale
        let (left, top) = (Double(tile.x) / scale - margin, Double(tile.y) / scale - margin)
        let (right, bottom) = (Double(tile.x + 1) / scale + margin, Double(tile.y + 1) / scale + margin)
        let extent = Double(Self.extent)
        return entries.compactMap { entry in
            guard entry.maxX >= left, entry.minX <= right, entry.maxY >= top, entry.minY <= bottom else { return nil }
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
