import MapSimJSON
import MapSimPages

/// `mapsim report`'s page: one or more traces, each with its header, summary, waterfall, critical
/// path and tiles, in one self-contained HTML file.
public enum ReportPage {
    /// The HTML of a report of `reports`, titled `title`.
    public static func html(_ reports: [TraceReport], title: String? = nil) -> String {
        String(decoding: bytes(reports, title: title), as: UTF8.self)
    }

    /// The HTML of a report of `reports` as UTF-8, as it is written to a file. Each trace's rows
    /// are in an element of their own after the page's script (`mapsim-rows-N`), so that a large
    /// trace's headers and summary are drawn before its rows are read.
    public static func bytes(_ reports: [TraceReport], title: String? = nil) -> [UInt8] {
        PageDocument.joined(pieces(reports, title: title))
    }

    /// The page `bytes(_:title:)` makes, as pieces to write one after another: a page of a large
    /// trace is never held whole in memory besides its rows.
    public static func pieces(_ reports: [TraceReport], title: String? = nil) -> [[UInt8]] {
        let heading = title ?? defaultTitle(names: reports.map(\.name))
        var data: [UInt8] = Array(#","traces":["#.utf8)
        var rows: [(id: String, runs: [[UInt8]])] = []
        for (index, report) in reports.enumerated() {
            if index > 0 { data.append(UInt8(ascii: ",")) }
            rows.append(("mapsim-rows-\(index + 1)", report.appendJSON(to: &data, rowsApart: true)))
        }
        data.append(UInt8(ascii: "]"))
        return PageDocument.pieces(mode: "report", title: heading, after: rows) { $0 += data }
    }

    /// Writes the page of `reports`, read from their files, titled `title`, to `file`: the same page
    /// `bytes(_:title:)` makes, each trace's rows read back from disk a piece at a time.
    public static func write(_ reports: [SpooledTraceReport], title: String? = nil, to file: OutputFile) throws(TraceError) {
        let rows = reports.enumerated().map { index, report in
            (id: "mapsim-rows-\(index + 1)", runs: { (emit: ([UInt8]) throws(TraceError) -> Void) throws(TraceError) in try report.rows.read(emit) })
        }
        try PageDocument.write(mode: "report", title: title ?? defaultTitle(names: reports.map(\.name)), after: rows, appendMembers: { data in
            data += Array(#","traces":["#.utf8)
            for (index, report) in reports.enumerated() {
                if index > 0 { data.append(UInt8(ascii: ",")) }
                data += report.data
            }
            data.append(UInt8(ascii: "]"))
        }, to: { (piece: [UInt8]) throws(TraceError) in try file.write(piece) })
    }

    /// The title of a page of the traces named `names` when none is given.
    private static func defaultTitle(names: [String]) -> String {
        names.count == 1 ? "mapsim report: \(names[0])" : "mapsim report: \(names.count) traces"
    }
}
