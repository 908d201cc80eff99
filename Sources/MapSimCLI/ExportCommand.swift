import ArgumentParser
import Foundation
import MapSimKit

/// `mapsim export --perfetto TRACE -o FILE`: a trace for Perfetto's timeline.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a trace in the Chrome trace format, to open in Perfetto (ui.perfetto.dev).",
        discussion: """
        Requests become async begin/end pairs, map events instants, frames instants on a render \
        track, and the load phases (style, tiles, settling) spans.

        Example:
          mapsim export --perfetto run.trace.yaml -o run.perfetto.json
        """
    )

    @Option(name: .customLong("perfetto"), help: ArgumentHelp("The trace to export.", valueName: "TRACE"))
    var trace: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the Chrome trace JSON.", valueName: "FILE"))
    var output: String

    func run() throws {
        let loaded: Trace
        do {
            loaded = try Trace.read(file: trace)
        } catch {
            throw ExitStatus.fail(error)
        }
        do {
            try OutputFile.write(PerfettoExporter.export(loaded), to: output)
        } catch {
            throw ExitStatus.fail(error)
        }
        if output != "-" { print("wrote \(output) (\(loaded.events.count) events)") }
    }
}
