import MapSimJSON
import MapSimPages

/// `mapsim report`'s page: one or more traces, each with its header, summary, waterfall, critical
/// path and tiles, in one self-contained HTML file.
public enum ReportPage {
    /// The HTML of a report of `reports`, titled `title`.
    public static func html(_ reports: [TraceReport], title: String? = nil) -> String {
        document(reports, title: title).html
    }

    /// The HTML of a report of `reports` as UTF-8, as it is written to a file.
    public static func bytes(_ reports: [TraceReport], title: String? = nil) -> [UInt8] {
        document(reports, title: title).bytes
    }

    private static func document(_ reports: [TraceReport], title: String?) -> PageDocument {
        let heading = title ?? (reports.count == 1 ? "mapsim report: \(reports[0].name)" : "mapsim report: \(reports.count) traces")
        return PageDocument(mode: "report", title: heading, data: JSONObject([("traces", .array(reports.map(\.json)))]))
    }
}
