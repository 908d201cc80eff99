import Foundation
import MapSim
import MapSimJSON

/// Writes a PMTiles archive (specification v3) as the specification recommends: tiles added in tile
/// id order, so the archive is clustered; identical tiles stored once and consecutive ones as runs;
/// a root directory that fits with the header in the first 16 KiB, leaf directories when it would
/// not; directories and metadata gzip-compressed. The same tiles give the same bytes.
///
/// Tile data goes to a temporary file as it is added, so memory holds the directory entries only.
public final class PMTilesWriter {
    /// The header so far: set the tile type, tile compression, zooms, bounds and centre before `finish`.
    public var header: PMTilesHeader
    private let output: ArchiveOutput
    private let dataPath: String
    private let data: FileHandle
    private var dataLength: UInt64 = 0
    private var entries: [PMTilesEntry] = []
    /// Where each stored content starts, by fingerprint and length (a match is confirmed byte for byte).
    private var contents: [ContentKey: [UInt64]] = [:]
    private var lastTileID: UInt64?

    private struct ContentKey: Hashable {
        var fingerprint: UInt64
        var length: Int
    }

    /// The largest header and root directory together: 16 KiB.
    static let rootLimit = 16_384

    /// A writer of the archive at `path` (replaced when complete).
    public init(path: String) throws(PMTilesError) {
        do {
            output = try ArchiveOutput(path: path, format: .pmtiles, inPlaceAllowed: true)
            dataPath = output.writingPath + ".tiles"
            guard FileManager.default.createFile(atPath: dataPath, contents: nil), let handle = FileHandle(forUpdatingAtPath: dataPath) else {
                throw ArchiveOutputError("cannot create a temporary file beside \(path)")
            }
            data = handle
        } catch {
            throw PMTilesError(.cannotWrite, "\(error)", underlying: error)
        }
        header = PMTilesHeader()
        header.isClustered = true
        header.internalCompression = .gzip
    }

    deinit {
        try? data.close()
        try? FileManager.default.removeItem(atPath: dataPath)
    }

    /// Adds tile `z/x/y` with its stored bytes (compressed as `header.tileCompression` says).
    /// Tiles must come in tile id order (`PMTilesTileID.id`), each once.
    public func add(z: Int, x: Int, y: Int, bytes: [UInt8]) throws(PMTilesError) {
        let tileID = PMTilesTileID.id(z: z, x: x, y: y)
        if let lastTileID, tileID <= lastTileID {
            throw PMTilesError("tile \(z)/\(x)/\(y) was added out of tile id order")
        }
        lastTileID = tileID
        var fingerprint = FNV1a()
        fingerprint.add(bytes)
        let key = ContentKey(fingerprint: fingerprint.value, length: bytes.count)
        var offset: UInt64?
        for candidate in contents[key] ?? [] where try stored(at: candidate, length: bytes.count) == bytes {
            offset = candidate
            break
        }
        if let offset, var last = entries.last, last.offset == offset, last.tileID + UInt64(last.runLength) == tileID {
            last.runLength += 1
            entries[entries.count - 1] = last
        } else {
            let at = offset ?? dataLength
            if offset == nil {
                do {
                    try data.seekToEnd()
                    try data.write(contentsOf: bytes)
                } catch {
                    throw PMTilesError(.cannotWrite, "cannot write tile data: \(error)", underlying: error)
                }
                contents[key, default: []].append(at)
                dataLength += UInt64(bytes.count)
            }
            entries.append(PMTilesEntry(tileID: tileID, offset: at, length: UInt32(bytes.count), runLength: 1))
        }
        header.addressedTiles += 1
    }

    private func stored(at offset: UInt64, length: Int) throws(PMTilesError) -> [UInt8] {
        do {
            try data.seek(toOffset: offset)
            return [UInt8](try data.read(upToCount: length) ?? Data())
        } catch {
            throw PMTilesError(.cannotWrite, "cannot read back tile data: \(error)", underlying: error)
        }
    }

    /// Writes the header, directories, `metadata` (a JSON object) and tile data, and moves the
    /// archive into place.
    public func finish(metadata: JSONObject) throws(PMTilesError) {
        do {
            try write(metadata: metadata)
            try output.commit()
        } catch let error as PMTilesError {
            output.discard()
            throw error
        } catch {
            output.discard()
            throw PMTilesError(.cannotWrite, "\(error)", underlying: error)
        }
    }

    private func write(metadata: JSONObject) throws {
        let (root, leaves) = try Self.directories(entries)
        var metadataJSON: [UInt8] = []
        JSONWriter.write(.object(metadata), into: &metadataJSON)
        let metadataBytes = try Self.gzip(metadataJSON)
        header.rootDirectoryOffset = UInt64(PMTilesHeader.length)
        header.rootDirectoryLength = UInt64(root.count)
        header.metadataOffset = header.rootDirectoryOffset + header.rootDirectoryLength
        header.metadataLength = UInt64(metadataBytes.count)
        header.leafDirectoriesOffset = header.metadataOffset + header.metadataLength
        header.leafDirectoriesLength = UInt64(leaves.count)
        header.tileDataOffset = header.leafDirectoriesOffset + header.leafDirectoriesLength
        header.tileDataLength = dataLength
        header.tileEntries = UInt64(entries.count)
        header.tileContents = UInt64(contents.values.reduce(0) { $0 + $1.count })
        let path = output.writingPath
        guard FileManager.default.createFile(atPath: path, contents: nil) || output.temporary == nil,
              let file = FileHandle(forWritingAtPath: path) else {
            throw PMTilesError(.cannotWrite, "cannot create \(path)")
        }
        defer { try? file.close() }
        try file.truncate(atOffset: 0)
        try file.write(contentsOf: header.bytes + root + metadataBytes + leaves)
        try data.seek(toOffset: 0)
        while let chunk = try data.read(upToCount: 1 << 20), !chunk.isEmpty {
            try file.write(contentsOf: chunk)
        }
        try file.synchronize()
    }

    /// The root directory and the leaf directories (gzip), as the specification's writers make them:
    /// everything in the root when it fits in 16 KiB with the header, else leaves of 4,096 entries
    /// and more (by a fifth at a time) until the root of leaf pointers fits.
    static func directories(_ entries: [PMTilesEntry]) throws -> (root: [UInt8], leaves: [UInt8]) {
        let whole = try gzip(PMTilesDirectory(entries: entries).encoded)
        if whole.count + PMTilesHeader.length <= rootLimit { return (whole, []) }
        var leafSize = 4096
        while true {
            var leaves: [UInt8] = []
            var pointers: [PMTilesEntry] = []
            var start = 0
            while start < entries.count {
                let chunk = Array(entries[start..<min(start + leafSize, entries.count)])
                let leaf = try gzip(PMTilesDirectory(entries: chunk).encoded)
                pointers.append(PMTilesEntry(tileID: chunk[0].tileID, offset: UInt64(leaves.count), length: UInt32(leaf.count), runLength: 0))
                leaves += leaf
                start += leafSize
            }
            let root = try gzip(PMTilesDirectory(entries: pointers).encoded)
            if root.count + PMTilesHeader.length <= rootLimit { return (root, leaves) }
            leafSize += leafSize / 5
        }
    }

    private static func gzip(_ bytes: [UInt8]) throws(PMTilesError) -> [UInt8] {
        guard let compressed = ZlibCodec.deflate(bytes, format: .gzip) else { throw PMTilesError("gzip failed") }
        return compressed
    }
}
