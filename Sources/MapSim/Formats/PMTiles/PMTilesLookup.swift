/// Finding a tile in a PMTiles archive, one directory at a time, as the specification's reader
/// does: the root directory first, then at most three levels of leaf directories, then the tile's
/// bytes. Each step checks what the directory says against the header, so that a damaged archive
/// is an error naming the offset, never a read past what the header declares.
public enum PMTilesLookup {
    /// What one directory says about a tile.
    public enum Step: Sendable, Equatable {
        /// The tile's bytes are at this range of the archive.
        case data(ClosedRange<UInt64>)
        /// The tile is in the leaf directory at this range of the archive.
        case leaf(ClosedRange<UInt64>)
        /// The archive has no such tile.
        case missing
    }

    /// The deepest leaf directory read below the root.
    public static let maximumDepth = 3
    /// The largest directory read: 32 MiB (a leaf of the official writer is a few hundred kilobytes).
    public static let maximumDirectoryLength: UInt64 = 32 * 1024 * 1024
    /// The largest tile or metadata read: 50 MiB, the largest body mapsim reads anywhere.
    public static let maximumDataLength: UInt64 = 50 * 1024 * 1024

    /// The range of the header: bytes 0–126.
    public static let headerRange: ClosedRange<UInt64> = 0...UInt64(PMTilesHeader.length - 1)

    /// The range of the root directory.
    public static func rootRange(of header: PMTilesHeader) throws(PMTilesError) -> ClosedRange<UInt64> {
        try range(offset: header.rootDirectoryOffset, length: header.rootDirectoryLength, limit: maximumDirectoryLength, what: "the root directory")
    }

    /// The range of the JSON metadata; nil when the archive has none.
    public static func metadataRange(of header: PMTilesHeader) throws(PMTilesError) -> ClosedRange<UInt64>? {
        guard header.metadataLength > 0 else { return nil }
        return try range(offset: header.metadataOffset, length: header.metadataLength, limit: maximumDataLength, what: "the metadata")
    }

    /// What `directory`, read at `depth` (0 for the root), says about tile `tileID`.
    public static func step(for tileID: UInt64, in directory: PMTilesDirectory, depth: Int, header: PMTilesHeader) throws(PMTilesError) -> Step {
        guard let entry = directory.entry(for: tileID) else { return .missing }
        if entry.runLength > 0 {
            if header.tileDataLength > 0, entry.offset > header.tileDataLength || UInt64(entry.length) > header.tileDataLength - entry.offset {
                throw PMTilesError("a directory entry points past the end of the tile data: bytes \(entry.offset)–\(entry.offset &+ UInt64(entry.length)) of a section of \(header.tileDataLength)")
            }
            return .data(try range(offset: header.tileDataOffset &+ entry.offset, length: UInt64(entry.length), limit: maximumDataLength,
                                   what: "a tile", overflows: header.tileDataOffset > UInt64.max - entry.offset))
        }
        guard depth < maximumDepth else {
            throw PMTilesError("the directories nest deeper than \(maximumDepth) leaf levels (a leaf at offset \(entry.offset)): the archive is malformed")
        }
        if header.leafDirectoriesLength > 0, entry.offset > header.leafDirectoriesLength || UInt64(entry.length) > header.leafDirectoriesLength - entry.offset {
            throw PMTilesError("a directory entry points past the end of the leaf directories: bytes \(entry.offset)–\(entry.offset &+ UInt64(entry.length)) of a section of \(header.leafDirectoriesLength)")
        }
        return .leaf(try range(offset: header.leafDirectoriesOffset &+ entry.offset, length: UInt64(entry.length), limit: maximumDirectoryLength,
                               what: "a leaf directory", overflows: header.leafDirectoriesOffset > UInt64.max - entry.offset))
    }

    /// Bytes `offset`… of `length`, checked: not empty, not past the largest offset, not larger than `limit`.
    private static func range(offset: UInt64, length: UInt64, limit: UInt64, what: String, overflows: Bool = false) throws(PMTilesError) -> ClosedRange<UInt64> {
        guard length > 0 else { throw PMTilesError("\(what) at offset \(offset) has length 0: the archive is malformed") }
        guard !overflows, offset <= UInt64(Int64.max) - length else {
            throw PMTilesError("\(what) at offset \(offset) of \(length) bytes points past the end of any file: the archive is malformed")
        }
        guard length <= limit else { throw PMTilesError("\(what) at offset \(offset) claims \(length) bytes, more than the limit of \(limit)") }
        return offset...(offset + length - 1)
    }

    /// A part of the archive inflated as the header says (`none` or `gzip`; the header was checked).
    public static func decompress(_ bytes: [UInt8], _ compression: PMTilesHeader.Compression, what: String) throws(PMTilesError) -> [UInt8] {
        guard compression == .gzip else { return bytes }
        do {
            return try ZlibCodec.inflate(bytes, limit: Int(maximumDirectoryLength) * 2)
        } catch {
            throw PMTilesError("\(what) does not inflate as gzip: \(error)")
        }
    }

    /// A tile's bytes as the map gets them: inflated when the archive says gzip and they start so.
    public static func tileContent(_ bytes: [UInt8], header: PMTilesHeader) throws(PMTilesError) -> [UInt8] {
        guard header.tileCompression == .gzip, ZlibCodec.isCompressed(bytes) else { return bytes }
        do {
            return try ZlibCodec.inflate(bytes, limit: Int(maximumDataLength) * 4)
        } catch {
            throw PMTilesError("a tile does not inflate as gzip: \(error)")
        }
    }

    /// Refuses a header whose compression MapLibre Native does not read (it reads `none` and `gzip`).
    public static func checkCompression(of header: PMTilesHeader) throws(PMTilesError) {
        for (part, compression) in [("tile", header.tileCompression), ("internal", header.internalCompression)]
        where compression != .none && compression != .gzip {
            throw PMTilesError("the archive's \(part) compression is \(compression.name): mapsim, like MapLibre Native, reads none and gzip")
        }
    }
}
