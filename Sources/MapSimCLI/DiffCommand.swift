import ArgumentParser
import Foundation
import MapSim
import MapSimKit
import MapSimTrace

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
            throw ExitStatus.fail(error)
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
