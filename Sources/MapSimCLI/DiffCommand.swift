import ArgumentParser
import Foundation
import MapSimKit

/// `mapsim diff A B`: compare two traces.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        // Parsed as a root by `mapsim COMMAND` (MapSimCommand.leafCommand): "mapsim" is its super-command.
        _superCommandName: "mapsim",
        abstract: "Compare two traces and print which events and fields differ.",
        discussion: """
        Traces are YAML (.yaml, .yml) or JSON lines (anything else, including --events files). \
        The events are compared; the headers (scenario, seed, engine) only with --headers. A JSON-lines \
        trace whose last line was cut is an error unless --allow-truncated.

        --relaxed is for two runs of the same thing on the real network, which must agree every \
        time: each resource is compared by what it got — its kind, its path below the style's \
        folder, the outcome and size of each attempt — not by when or from where (network, cache, \
        file; a cached copy a 304 confirmed is that copy); the milestones (style-loaded, \
        map-loaded, map-idle) must come in order, while what loads in parallel (sprite, sources, \
        tiles, glyphs) and other events are compared as counts between two map-idles; frames, \
        times and fields from the wall clock (expires, modified, etag) are left out. URLs are \
        named relative to each trace's style, so the same style served on two ports, or loaded \
        from its file and over HTTP, agrees; --base URL names the base instead (twice: A's, \
        then B's). When one of the traces holds nothing but requests — what `mapsim serve` \
        records of a real client — only the requests are compared (the style's and TileJSONs' \
        sizes left out: the server rewrites them; a tile answered 404 is no content, as the map \
        takes it).

        Each difference is one line, grouped by kind (milestones, then resources by kind, then \
        events): `- tile tiles/10/163/395.pbf: ok 996 B in A, not-found in B`; then a count \
        line. Without --relaxed every field counts, times too: each event pairs up with its \
        counterpart by what it is — a request by its path below its style (else its URL), another \
        event by its type and payload (else its type) — first with first, so a changed answer or \
        time is one line per field, not an event only in A and another only in B.

        --format json prints each difference as a JSON line instead, nothing when they agree; \
        every line has the same keys: {"group": KIND or EVENT TYPE, "subject": what differs, \
        "field": the field's path or null, "a": A's value or null when A lacks it, "b": B's, \
        "index": the event's position in A or null, "line": the text line}.

        \(ExitStatus.section([(ExitStatus.success, "the traces agree"), (ExitStatus.failure, "they differ"), (ExitStatus.unreadableInput, "a trace cannot be read")]))

        Examples:
          mapsim diff traces/cold-load.trace.yaml run.trace.yaml
          mapsim diff first.jsonl second.jsonl --relaxed
          mapsim diff crashed.jsonl good.jsonl --allow-truncated
          mapsim diff served.jsonl simulated.jsonl --relaxed
          mapsim diff a.jsonl b.jsonl --relaxed --format json | jq .line
          mapsim diff a.jsonl b.jsonl --relaxed \\
              --base http://127.0.0.1:8080/ --base https://cdn.example/map/
        """
    )

    @Argument(help: "The expected trace.")
    var expected: String

    @Argument(help: "The actual trace.")
    var actual: String

    @Flag(help: "Compare runs on the real network: what each resource got, milestones in order, the rest as counts.")
    var relaxed = false

    @Flag(help: "Compare the headers too (scenario, seed and engine).")
    var headers = false

    @Flag(help: "Read a JSON-lines trace whose last line was cut, without that line.")
    var allowTruncated = false

    @Option(help: ArgumentHelp("With --relaxed: the URL paths are named below (once for both traces, or A's then B's; default: each trace's style's folder).", valueName: "URL"))
    var base: [String] = []

    @Option(help: ArgumentHelp("text (a line per difference and a count) or json (a JSON line per difference).", valueName: "FORMAT"))
    var format: OutputFormat = .text

    @Option(parsing: .unconditional, help: "Print at most this many differences as text.")
    var limit: Int = 20

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    func validate() throws {
        guard base.count <= 2 else { throw ValidationError("--base is given once (for both traces) or twice (A's, then B's)") }
        if !base.isEmpty && !relaxed { throw ValidationError("--base goes with --relaxed") }
        guard limit > 0 else { throw ValidationError("--limit must be 1 or more") }
    }

    func run() throws {
        let a: Trace
        let b: Trace
        do {
            a = try Trace.read(file: expected, allowTruncated: allowTruncated)
            b = try Trace.read(file: actual, allowTruncated: allowTruncated)
        } catch {
            throw ExitStatus.fail(error)
        }
        let bases = (base.first, base.count == 2 ? base[1] : base.first)
        let diff = TraceDiff(expected: a, actual: b, relaxed: relaxed, compareHeaders: headers, bases: bases)
        if format == .json {
            for difference in diff.differences { print(JSONWriter.string(.object(difference.json))) }
            if !diff.isEmpty { throw ExitStatus.failure }
            return
        }
        if diff.comparedRequestsOnly {
            print("comparing the requests only: a trace holds nothing but requests (a mapsim serve recording)")
        }
        guard !diff.isEmpty else {
            print(diff.comparedRequestsOnly ? "the requests agree" : "the traces agree (\(a.events.count) events)")
            return
        }
        for line in diff.lines(limit: limit) { print(line.hasPrefix("... ") ? line : "- " + line) }
        print("\(diff.countLine) (A: \(expected), B: \(actual))")
        throw ExitStatus.failure
    }
}
