/// One entry of a PMTiles directory: a run of `runLength` tiles from `tileID` whose data is at
/// `offset` (from the tile data) for `length` bytes — or, with a run length of 0, a leaf directory
/// at `offset` (from the leaf directories) for `length` bytes.
public struct PMTilesEntry: Sendable, Equatable {
    /// The first tile of the run.
    public var tileID: UInt64
    /// Where the data starts.
    public var offset: UInt64
    /// How many bytes.
    public var length: UInt32
    /// How many consecutive tile ids share the data; 0 for a leaf directory.
    public var runLength: UInt32

    /// An entry.
    public init(tileID: UInt64, offset: UInt64, length: UInt32, runLength: UInt32) {
        self.tileID = tileID
        self.offset = offset
        self.length = length
        self.runLength = runLength
    }
}
