/// One byte range of one tile archive: what the PMTiles reader asks the pipeline for. Jobs that need
/// the same range share one read.
struct ArchiveRead: Sendable, Hashable {
    /// The archive's URL (after `pmtiles://`).
    var url: String
    /// The bytes, first and last included.
    var range: ClosedRange<UInt64>

    /// A read of `range` of the archive at `url`.
    init(url: String, range: ClosedRange<UInt64>) {
        self.url = url
        self.range = range
    }
}
