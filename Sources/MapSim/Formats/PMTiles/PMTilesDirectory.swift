/// A PMTiles directory, decoded: its entries sorted by tile id. Encoded as the specification
/// says — the number of entries, then the tile ids as deltas, the run lengths, the lengths and the
/// offsets (0 for "right after the previous entry", else the offset plus one), each a varint.
public struct PMTilesDirectory: Sendable, Equatable {
    /// The entries, by tile id.
    public var entries: [PMTilesEntry]

    /// A directory of `entries`.
    public init(entries: [PMTilesEntry]) {
        self.entries = entries
    }

    /// Decodes an (uncompressed) directory; the error names what is malformed.
    public init(decoding bytes: [UInt8]) throws(PMTilesError) {
        var reader = VarintReader(bytes: bytes)
        let count = try reader.next("the number of entries")
        // Each entry takes at least four bytes: a count larger than that is damage, not a directory.
        guard count <= UInt64(bytes.count) / 4 + 1 else {
            throw PMTilesError("the directory claims \(count) entries in \(bytes.count) bytes: it is malformed")
        }
        var entries = [PMTilesEntry](repeating: PMTilesEntry(tileID: 0, offset: 0, length: 0, runLength: 0), count: Int(count))
        var tileID: UInt64 = 0
        for index in entries.indices {
            let (sum, overflow) = tileID.addingReportingOverflow(try reader.next("a tile id"))
            guard !overflow else { throw PMTilesError("a tile id of the directory overflows: it is malformed") }
            tileID = sum
            entries[index].tileID = tileID
        }
        for index in entries.indices {
            entries[index].runLength = try reader.next32("a run length")
        }
        for index in entries.indices {
            entries[index].length = try reader.next32("a length")
        }
        for index in entries.indices {
            let value = try reader.next("an offset")
            if value == 0 && index > 0 {
                let (next, overflow) = entries[index - 1].offset.addingReportingOverflow(UInt64(entries[index - 1].length))
                guard !overflow else { throw PMTilesError("an offset of the directory overflows: it is malformed") }
                entries[index].offset = next
            } else {
                entries[index].offset = value &- 1
            }
        }
        self.entries = entries
    }

    /// The directory's bytes (uncompressed).
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * 6 + 4)
        func put(_ value: UInt64) {
            var rest = value
            while rest >= 0x80 {
                bytes.append(UInt8(rest & 0x7F) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }
        put(UInt64(entries.count))
        var last: UInt64 = 0
        for entry in entries {
            put(entry.tileID - last)
            last = entry.tileID
        }
        for entry in entries { put(UInt64(entry.runLength)) }
        for entry in entries { put(UInt64(entry.length)) }
        for (index, entry) in entries.enumerated() {
            if index > 0 && entry.offset == entries[index - 1].offset + UInt64(entries[index - 1].length) {
                put(0)
            } else {
                put(entry.offset + 1)
            }
        }
        return bytes
    }

    /// The entry that holds `tileID`: a run covering it, or the leaf directory it falls in; nil when
    /// the archive has no such tile.
    public func entry(for tileID: UInt64) -> PMTilesEntry? {
        var low = 0
        var high = entries.count - 1
        while low <= high {
            let middle = (low + high) >> 1
            let candidate = entries[middle].tileID
            if tileID > candidate {
                low = middle + 1
            } else if tileID < candidate {
                high = middle - 1
            } else {
                return entries[middle]
            }
        }
        guard high >= 0 else { return nil }
        let before = entries[high]
        if before.runLength == 0 { return before }
        return tileID - before.tileID < UInt64(before.runLength) ? before : nil
    }
}

/// Reads the varints of a directory.
private struct VarintReader {
    let bytes: [UInt8]
    var position = 0

    mutating func next(_ what: String) throws(PMTilesError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.count else { throw PMTilesError("the directory ends in the middle of \(what): it is truncated") }
            let byte = bytes[position]
            position += 1
            guard shift < 64 else { throw PMTilesError("a varint of the directory is longer than 64 bits: it is malformed") }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    mutating func next32(_ what: String) throws(PMTilesError) -> UInt32 {
        let value = try next(what)
        guard value <= UInt64(UInt32.max) else { throw PMTilesError("\(what) of the directory is larger than 32 bits: it is malformed") }
        return UInt32(value)
    }
}
