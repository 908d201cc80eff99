/// The 127-byte header of a PMTiles archive (specification v3): where the root directory, the
/// metadata, the leaf directories and the tile data are, how they are compressed, what the tiles
/// are, and the zooms, bounds and centre of the tileset. All numbers little-endian.
public struct PMTilesHeader: Sendable, Equatable {
    /// How a part of the archive is compressed.
    public enum Compression: UInt8, Sendable, CaseIterable {
        case unknown = 0, none = 1, gzip = 2, brotli = 3, zstd = 4

        /// The name the specification uses.
        public var name: String {
            switch self {
            case .unknown: "unknown"
            case .none: "none"
            case .gzip: "gzip"
            case .brotli: "brotli"
            case .zstd: "zstd"
            }
        }
    }

    /// What the tiles are.
    public enum TileType: UInt8, Sendable, CaseIterable {
        case unknown = 0, mvt = 1, png = 2, jpeg = 3, webp = 4, avif = 5, mlt = 6

        /// The MBTiles `format` and file extension of the type.
        public var format: String {
            switch self {
            case .unknown: "bin"
            case .mvt: "pbf"
            case .png: "png"
            case .jpeg: "jpg"
            case .webp: "webp"
            case .avif: "avif"
            case .mlt: "mlt"
            }
        }
    }

    /// The length of the header, and the range read first.
    public static let length = 127

    /// Where the root directory starts, and its length in bytes.
    public var rootDirectoryOffset: UInt64 = 0
    /// The root directory's length in bytes (compressed as `internalCompression` says).
    public var rootDirectoryLength: UInt64 = 0
    /// Where the JSON metadata starts.
    public var metadataOffset: UInt64 = 0
    /// The metadata's length in bytes; 0 for none.
    public var metadataLength: UInt64 = 0
    /// Where the leaf directories start; leaf entries' offsets count from here.
    public var leafDirectoriesOffset: UInt64 = 0
    /// The leaf directories' length in bytes.
    public var leafDirectoriesLength: UInt64 = 0
    /// Where the tile data starts; tile entries' offsets count from here.
    public var tileDataOffset: UInt64 = 0
    /// The tile data's length in bytes.
    public var tileDataLength: UInt64 = 0
    /// Tiles addressed (run lengths counted).
    public var addressedTiles: UInt64 = 0
    /// Tile entries in the directories.
    public var tileEntries: UInt64 = 0
    /// Distinct tile contents.
    public var tileContents: UInt64 = 0
    /// Whether tile contents are in the order of their tile ids.
    public var isClustered = false
    /// How directories and metadata are compressed.
    public var internalCompression: Compression = .gzip
    /// How tiles are compressed.
    public var tileCompression: Compression = .gzip
    /// What the tiles are.
    public var tileType: TileType = .mvt
    /// The lowest zoom with tiles.
    public var minZoom: UInt8 = 0
    /// The highest zoom with tiles.
    public var maxZoom: UInt8 = 0
    /// The western edge, in 10⁻⁷ degrees.
    public var minLonE7: Int32 = -1_800_000_000
    /// The southern edge, in 10⁻⁷ degrees.
    public var minLatE7: Int32 = -850_511_287
    /// The eastern edge, in 10⁻⁷ degrees.
    public var maxLonE7: Int32 = 1_800_000_000
    /// The northern edge, in 10⁻⁷ degrees.
    public var maxLatE7: Int32 = 850_511_287
    /// The zoom of the centre view.
    public var centerZoom: UInt8 = 0
    /// The centre's longitude, in 10⁻⁷ degrees.
    public var centerLonE7: Int32 = 0
    /// The centre's latitude, in 10⁻⁷ degrees.
    public var centerLatE7: Int32 = 0

    /// A header with MapLibre-friendly defaults (gzip, vector tiles, the whole world).
    public init() {}

    /// Reads a header; the error says what is wrong (not PMTiles, another version, too short).
    public init(_ bytes: some Collection<UInt8>) throws(PMTilesError) {
        let data = Array(bytes.prefix(Self.length))
        let magic = Array("PMTiles".utf8)
        if data.count < 8, data.elementsEqual(magic.prefix(data.count)) {
            throw PMTilesError("the archive is truncated: its header is 127 bytes, only \(data.count) were read")
        }
        guard data.count >= 8, data[0..<7].elementsEqual(magic) else {
            throw PMTilesError("the archive does not start with the PMTiles magic number: it is not a PMTiles archive")
        }
        guard data[7] == 3 else { throw PMTilesError("the archive is PMTiles version \(data[7]); mapsim reads version 3") }
        guard data.count == Self.length else {
            throw PMTilesError("the archive is truncated: its header is 127 bytes, only \(data.count) were read")
        }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(data[at + $1]) << (8 * UInt64($1)) } }
        func i32(_ at: Int) -> Int32 { Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(data[at + $1]) << (8 * UInt32($1)) }) }
        rootDirectoryOffset = u64(8)
        rootDirectoryLength = u64(16)
        metadataOffset = u64(24)
        metadataLength = u64(32)
        leafDirectoriesOffset = u64(40)
        leafDirectoriesLength = u64(48)
        tileDataOffset = u64(56)
        tileDataLength = u64(64)
        addressedTiles = u64(72)
        tileEntries = u64(80)
        tileContents = u64(88)
        isClustered = data[96] == 1
        internalCompression = Compression(rawValue: data[97]) ?? .unknown
        tileCompression = Compression(rawValue: data[98]) ?? .unknown
        tileType = TileType(rawValue: data[99]) ?? .unknown
        minZoom = data[100]
        maxZoom = data[101]
        minLonE7 = i32(102)
        minLatE7 = i32(106)
        maxLonE7 = i32(110)
        maxLatE7 = i32(114)
        centerZoom = data[118]
        centerLonE7 = i32(119)
        centerLatE7 = i32(123)
    }

    /// The 127 bytes of the header.
    public var bytes: [UInt8] {
        var data = Array("PMTiles".utf8) + [3]
        for value in [rootDirectoryOffset, rootDirectoryLength, metadataOffset, metadataLength, leafDirectoriesOffset, leafDirectoriesLength,
                      tileDataOffset, tileDataLength, addressedTiles, tileEntries, tileContents] {
            data += (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
        }
        data += [isClustered ? 1 : 0, internalCompression.rawValue, tileCompression.rawValue, tileType.rawValue, minZoom, maxZoom]
        func add(_ value: Int32) { data += (0..<4).map { UInt8(truncatingIfNeeded: UInt32(bitPattern: value) >> (8 * UInt32($0))) } }
        [minLonE7, minLatE7, maxLonE7, maxLatE7].forEach(add)
        data.append(centerZoom)
        add(centerLonE7)
        add(centerLatE7)
        return data
    }
}
