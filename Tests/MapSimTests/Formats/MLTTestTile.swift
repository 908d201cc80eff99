/// Builds small MLT tiles byte by byte, for tests of what the decoder makes of unusual or broken
/// input.
enum MLTTestTile {
    /// Physical encoding: varints.
    static let varints: UInt8 = 0x02
    /// Logical encoding RLE, physical varints.
    static let runLengthVarints: UInt8 = 0x62
    /// Logical encoding componentwise delta, physical varints.
    static let componentwiseDeltaVarints: UInt8 = 0x42

    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    static func zigzag(_ value: Int) -> UInt64 { UInt64(bitPattern: Int64(value << 1) ^ Int64(value >> 63)) }

    static func string(_ text: String) -> [UInt8] { varint(UInt64(text.utf8.count)) + Array(text.utf8) }

    /// A stream: its kind byte, encodings byte, value count and byte count, the run-length or Morton
    /// parameters in `extra`, then `payload`.
    static func stream(_ kind: UInt8, _ encodings: UInt8, count: Int, extra: [UInt64] = [], _ payload: [UInt8]) -> [UInt8] {
        [kind, encodings] + varint(UInt64(count)) + varint(UInt64(payload.count)) + extra.flatMap(varint) + payload
    }

    /// A column declaration: its type code, and its name when the type has one.
    static func column(_ code: UInt8, _ name: String? = nil) -> [UInt8] {
        [code] + (name.map(string) ?? [])
    }

    /// A geometry column of points: its stream count, the geometry types, the vertices.
    static func points(_ points: [(x: Int, y: Int)]) -> [UInt8] {
        var previous = (x: 0, y: 0)
        var deltas: [UInt8] = []
        for point in points {
            deltas += varint(zigzag(point.x - previous.x)) + varint(zigzag(point.y - previous.y))
            previous = point
        }
        return varint(2) + stream(0x10, varints, count: points.count, [UInt8](repeating: 0, count: points.count))
            + stream(0x13, componentwiseDeltaVarints, count: 2 * points.count, deltas)
    }

    /// A non-nullable 32-bit integer column's data stream.
    static func int32s(_ values: [Int]) -> [UInt8] {
        stream(0x10, varints, count: values.count, values.flatMap { varint(zigzag($0)) })
    }

    /// A feature table framed as a tag-1 block: its name, extent, column declarations, then the
    /// columns' streams.
    static func table(_ name: String, extent: UInt64 = 4096, columns: [[UInt8]], body: [UInt8]) -> [UInt8] {
        block(tag: 1, string(name) + varint(extent) + varint(UInt64(columns.count)) + columns.flatMap { $0 } + body)
    }

    /// A block: its size (the tag included), its tag, its bytes.
    static func block(tag: UInt64, _ bytes: [UInt8]) -> [UInt8] {
        let content = varint(tag) + bytes
        return varint(UInt64(content.count)) + content
    }
}
