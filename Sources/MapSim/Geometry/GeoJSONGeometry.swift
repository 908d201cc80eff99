import MapSimJSON
import MapSimStyle

/// A GeoJSON geometry (RFC 7946) in degrees: what an offline region may cover. It reads and writes
/// the geometry object as MapLibre Native's GeoJSON conversion does — `type`, then `coordinates` (or
/// `geometries`), positions as `[longitude, latitude]` (a third value is read and dropped).
public indirect enum GeoJSONGeometry: Sendable, Equatable {
    case point(LngLat)
    case multiPoint([LngLat])
    case lineString([LngLat])
    case multiLineString([[LngLat]])
    /// Rings, the first the outer one.
    case polygon([[LngLat]])
    case multiPolygon([[[LngLat]]])
    case geometryCollection([GeoJSONGeometry])

    /// Reads a geometry object; the error names what is wrong and where (`path`).
    public init(json: JSONValue, path: String = "geometry") throws(GeoJSONGeometryError) {
        guard let object = json.objectValue else { throw GeoJSONGeometryError("\(path) must be a GeoJSON geometry object") }
        guard let type = object["type"]?.stringValue else { throw GeoJSONGeometryError("\(path).type must be a string") }
        if type == "GeometryCollection" {
            guard let members = object["geometries"]?.arrayValue else { throw GeoJSONGeometryError("\(path).geometries must be an array") }
            var geometries: [GeoJSONGeometry] = []
            for (index, member) in members.enumerated() {
                geometries.append(try GeoJSONGeometry(json: member, path: "\(path).geometries[\(index)]"))
            }
            self = .geometryCollection(geometries)
            return
        }
        guard let coordinates = object["coordinates"] else { throw GeoJSONGeometryError("\(path).coordinates is missing") }
        let at = "\(path).coordinates"
        switch type {
        case "Point": self = .point(try Self.position(coordinates, at))
        case "MultiPoint": self = .multiPoint(try Self.positions(coordinates, at))
        case "LineString": self = .lineString(try Self.positions(coordinates, at))
        case "MultiLineString": self = .multiLineString(try Self.lines(coordinates, at))
        case "Polygon": self = .polygon(try Self.lines(coordinates, at))
        case "MultiPolygon":
            guard let polygons = coordinates.arrayValue else { throw GeoJSONGeometryError("\(at) must be an array of polygons") }
            var result: [[[LngLat]]] = []
            for (index, polygon) in polygons.enumerated() { result.append(try Self.lines(polygon, "\(at)[\(index)]")) }
            self = .multiPolygon(result)
        default:
            throw GeoJSONGeometryError("\(path).type \"\(type)\" is not a GeoJSON geometry type")
        }
    }

    /// The geometry object: `type` first, then `coordinates` or `geometries`.
    public var json: JSONValue {
        func position(_ p: LngLat) -> JSONValue { .array([.number(p.longitude), .number(p.latitude)]) }
        func line(_ points: [LngLat]) -> JSONValue { .array(points.map(position)) }
        func rings(_ rings: [[LngLat]]) -> JSONValue { .array(rings.map(line)) }
        let (type, coordinates): (String, JSONValue)
        switch self {
        case .point(let p): (type, coordinates) = ("Point", position(p))
        case .multiPoint(let points): (type, coordinates) = ("MultiPoint", line(points))
        case .lineString(let points): (type, coordinates) = ("LineString", line(points))
        case .multiLineString(let lines): (type, coordinates) = ("MultiLineString", rings(lines))
        case .polygon(let polygon): (type, coordinates) = ("Polygon", rings(polygon))
        case .multiPolygon(let polygons): (type, coordinates) = ("MultiPolygon", .array(polygons.map(rings)))
        case .geometryCollection(let members):
            return .object(JSONObject([("type", .string("GeometryCollection")), ("geometries", .array(members.map(\.json)))]))
        }
        return .object(JSONObject([("type", .string(type)), ("coordinates", coordinates)]))
    }

    /// Every position of the geometry.
    public var positions: [LngLat] {
        switch self {
        case .point(let p): [p]
        case .multiPoint(let points), .lineString(let points): points
        case .multiLineString(let lines), .polygon(let lines): lines.flatMap { $0 }
        case .multiPolygon(let polygons): polygons.flatMap { $0.flatMap { $0 } }
        case .geometryCollection(let members): members.flatMap(\.positions)
        }
    }

    /// The smallest rectangle holding every position; nil for a geometry without any.
    public var bounds: LngLatBounds? {
        let all = positions
        guard let first = all.first else { return nil }
        var bounds = LngLatBounds(west: first.longitude, south: first.latitude, east: first.longitude, north: first.latitude)
        for p in all.dropFirst() {
            bounds.west = min(bounds.west, p.longitude)
            bounds.east = max(bounds.east, p.longitude)
            bounds.south = min(bounds.south, p.latitude)
            bounds.north = max(bounds.north, p.latitude)
        }
        return bounds
    }

    private static func position(_ value: JSONValue, _ path: String) throws(GeoJSONGeometryError) -> LngLat {
        guard let numbers = value.arrayValue, numbers.count >= 2, case .number(let longitude) = numbers[0], case .number(let latitude) = numbers[1] else {
            throw GeoJSONGeometryError("\(path) must be a position: [longitude, latitude]")
        }
        guard longitude.isFinite, (-90...90).contains(latitude) else {
            throw GeoJSONGeometryError("\(path) [\(longitude), \(latitude)] is not a position: the latitude must be in -90...90")
        }
        return LngLat(longitude: longitude, latitude: latitude)
    }

    private static func positions(_ value: JSONValue, _ path: String) throws(GeoJSONGeometryError) -> [LngLat] {
        guard let items = value.arrayValue else { throw GeoJSONGeometryError("\(path) must be an array of positions") }
        var result: [LngLat] = []
        for (index, item) in items.enumerated() { result.append(try position(item, "\(path)[\(index)]")) }
        return result
    }

    private static func lines(_ value: JSONValue, _ path: String) throws(GeoJSONGeometryError) -> [[LngLat]] {
        guard let items = value.arrayValue else { throw GeoJSONGeometryError("\(path) must be an array of lines") }
        var result: [[LngLat]] = []
        for (index, item) in items.enumerated() { result.append(try positions(item, "\(path)[\(index)]")) }
        return result
    }
}
