import ArgumentParser
import MapSimKit

/// The options of `mapsim load` that bind live data to a GeoJSON source of the style.
struct LiveArguments: ParsableArguments {
    @Option(help: ArgumentHelp("After the load, feed live updates into the GeoJSON source SOURCE from a broker (mqtt://HOST[:PORT]) or a recording (the JSON lines `mapsim live listen --events` writes).", valueName: "SOURCE=FEED"))
    var live: String?

    @Option(help: ArgumentHelp("With --live: criteria to subscribe to (repeatable; a recording defaults to all of its datasets).", valueName: "TOPIC"))
    var criteria: [String] = []

    @Option(help: ArgumentHelp("With --live: follow the view for this domain type, as MapsIndoors' enableLiveData (repeatable): subscribe to what is in view, draw its live state.", valueName: "DOMAIN"))
    var liveDomain: [String] = []

    @Option(help: ArgumentHelp("With --live-domain: the floor shown (default: the lowest floor of the source's locations).", valueName: "FLOOR"))
    var floor: String?

    @Option(help: ArgumentHelp("With --live-domain: which feature properties give a location's topic levels (default: dataset, venue, building, floor, room).", valueName: "LEVEL=PROPERTY,..."))
    var locationFields: String?

    @Option(name: .customLong("for"), parsing: .unconditional, help: ArgumentHelp("With --live: how long to feed updates (a broker: 60s by default; a recording: to its end).", valueName: "DURATION"))
    var duration: DurationArgument?

    @Option(help: ArgumentHelp("With --live: stop once N messages came, each a live-update or a live-error when it is no valid update (as mosquitto_sub -C), or at --for, whichever is first.", valueName: "N"))
    var count: Int?

    @OptionGroup(title: "Live data broker login")
    var login: BrokerLogin

    /// What --live-domain asks to follow, or nil without it; what is malformed is a usage error.
    func view() throws -> LiveViewOptions? {
        guard !liveDomain.isEmpty else {
            guard floor == nil && locationFields == nil else { throw ValidationError("--floor and --location-fields go with --live-domain") }
            return nil
        }
        for domain in liveDomain where !LiveTopic.isLevel(domain) {
            throw ValidationError("--live-domain: \"\(domain)\" is not a domain type (one topic level: not empty, without /, +, # or NUL)")
        }
        if let floor, floor.isEmpty { throw ValidationError("--floor: a floor is not empty") }
        var fields = LiveLocationFields()
        if let locationFields {
            do {
                fields = try LiveLocationFields(parsing: locationFields)
            } catch {
                throw ValidationError("--location-fields: \(error)")
            }
        }
        var domains: [String] = []
        for domain in liveDomain where !domains.contains(domain) { domains.append(domain) }
        return LiveViewOptions(domains: domains, fields: fields, floor: floor)
    }

    /// The source and the feed, or nil without --live; what is malformed is a usage error.
    func feed() throws -> (source: String, feed: LiveFeed)? {
        guard let live else {
            guard criteria.isEmpty && duration == nil && count == nil && liveDomain.isEmpty else {
                throw ValidationError("--criteria, --live-domain, --for and --count go with --live")
            }
            return nil
        }
        if let count, count < 1 { throw ValidationError("--count: \(count) is not a number of messages (1 or more)") }
        _ = try view()
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
            guard !parsed.isEmpty || !liveDomain.isEmpty else { throw ValidationError("--live with a broker needs at least one --criteria or --live-domain") }
            return (source, .broker(try login.endpoint(broker), criteria: parsed))
        }
        do {
            return (source, try LiveFeed.recording(file: target, criteria: parsed))
        } catch {
            throw ValidationError("--live: \(error)")
        }
    }
}
