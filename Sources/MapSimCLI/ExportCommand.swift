import ArgumentParser
import Foundation
import MapSimKit

/// `mapsim export --perfetto TRACE -o FILE`: a trace for Perfetto's timeline.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        // Parsed as a root by `mapsim COMMAND` (MapSimCommand.leafCommand): "mapsim" is its super-command.
        _superCommandName: "mapsim",
        abstract: "Export a trace in the Chrome trace format, to open in Perfetto (ui.perfetto.dev).",
        discussion: """
        Requests become slices on one track per kind (style, tile, glyphs, ...), each with its \
        path, URL, status, outcome, size and what answered it; counters show the requests in \
        flight and the bytes received; the milestones (style-loaded, map-loaded, map-idle) are \
        markers across every track and the load's phases (style, tiles, settling) spans; other \
        map events are instants, frames instants on a render track. For a page to open without \
        any web app, `mapsim report` draws the same trace as HTML.

        A JSON-lines trace whose last line was cut (a run that was killed) is an error naming \
        that line unless --allow-truncated, which exports the lines before it.

        \(ExitStatus.section([(ExitStatus.success, "the export is written"), (ExitStatus.unreadableInput, "the trace cannot be read"), (ExitStatus.cannotWrite, "the export cannot be written")]))

        Examples:
          mapsim export --perfetto run.trace.yaml -o run.perfetto.json
          mapsim export --perfetto killed.jsonl -o run.perfetto.json --allow-truncated
        """
    )

    @Option(name: .customLong("perfetto"), help: ArgumentHelp("The trace to export.", valueName: "TRACE"))
    var trace: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the Chrome trace JSON.", valueName: "FILE"))
    var output: String

    @Flag(help: "Read a JSON-lines trace whose last line was cut (a run that died), without that line.")
    var allowTruncated = false

    func run() throws {
        let loaded: Trace
        do {
            loaded = try Trace.read(file: trace, allowTruncated: allowTruncated)
        } catch {
            throw ExitStatus.fail(error)
        }
        let exported = PerfettoExporter.export(loaded)
        do {
            try OutputFile.write(exported.json, to: output, format: .perfetto)
        } catch {
            throw ExitStatus.fail(error)
        }
        if output != "-" { print("wrote \(output): \(exported.eventCount) trace events from \(loaded.events.count) map events") }
    }
}
