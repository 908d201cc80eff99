import ArgumentParser
import MapSimKit

/// The options of `mapsim load` that bind live data to a GeoJSON source of the style.
struct LiveArguments: ParsableArguments {
    @Option(help: ArgumentHelp("After the load, feed live updates into the GeoJSON source SOURCE from a broker (mqtt://HOST[:PORT]) or a recording (the JSON lines `mapsim live listen --events` writes).", valueName: "SOURCE=FEED"))
    var live: String?

    @Option(help: ArgumentHelp("With --live: criteria to subscribe to (repeatable; a recording defaults to all of its datasets).", valueName: "TOPIC"))
    var criteria: [String] = []

    @Option(name: .customLong("for"), help: ArgumentHelp("With --live: how long to feed updates (a broker: 60s by default; a recording: to its end).", valueName: "DURATION"))
    var duration: DurationArgument?

    @OptionGroup(title: "Live data broker login")
    var login: BrokerLogin

    /// The source and the feed, or nil without --live; what is malformed is a usage error.
    func feed() throws -> (source: String, feed: LiveFeed)? {
        guard let live else {
            guard criteria.isEmpty && duration == nil else { throw ValidationError("--criteria and --for go with --live") }
            return nil
        }
        guard let equals = live.firstIndex(of: "="), equals != live.startIndex, live.index(after: equals) != live.endIndex else {
            throw ValidationError("--live expects SOURCE=mqtt://HOST[:PORT] or SOURCE=FILE.jsonl")
        }
        let source = String(live[..<equals])
        let target = String(live[live.index(after: equals)...])
        let parsed: [TopicCriteria]
        do {
            parsed = try criteria.map { try TopicCriteria(parsing: $0) }
        } catch {
            throw ValidationError("--criteria: \(error)")
        }
        if target.hasPrefix("mqtt://") {
            guard let broker = BrokerArgument(argument: target) else { throw ValidationError("--live: \(target) is not mqtt://HOST[:PORT]") }
            guard !parsed.isEmpty else { throw ValidationError("--live with a broker needs at least one --criteria") }
            return (source, .broker(try login.endpoint(broker), criteria: parsed))
        }
        do {
            return (source, try LiveFeed.recording(file: target, criteria: parsed))
        } catch {
            throw ValidationError("--live: \(error)")
        }
    }
}
