import ArgumentParser
import Foundation
import MapSimKit

/// `mapsim diff A B`: compare two traces.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two traces and print which events and fields differ.",
        discussion: """
        Traces are YAML (.yaml, .yml) or JSON lines (anything else, including --events files). \
        The events are compared; the headers (scenario, seed) only with --headers. A JSON-lines \
        trace whose last line was cut is an error unless --allow-truncated.

        --relaxed is for two runs on the real network: it ignores the times of events, the render \
        frames (their number follows the timings), which tile completed a source's view last \
        (the loaded flag), and the order of the events between two consecutive milestones \
        (style-data-loaded, style-loaded, source metadata, source-added/removed, map-loaded, \
        map-idle), which it compares as multisets. When one of the traces holds nothing but \
        requests — what `mapsim serve` records of a real client — --relaxed compares the requests \
        alone, as multisets: each one's kind, its path below the style's folder (percent-decoded), \
        its outcome (a missing tile is no content, as the map takes a 404) and its size (but for \
        the style and TileJSONs, which the server rewrites).

        Exit status: 0 when they agree, 1 when they differ, 2 when a trace cannot be read.

        Examples:
          mapsim diff traces/cold-load.trace.yaml run.trace.yaml
          mapsim diff first.jsonl second.jsonl --relaxed
          mapsim diff crashed.jsonl good.jsonl --allow-truncated
          mapsim diff served.jsonl simulated.jsonl --relaxed
        """
    )

    @Argument(help: "The expected trace.")
    var expected: String

    @Argument(help: "The actual trace.")
    var actual: String

    @Flag(help: "Ignore timings, frames and the order of events between milestones (for runs on the real network).")
    var relaxed = false

    @Flag(help: "Compare the headers too (scenario and seed).")
    var headers = false

    @Flag(help: "Read a JSON-lines trace whose last line was cut, without that line.")
    var allowTruncated = false

    @Option(help: "Print at most this many differences.")
    var limit: Int = 20

    func run() throws {
        let a: Trace
        let b: Trace
        do {
            a = try Trace.read(file: expected, allowTruncated: allowTruncated)
            b = try Trace.read(file: actual, allowTruncated: allowTruncated)
        } catch {
            throw ExitStatus.fail(error)
        }
        let diff = TraceDiff(expected: a, actual: b, relaxed: relaxed, compareHeaders: headers)
        if diff.comparedRequestsOnly {
            print("comparing the requests only: a trace holds nothing but requests (a mapsim serve recording)")
        }
        guard !diff.isEmpty else {
            print(diff.comparedRequestsOnly ? "the requests agree" : "the traces agree (\(a.events.count) events)")
            return
        }
        print("\(diff.differences.count) difference\(diff.differences.count == 1 ? "" : "s") between \(expected) and \(actual):")
        for line in diff.lines(limit: limit) { print("  " + line) }
        throw ExitStatus.failure
    }
}
