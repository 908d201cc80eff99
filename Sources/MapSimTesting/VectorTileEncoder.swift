import MapSimJSON

/// Builds Mapbox Vector Tiles for tests and benchmarks: layers of point features with string
/// properties, or of points, lines and polygons with properties of any JSON scalar type.
public struct VectorTileEncoder {
    private var layers: [[UInt8]] = []

    /// An empty tile.
    public init() {}

    /// A feature: its geometry type (1 point, 2 line, 3 polygon), its parts (points, lines, or
    /// rings without the closing point) in tile units of 4096, and its properties.
    public struct Feature {
        public var geometryType: UInt64
        public var parts: [[(x: Int, y: Int)]]
        public var properties: [(String, JSONValue)]

        public init(geometryType: UInt64, parts: [[(x: Int, y: Int)]], properties: [(String, JSONValue)]) {
            self.geometryType = geometryType
            self.parts = parts
            self.properties = properties
        }
    }

    /// Adds a layer called `name` holding `features`.
    public mutating func addLayer(_ name: String, features: [Feature]) {
        var keys: [String: Int] = [:]
        var keyList: [String] = []
        var values: [[UInt8]: Int] = [:]
        var valueList: [[UInt8]] = []
        var body = Self.field(15, varint: 2) + Self.field(1, bytes: Array(name.utf8))
        for (index, feature) in features.enumerated() {
            var tags: [UInt64] = []
            for (key, value) in feature.properties {
                let encoded = Self.encode(value)
                if keys[key] == nil {
                    keys[key] = keyList.count
                    keyList.append(key)
                }
                if values[encoded] == nil {
                    values[encoded] = valueList.count
                    valueList.append(encoded)
                }
                tags += [UInt64(keys[key] ?? 0), UInt64(values[encoded] ?? 0)]
            }
            var commands: [UInt64] = []
            var (cursorX, cursorY) = (0, 0)
            for part in feature.parts where !part.isEmpty {
                for (offset, point) in part.enumerated() {
                    if offset == 0 { commands.append(1 | 1 << 3) }
                    if offset == 1 { commands.append(2 | UInt64(part.count - 1) << 3) }
                    commands += [Self.zigzag(point.x - cursorX), Self.zigzag(point.y - cursorY)]
                    (cursorX, cursorY) = (point.x, point.y)
                }
                if feature.geometryType == 3 { commands.append(7 | 1 << 3) }
            }
            var encoded = Self.field(1, varint: UInt64(index + 1))
            encoded += Self.field(2, bytes: tags.flatMap(Self.varint))
            encoded += Self.field(3, varint: feature.geometryType)
            encoded += Self.field(4, bytes: commands.flatMap(Self.varint))
            body += Self.field(2, bytes: encoded)
        }
        for key in keyList { body += Self.field(3, bytes: Array(key.utf8)) }
        for value in valueList { body += Self.field(4, bytes: value) }
        body += Self.field(5, varint: 4096)
        layers.append(body)
    }

    private static func zigzag(_ value: Int) -> UInt64 {
        UInt64(bitPattern: Int64((value << 1) ^ (value >> 63)))
    }

    /// A value message: strings, doubles, integers and booleans.
    private static func encode(_ value: JSONValue) -> [UInt8] {
        switch value {
        case .string(let text): return field(1, bytes: Array(text.utf8))
        case .bool(let flag): return field(7, varint: flag ? 1 : 0)
        case .number(let n) where n == n.rounded() && abs(n) < 1e15: return field(6, varint: zigzag(Int(n)))
        case .number(let n): return varint(3 << 3 | 1) + withUnsafeBytes(of: n.bitPattern.littleEndian) { Array($0) }
        default: return field(1, bytes: [])
        }
    }

    /// Adds a layer called `name` holding one point feature per property list.
    public mutating func addLayer(_ name: String, points: [[(String, String)]]) {
        var keys: [String] = []
        var values: [String] = []
        var body = Self.field(15, varint: 2) + Self.field(1, bytes: Array(name.utf8))
        for (index, properties) in points.enumerated() {
            var tags: [UInt64] = []
            for (key, value) in properties {
                if !keys.contains(key) { keys.append(key) }
                if !values.contains(value) { values.append(value) }
                tags += [UInt64(keys.firstIndex(of: key)!), UInt64(values.firstIndex(of: value)!)]
            }
            let geometry: [UInt64] = [9, 4096, 4096]  // MoveTo(1) to (2048, 2048)
            var feature = Self.field(1, varint: UInt64(index + 1))
            feature += Self.field(2, bytes: tags.flatMap(Self.varint))
            feature += Self.field(3, varint: 1)
            feature += Self.field(4, bytes: geometry.flatMap(Self.varint))
            body += Self.field(2, bytes: feature)
        }
        for key in keys { body += Self.field(3, bytes: Array(key.utf8)) }
        for value in values { body += Self.field(4, bytes: Self.field(1, bytes: Array(value.utf8))) }
        body += Self.field(5, varint: 4096)
        layers.append(body)
    }

    /// The encoded tile.
    public var bytes: [UInt8] {
        layers.flatMap { Self.field(3, bytes: $0) }
    }

    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        repeat {
            let byte = UInt8(value & 0x7F)
            value >>= 7
            out.append(value == 0 ? byte : byte | 0x80)
        } while value != 0
        return out
    }

    static func field(_ number: UInt64, varint value: UInt64) -> [UInt8] {
        varint(number << 3) + varint(value)
    }

    static func field(_ number: UInt64, bytes: [UInt8]) -> [UInt8] {
        varint(number << 3 | 2) + varint(UInt64(bytes.count)) + bytes
    }
}
