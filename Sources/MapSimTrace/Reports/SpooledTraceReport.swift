/// A trace's report as `mapsim report` makes it from a file: the trace read a block of events at a
/// time (`TraceReader`), its page data — header, summary, milestones, critical path, tiles — kept in
/// memory and its rows on disk (`RowSpool`) until the page is written, so that the memory a report
/// takes does not grow with the trace's rows. `ReportPage.write(_:title:to:)` writes the page.
public struct SpooledTraceReport {
    /// The name the page shows.
    public let name: String
    /// The number of requests (rows) the page shows.
    public let requestCount: Int
    /// The trace's object in the page's data, without its rows.
    let data: [UInt8]
    /// The rows, one JSON array's elements, in order.
    let rows: RowSpool

    /// Reads the trace at `path` (YAML, JSON lines, `--events` files), shown as `name`, about
    /// `blockSize` bytes at a time; a JSON-lines trace whose last line was cut is read without it
    /// when `allowTruncated`.
    public init(file path: String, name: String, allowTruncated: Bool = false, blockSize: Int = 4 << 20) throws(TraceError) {
        let reader = try TraceReader(file: path, allowTruncated: allowTruncated, blockSize: blockSize)
        var builder = TraceReportBuilder(name: name, header: reader.header)
        rows = try RowSpool()
        while let events = try reader.next() {
            for run in builder.add(events) { try rows.write(run) }
        }
        for run in builder.finish() { try rows.write(run) }
        var data: [UInt8] = []
        builder.appendJSON(to: &data, rows: nil)
        self.name = name
        self.data = data
        requestCount = builder.rowCount
    }
}
