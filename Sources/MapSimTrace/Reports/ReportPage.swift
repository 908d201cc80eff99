import MapSimJSON
import MapSimPages

/// `mapsim report`'s page: one or more traces, each with its header, summary, waterfall, critical
/// path and tiles, in one self-contained HTML file.
public enum ReportPage {
    /// The HTML of a report of `reports`, titled `title`.
    public static func html(_ reports: [TraceReport], title: String? = nil) -> String {
        String(decoding: bytes(reports, title: title), as: UTF8.self)
    }

    /// The HTML of a report of `reports` as UTF-8, as it is written to a file: each trace's rows
    /// go straight into the page.
    public static func bytes(_ reports: [TraceReport], title: String? = nil) -> [UInt8] {
        let heading = title ?? (reports.count == 1 ? "mapsim report: \(reports[0].name)" : "mapsim report: \(reports.count) traces")
        return PageDocument.page(mode: "report", title: heading) { bytes in
            bytes += Array(#","traces":["#.utf8)
            for (index, report) in reports.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                report.appendJSON(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
    }
}
