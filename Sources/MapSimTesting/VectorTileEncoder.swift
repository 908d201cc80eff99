/// Builds small Mapbox Vector Tiles for tests: layers of point features with string properties.
public struct VectorTileEncoder {
    private var layers: [[UInt8]] = []

    /// An empty tile.
    public init() {}

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
