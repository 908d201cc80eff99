import Foundation
import Testing
import MapSimTesting
@testable import MapSimJSON

/// `mapsim report` and `mapsim run --report`: the pages are written (what they show is tested in a
/// browser, MapSimPagesTests), inputs that are not traces are named, exit statuses scripts trust.
@Suite("mapsim report", .serialized)
struct ReportCommandTests {
    /// The data a page holds, each trace with its rows (which a report keeps in an element of their own).
    private func data(of page: String) throws -> JSONValue {
        let html = try String(contentsOfFile: page, encoding: .utf8)
        func element(_ id: String) throws -> JSONValue {
            let start = try #require(html.range(of: "<script type=\"application/json\" id=\"\(id)\">"))
            let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
            return try JSONParser.parse(String(html[start.upperBound..<end.lowerBound]))
        }
        guard case .object(var data) = try element("mapsim-data"), let traces = data["traces"]?.arrayValue else { return try element("mapsim-data") }
        data["traces"] = .array(try traces.enumerated().map { index, trace in
            guard case .object(var object) = trace, object["rows"] == nil else { return trace }
            object["rows"] = try element("mapsim-rows-\(index + 1)")
            return .object(object)
        })
        return .object(data)
    }

    @Test func aTraceAndAnEventsFileBecomeOnePage() async throws {
        let folder = try FixtureDirectory()
        let load = try await CommandRunner.run(["load", "styles/sample/style.json", "-q", "--trace", folder.path + "/run.trace.yaml", "--events", folder.path + "/run.jsonl"])
        #expect(load.status == 0)
        let report = try await CommandRunner.run(["report", folder.path + "/run.trace.yaml", folder.path + "/run.jsonl", "-o", folder.path + "/run.html",
                                                  "--title", "two views of one load"])
        #expect(report.status == 0 && report.standardOutput == "wrote \(folder.path)/run.html: 2 traces, 22 requests\n", "\(report.standardOutput)\(report.standardError)")
        let page = try data(of: folder.path + "/run.html")
        #expect(page["title"] == .string("two views of one load") && page["mode"] == .string("report"))
        #expect(page["traces"]?.arrayValue?.map { $0["rows"]?.arrayValue?.count } == [11, 11])
        // The rows come after the script, so that the summaries are drawn before they are parsed.
        let html = try String(contentsOfFile: folder.path + "/run.html", encoding: .utf8)
        let script = try #require(html.range(of: "<script>(() =>"))
        #expect(html.range(of: "id=\"mapsim-rows-1\"").map { $0.lowerBound > script.upperBound } == true
                && html.range(of: "id=\"mapsim-rows-2\"").map { $0.lowerBound > script.upperBound } == true)
        #expect(page["traces"]?.arrayValue?.first?["header"]?.arrayValue?.contains(.array([.string("engine"), .string("maplibre-native")])) == true)
        // To standard output too.
        let piped = try await CommandRunner.run(["report", folder.path + "/run.jsonl", "-o", "-"])
        #expect(piped.status == 0 && piped.standardOutput.hasPrefix("<!doctype html>") && piped.standardOutput.hasSuffix("</html>\n"))
    }

    @Test func whatIsNotATraceIsNamedAndNothingIsWritten() async throws {
        let folder = try FixtureDirectory()
        let notATrace = try folder.write("style.yaml", "version: 8\n")
        let unreadable = try await CommandRunner.run(["report", notATrace, "-o", folder.path + "/out.html"])
        #expect(unreadable.status == 2 && unreadable.standardError.contains("style.yaml") && unreadable.standardError.contains("not a mapsim trace"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out.html"))
        let cut = try folder.write("cut.jsonl", "{\"type\":\"map-idle\",\"begin\":0,\"end\":0,\"data\":{}}\n{\"type\":\"map-")
        #expect(try await CommandRunner.run(["report", cut, "-o", folder.path + "/out.html"]).status == 2)
        #expect(try await CommandRunner.run(["report", cut, "-o", folder.path + "/out.html", "--allow-truncated"]).status == 0)
        let noFolder = try await CommandRunner.run(["report", cut, "--allow-truncated", "-o", folder.path + "/missing/out.html"])
        #expect(noFolder.status == 74 && noFolder.standardError.contains("does not exist"))
        #expect(try await CommandRunner.run(["report", cut]).status == 64, "-o is required")
    }

    @Test func aTraceLongerThanABlockIsReadInBlocksAndABadLineFarIntoItIsNamedWithNothingWritten() async throws {
        let folder = try FixtureDirectory()
        // About 5 MB: more than one of the 4 MB blocks a JSON-lines trace is read in.
        var lines = (0..<15_000).map { index in
            #"{"type":"resource-request","begin":\#(index),"end":\#(index + 40),"data":{"data-source":"network","request":{"url":"https://maps.test/tiles/14/\#(index)/7.pbf","kind":"tile","priority":"regular","loading-method":["cache","network"]},"response":{"no-content":false,"not-modified":false,"must-revalidate":false,"source":"network","size":500},"cancelled":false}}"#
        }
        let good = try folder.write("long.jsonl", lines.joined(separator: "\n") + "\n")
        lines[14_000] = "{\"type\": \"resource-request\", \"begin\": 1,"
        let bad = try folder.write("bad.jsonl", lines.joined(separator: "\n") + "\n")
        let out = folder.path + "/long.html"
        let refused = try await CommandRunner.run(["report", good, bad, "-o", out])
        #expect(refused.status == 2 && refused.standardError.contains("\(bad):14001: "), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out), "nothing written")
        let report = try await CommandRunner.run(["report", good, "-o", out])
        #expect(report.status == 0 && report.standardOutput == "wrote \(out): 1 trace, 15000 requests\n", "\(report.standardOutput)\(report.standardError)")
        let rows = try data(of: out)["traces"]?.arrayValue?.first?["rows"]?.arrayValue ?? []
        #expect(rows.count == 15_000 && rows.last?.arrayValue?[3].stringValue?.hasSuffix("tiles/14/14999/7.pbf") == true, "\(rows.last ?? .null)")
        // Its rows wait in a temporary file: with none to be made, that is said and nothing is written.
        let noTemporary = try await CommandRunner.run(["report", good, "-o", out + ".2"], environment: ["TMPDIR": "/nonexistent"])
        #expect(noTemporary.status == 74 && noTemporary.standardError.contains("cannot make a temporary file for the report's rows in this folder (TMPDIR)"),
                "\(noTemporary.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out + ".2"))
    }

    @Test func aSuiteReportHasAnIndexAndAPagePerScenario() async throws {
        let folder = try FixtureDirectory()
        let run = try await CommandRunner.run(["run", "traces/sprite-404.scenario.yaml", "traces/style-404.scenario.yaml", "--report", folder.path + "/suite"])
        #expect(run.status == 0, "\(run.standardOutput)")
        #expect(run.standardOutput.hasSuffix("wrote \(folder.path)/suite/index.html and 2 scenario pages\n"))
        let index = try data(of: folder.path + "/suite/index.html")
        #expect(index["suite"]?["scenarios"]?.arrayValue?.map { "\($0["name"]?.stringValue ?? "") \($0["status"]?.stringValue ?? "") \($0["page"]?.stringValue ?? "")" }
            == ["sprite-404 passed sprite-404.html", "style-404 passed style-404.html"])
        let page = try data(of: folder.path + "/suite/sprite-404.html")
        #expect(page["scenario"]?["status"] == .string("passed") && page["diff"] == nil && page["traces"]?.arrayValue?.count == 1)
    }
}
