import MapSimJSON

/// Reads tiles from a local PMTiles archive directly, without a map: the header and root directory
/// once, leaf directories kept in a bounded cache, each tile one positioned read. For tools that
/// read many tiles — deep validation, export checks, benchmarks. Not shared between threads.
public final class PMTilesFileReader {
    /// The archive's header.
    public let header: PMTilesHeader
    private let file: RandomAccessFile
    private let root: PMTilesDirectory
    private var leaves = PMTilesDirectoryCache()

    /// Opens the archive at `path`: reads and checks its header and root directory.
    public init(path: String) throws(PMTilesError) {
        do {
            file = try RandomAccessFile(path: path)
        } catch {
            throw PMTilesError("\(error)")
        }
        let file = self.file
        let header = try PMTilesHeader(Self.read(file, PMTilesLookup.headerRange, what: "the header"))
        try PMTilesLookup.checkCompression(of: header)
        let rootRange = try PMTilesLookup.rootRange(of: header)
        let rootBytes = try PMTilesLookup.decompress(try Self.read(file, rootRange, what: "the root directory"), header.internalCompression, what: "the root directory")
        self.header = header
        root = try PMTilesDirectory(decoding: rootBytes)
    }

    /// The archive's JSON metadata, inflated; empty when it has none.
    public func metadata() throws(PMTilesError) -> [UInt8] {
        guard let range = try PMTilesLookup.metadataRange(of: header) else { return [] }
        return try PMTilesLookup.decompress(try Self.read(file, range, what: "the metadata"), header.internalCompression, what: "the metadata")
    }

    /// The stored bytes of tile `z/x/y` (compressed as the header says); nil when the archive has none.
    public func tileData(z: Int, x: Int, y: Int) throws(PMTilesError) -> [UInt8]? {
        guard z >= Int(header.minZoom), z <= Int(header.maxZoom), z <= PMTilesTileID.maximumZoom,
              x >= 0, y >= 0, x < 1 << z, y < 1 << z else { return nil }
        let tileID = PMTilesTileID.id(z: z, x: x, y: y)
        var directory = root
        for depth in 0...PMTilesLookup.maximumDepth {
            switch try PMTilesLookup.step(for: tileID, in: directory, depth: depth, header: header) {
            case .missing:
                return nil
            case .data(let range):
                return try Self.read(file, range, what: "tile \(z)/\(x)/\(y)")
            case .leaf(let range):
                if let kept = leaves.directory(at: range.lowerBound) {
                    directory = kept
                } else {
                    let bytes = try PMTilesLookup.decompress(try Self.read(file, range, what: "a leaf directory"), header.internalCompression, what: "a leaf directory")
                    directory = try PMTilesDirectory(decoding: bytes)
                    leaves.keep(directory, at: range.lowerBound)
                }
            }
        }
        return nil
    }

    /// Tile `z/x/y` as a map gets it (inflated when gzip); nil when the archive has none.
    public func tile(z: Int, x: Int, y: Int) throws(PMTilesError) -> [UInt8]? {
        try tileData(z: z, x: x, y: y).map { bytes throws(PMTilesError) in try PMTilesLookup.tileContent(bytes, header: header) }
    }

    /// Bytes `range` of the archive, all of them: fewer is a truncated archive, none a range past its end.
    private static func read(_ file: RandomAccessFile, _ range: ClosedRange<UInt64>, what: String) throws(PMTilesError) -> [UInt8] {
        let path = file.path
        let bytes: [UInt8]
        do {
            bytes = try file.read(range, limit: Int(PMTilesLookup.maximumDataLength))
        } catch where error.code == .outOfRange {
            throw PMTilesError("\(path): \(what) at bytes \(range.lowerBound)–\(range.upperBound) is past the end of the file")
        } catch {
            throw PMTilesError("\(error)")
        }
        let wanted = range.upperBound - range.lowerBound + 1
        guard UInt64(bytes.count) == wanted else {
            throw PMTilesError("\(path) is truncated: \(what) at bytes \(range.lowerBound)–\(range.upperBound), but the file ends at byte \(range.lowerBound + UInt64(bytes.count))")
        }
        return bytes
    }
}
