import ArgumentParser
import Foundation
import MapSim

/// `mapsim diff A B`: compare two traces.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two traces and print which events and fields differ.",
        discussion: """
        Traces are YAML (.yaml, .yml) or JSON lines (anything else, including --events files). \
        Exit status: 0 when they agree, 1 when they differ, 2 when a trace cannot be read.

        Example:
          mapsim diff traces/cold-load.trace.yaml run.trace.yaml
        """
    )

    @Argument(help: "The expected trace.")
    var expected: String

    @Argument(help: "The actual trace.")
    var actual: String

    @Flag(help: "Let events of the same time window reorder (for runs on the real network).")
    var relaxed = false

    @Option(help: "Print at most this many differences.")
    var limit: Int = 20

    func run() throws {
        let a: Trace
        let b: Trace
        do {
            a = try Trace.read(file: expected)
            b = try Trace.read(file: actual)
        } catch {
            printError("mapsim: \(error)")
            throw ExitCode(2)
        }
        let diff = TraceDiff(expected: a, actual: b, relaxed: relaxed)
        guard !diff.isEmpty else {
            print("the traces agree (\(a.events.count) events)")
            return
        }
        print("\(diff.differences.count) difference\(diff.differences.count == 1 ? "" : "s") between \(expected) and \(actual):")
        for line in diff.lines(limit: limit) { print("  " + line) }
        throw ExitCode(1)
    }
}

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
            printError("mapsim: \(error)")
            throw ExitCode(2)
        }
        do {
            try PerfettoExporter.export(loaded).write(toFile: output, atomically: true, encoding: .utf8)
        } catch {
            printError("mapsim: cannot write \(output): \(error.localizedDescription)")
            throw ExitCode(74)
        }
        print("wrote \(output) (\(loaded.events.count) events)")
    }
}
