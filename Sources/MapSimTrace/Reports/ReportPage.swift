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
        let heading = title ?? (reports.count == 1 ? "mapsim report: \(reports[0].name)" : "mapsim report: \(reports.count) traces")
        var data: [UInt8] = Array(#","traces":["#.utf8)
        var rows: [(id: String, runs: [[UInt8]])] = []
        for (index, report) in reports.enumerated() {
            if index > 0 { data.append(UInt8(ascii: ",")) }
            rows.append(("mapsim-rows-\(index + 1)", report.appendJSON(to: &data, rowsApart: true)))
        }
        data.append(UInt8(ascii: "]"))
        return PageDocument.pieces(mode: "report", title: heading, after: rows) { $0 += data }
    }
}
