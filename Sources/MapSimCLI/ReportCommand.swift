import ArgumentParser
import Foundation
import MapSimKit

/// `mapsim report TRACE... -o report.html`: a page to see a load at a glance.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        // Parsed as a root by `mapsim COMMAND` (MapSimCommand.leafCommand): "mapsim" is its super-command.
        _superCommandName: "mapsim",
        abstract: "Write a self-contained HTML page of traces: waterfall, milestones, critical path, tiles.",
        discussion: """
        Each TRACE — a YAML trace, a JSON-lines trace, an --events file of `mapsim load`, or what \
        `mapsim serve` recorded — becomes a section of one HTML file with everything inline (styles, \
        script, data; nothing is fetched), so it opens from disk and as a CI artifact:

          the header: style, scenario, engine, network, seed, camera;
          the summary: milestone times, requests and bytes by kind, what answered them, errors;
          a waterfall as a browser's network panel draws one: a row per request with its kind, \
        path below the style, status, what answered it (network, cache, file, archive), size and a \
        bar on the load's timeline; filters by kind and outcome, a search box, errors in red; a row \
        opens its whole event; the milestones (style-loaded, map-loaded, map-idle) as lines across \
        it and the critical path to map-idle highlighted;
          the tiles of each source as a grid per zoom, coloured by how and when each arrived, \
        parents and world copies marked.

        Up to 2,000 requests are all in the page at once; more are drawn as they scroll into view, \
        so a trace of 100,000 requests still scrolls. Filters live in the page's address \
        (report.html#kind=tile&outcome=error), so a filtered view is a link. A JSON-lines trace \
        is read a few megabytes at a time and its rows are kept in a temporary file (in TMPDIR) \
        until the page is written, so the memory a report takes hardly grows with the trace.

        \(ExitStatus.section([(ExitStatus.success, "the page is written"), (ExitStatus.unreadableInput, "a trace cannot be read"), (ExitStatus.cannotWrite, "the page cannot be written")]))

        Examples:
          mapsim load styles/sample/style.json --trace run.trace.yaml --quiet
          mapsim report run.trace.yaml -o run.html
          mapsim report cold.trace.yaml warm.trace.yaml -o compare.html
          mapsim report requests.jsonl -o served.html \\
              --title "GL JS through mapsim serve"
        """
    )

    @Argument(help: ArgumentHelp("The traces: YAML, JSON lines, --events files.", valueName: "TRACE"))
    var traces: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the page (- for standard output).", valueName: "FILE"))
    var output: String

    @Option(help: ArgumentHelp("The page's title (default: the trace's name).", valueName: "TEXT"))
    var title: String?

    @Flag(help: "Read a JSON-lines trace whose last line was cut (a run that died), without that line.")
    var allowTruncated = false

    func run() throws {
        // Each trace is read a block at a time, its rows kept on disk until the page is written.
        var reports: [SpooledTraceReport] = []
        for path in traces {
            do {
                reports.append(try SpooledTraceReport(file: path, name: URL(fileURLWithPath: path).lastPathComponent, allowTruncated: allowTruncated))
            } catch {
                throw ExitStatus.fail(error)
            }
        }
        do {
            let file = try OutputFile(path: output, format: .page)
            try ReportPage.write(reports, title: title, to: file)
            try file.close()
        } catch {
            throw ExitStatus.fail(error)
        }
        if output != "-" {
            let requests = reports.reduce(0) { $0 + $1.requestCount }
            print("wrote \(output): \(reports.count == 1 ? "1 trace" : "\(reports.count) traces"), \(requests) request\(requests == 1 ? "" : "s")")
        }
    }
}
