import ArgumentParser
import Foundation
import MapSimKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `mapsim live replay FILE.jsonl --track-id-field F`: play a feed of observations into a
/// dynamic-entity store, and say what it kept and purged.
struct LiveReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        // Parsed as a root by `mapsim live replay` (MapSimCommand.leafCommand): "mapsim live" is its super-command.
        _superCommandName: "mapsim live",
        abstract: "Replay a feed of observations as an ArcGIS dynamic-entity data source, and count what it keeps.",
        discussion: """
        FILE has one observation a line, as the ArcGIS sample feed: {"geometry": {"x": LON, "y": \
        LAT}, "attributes": {...}} (GeoJSON point features work too); - reads standard input. \
        Observations with the same --track-id-field value are one entity. They arrive \
        --interval apart (10ms), or as their --time-field says, --speed times faster, on the \
        virtual clock: a replay takes as long as the machine needs, not as long as the feed.

        The store purges as ArcGIS does, the oldest first, before each observation is added and \
        as the clock advances: past --max-observations (100000; 0 for no limit), past \
        --max-observations-per-track (0: no limit), or older than --max-duration seconds (0: \
        off). An entity whose last observation is purged is purged; its track id later is a new \
        entity. --filter keeps the observations an expression over the attributes accepts \
        (a style filter: [">", ["get", "SOG"], 0] is the whereClause SOG > 0), --bbox those \
        inside W,S,E,N.

        Prints what was received, purged and kept (observations and entities), the malformed \
        lines (skipped and counted; with --strict the first one stops the replay, exit 65) and \
        the peak memory; progress on a terminal. --json prints JSON lines, the last one the \
        summary: {"observations": {"received", "purged", "kept"}, "entities": {...}, ...}. \
        --events writes every event as JSON lines. --style with --source shows the entities on \
        the style's GeoJSON source (--track-source for their tracks) and records the map's \
        events too.

        FILE may also be a live feed: ws://HOST:PORT/PATH (one or more lines a text message) or \
        mqtt://HOST:PORT/TOPIC; it is read in real time for --for, until --count observations \
        came, or until Ctrl-C, reconnecting as ArcGIS does (12 attempts, the first 2 at once, \
        then every 10 s; then failed).

        Ctrl-C, SIGTERM and SIGHUP stop a replay after writing --events and the summary so far \
        (exit 130, 143, 129); a live feed stopped by Ctrl-C exits 0.

        \(ExitStatus.section([(ExitStatus.success, "done"), (ExitStatus.unreadableInput, "FILE cannot be read"), (ExitStatus.usage, "bad arguments"), (ExitStatus.invalidData, "a malformed line, with --strict"), (ExitStatus.unavailable, "a live feed failed"), (ExitStatus.cannotWrite, "--events cannot be written"), (ExitStatus.interrupted, "Ctrl-C (the summary so far is printed)")]))

        Examples:
          mapsim live replay styles/entities/vessels.jsonl --track-id-field MMSI
          mapsim live replay ais.jsonl --track-id-field MMSI \\
              --time-field BaseDateTime --speed 60 \\
              --max-observations-per-track 10 --json
          mapsim live replay ais.jsonl --track-id-field MMSI --max-duration 300 \\
              --filter '[">", ["get", "SOG"], 0]' --bbox 12.4,55.5,12.9,55.9
          mapsim live replay styles/entities/vessels.jsonl --track-id-field MMSI \\
              --style styles/entities/style.json --source vessels \\
              --track-source vessel-tracks --events replay.jsonl
          mapsim live replay ws://127.0.0.1:8080/ais --track-id-field MMSI --for 1m
          mapsim live replay ws://127.0.0.1:8080/ais --track-id-field MMSI \\
              --count 1000 --for 10m
        """
    )

    @Argument(help: ArgumentHelp("The feed: JSON lines of observations (- for standard input).", valueName: "FILE.jsonl"))
    var file: String

    @Option(help: ArgumentHelp("The attribute whose value is the track id.", valueName: "FIELD"))
    var trackIDField: String

    @Option(help: ArgumentHelp("The attribute with each observation's time (ISO 8601, or milliseconds since 1970).", valueName: "FIELD"))
    var timeField: String?

    @Option(help: ArgumentHelp("The time between observations without --time-field.", valueName: "DURATION"))
    var interval = DurationArgument(argument: "10ms")!

    @Option(parsing: .unconditional, help: "How many times faster than the feed's own time to play (0.001 to 1000000).")
    var speed: Double = 1

    @Option(help: "The most observations kept (0: no limit).")
    var maxObservations = 100_000

    @Option(help: "The most observations kept per track (0: no limit).")
    var maxObservationsPerTrack = 0

    @Option(parsing: .unconditional, help: ArgumentHelp("Purge observations older than this (30s, 10min; a bare number is seconds; 0: off; at most a year).", valueName: "DURATION"))
    var maxDuration = DurationArgument(argument: "0")!

    @Option(help: ArgumentHelp("Keep only observations this filter expression accepts.", valueName: "EXPR"))
    var filter: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Keep only observations inside this area.", valueName: "W,S,E,N"))
    var bbox: BoundsArgument?

    @Option(help: ArgumentHelp("Write every event to FILE as JSON lines.", valueName: "FILE"))
    var events: String?

    @Option(help: ArgumentHelp("Load this style and show the entities on it.", valueName: "STYLE"))
    var style: String?

    @Option(help: ArgumentHelp("With --style: the GeoJSON source of the entities.", valueName: "ID"))
    var source: String?

    @Option(help: ArgumentHelp("With --style: the GeoJSON source of their tracks.", valueName: "ID"))
    var trackSource: String?

    @Flag(help: "Print JSON lines; the last is the summary.")
    var json = false

    @Flag(help: "Stop at the first malformed line (exit 65).")
    var strict = false

    @Option(name: .customLong("for"), parsing: .unconditional, help: ArgumentHelp("With a live feed: how long to read it.", valueName: "DURATION"))
    var duration: DurationArgument?

    @Option(help: ArgumentHelp("With a live feed: stop once N observations came (as mosquitto_sub -C), or at --for.", valueName: "N"))
    var count: Int?

    @OptionGroup(title: "Broker login (an mqtt:// feed)")
    var login: BrokerLogin

    /// The live feed FILE names, if it is one; an MQTT feed logs in with the login options.
    private func liveTransport() throws -> DynamicEntityStream.Transport? {
        if file.hasPrefix("ws://") || file.hasPrefix("wss://") { return .webSocket(file) }
        guard file.hasPrefix("mqtt://") else { return nil }
        let rest = file.dropFirst("mqtt://".count)
        guard let slash = rest.firstIndex(of: "/"), let broker = BrokerArgument(argument: "mqtt://" + rest[..<slash]) else {
            throw ValidationError("a feed on MQTT is mqtt://HOST[:PORT]/TOPIC")
        }
        let topic = String(rest[rest.index(after: slash)...])
        guard !topic.isEmpty else { throw ValidationError("a feed on MQTT is mqtt://HOST[:PORT]/TOPIC") }
        return .mqtt(try login.endpoint(broker), topic: topic)
    }

    /// The documented ranges of the numbers a replay takes.
    static let speeds = 0.001...1_000_000.0
    static let maxDurations = SimTime.zero...SimTime.seconds(31_536_000)

    func validate() throws {
        guard Self.speeds.contains(speed) else { throw ValidationError("--speed must be between 0.001 and 1000000, not \(speed)") }
        guard timeField == nil || interval.time == DurationArgument(argument: "10ms")!.time else { throw ValidationError("give --time-field or --interval, not both") }
        guard interval.time > .zero else { throw ValidationError("--interval must be above 0") }
        try bbox?.check("--bbox")
        guard maxObservations >= 0, maxObservationsPerTrack >= 0 else { throw ValidationError("the maximums cannot be negative") }
        guard Self.maxDurations.contains(maxDuration.time) else {
            throw ValidationError("--max-duration must be between 0 (off) and a year (31536000 s), not \(maxDuration.time.shortDescription)")
        }
        guard (style == nil) == (source == nil) else { throw ValidationError("--style and --source go together") }
        if trackSource != nil && style == nil { throw ValidationError("--track-source goes with --style and --source") }
        let isLive = file.hasPrefix("ws://") || file.hasPrefix("wss://") || file.hasPrefix("mqtt://")
        if isLive { _ = try liveTransport() }
        if duration != nil && !isLive { throw ValidationError("--for goes with a live feed (ws:// or mqtt://)") }
        if count != nil && !isLive { throw ValidationError("--count goes with a live feed (ws:// or mqtt://)") }
        if let count, count < 1 { throw ValidationError("--count: \(count) is not a number of observations (1 or more)") }
        if isLive && style != nil { throw ValidationError("--style goes with a feed file, replayed on the virtual clock") }
        _ = try streamFilter()
    }

    private func streamFilter() throws -> DynamicEntityFilter {
        var condition: JSONValue?
        if let filter {
            do {
                condition = try JSONParser.parse(Array(filter.utf8))
            } catch {
                throw ValidationError("--filter is not JSON: \(error)")
            }
        }
        do {
            return try DynamicEntityFilter(condition: condition, bounds: bbox?.value)
        } catch {
            throw ValidationError("--filter: \(error)")
        }
    }

    func run() async throws {
        let format = DynamicEntityFeedFormat(trackIDField: trackIDField, timeField: timeField, interval: interval.time, speed: speed)
        if let transport = try liveTransport() { return try await read(transport, format: format) }
        let reader: DynamicEntityFeedReader
        do {
            reader = try DynamicEntityFeedReader(path: file, format: format)
        } catch {
            throw ExitStatus.fail(error)
        }
        let writer: EventLineWriter?
        do {
            writer = try events.map { try EventLineWriter(path: $0) }
        } catch {
            throw ExitStatus.fail(error)
        }
        var map: Map?
        var environment: LoadingEnvironment?
        if let style {
            let styleURL = StyleLocation.url(for: style)
            let loading = LoadingEnvironment(.init(cache: .none), styleURL: styleURL)
            let loaded = loading.makeMap()
            await loaded.setStyleURI(styleURL)
            if case .styleFailed(let message) = await loaded.run(until: .mapIdle, timeout: .seconds(60)) {
                await loading.shutdown()
                throw ExitStatus.fail(ExitStatus.failure, "the style failed to load: \(message)")
            }
            map = loaded
            environment = loading
        }
        let subscription = writer.flatMap { writer in map?.subscribeAll { writer.write($0) } }
        let options = DynamicEntityPurgeOptions(maximumObservations: maxObservations, maximumObservationsPerTrack: maxObservationsPerTrack,
                                                maximumDuration: maxDuration.time)
        var observer: (@Sendable (MapEvent) -> Void)?
        if map == nil, let writer { observer = { writer.write($0) } }
        let binding = source.map { DynamicEntityBinding(sourceID: $0, trackSourceID: trackSource) }
        let session = DynamicEntitySession(map: map, options: options, filter: try streamFilter(), binding: binding,
                                           reportsEvents: writer != nil, observer: observer)
        await session.connect(to: reader)
        let progress = ReplayProgress(enabled: isatty(STDERR_FILENO) == 1 && !json)
        let latest = Mutex<DynamicEntitySession.Summary?>(nil)
        let ticker = ProgressTicker(enabled: !json) { seconds in Self.progressLine(latest.withLock { $0 }, "replaying", after: seconds) }
        defer { ticker.stop() }
        let stop = StreamStop {}
        defer { stop.cancel() }
        var reported = 0
        var malformedStop: (line: Int, reason: String)?
        var summary: DynamicEntitySession.Summary
        // Lines are reported as they are read, also those before the first observation (a file
        // with none reports every line).
        while true {
            let malformed = await session.malformedLines
            for (line, reason) in malformed.dropFirst(reported) {
                if strict {
                    malformedStop = (line, reason)
                    break
                }
                progress.clear()
                printMalformed(line, reason)
            }
            reported = malformed.count
            summary = await session.summary
            let status = await session.status
            let finished = await session.isFeedFinished
            if malformedStop != nil || status == .failed || stop.caughtSignal != nil || finished { break }
            progress.show(summary)
            latest.withLock { [summary] in $0 = summary }
            guard await session.play(for: SimTime.seconds(10)) else { break }
        }
        progress.clear()
        if map != nil { _ = await session.run(until: .mapIdle, timeout: .seconds(60)) }
        subscription?.cancel()
        if let environment { await environment.shutdown() }
        do {
            try writer?.close()
        } catch {
            throw ExitStatus.fail(error)
        }
        if let malformedStop {
            throw ExitStatus.fail(ExitStatus.invalidData, "\(file):\(malformedStop.line): \(malformedStop.reason)")
        }
        print(json ? JSONWriter.string(.object(Self.summaryObject(summary, status: await session.status))) : Self.summaryText(summary))
        if let signal = stop.caughtSignal { throw ExitStatus.stopped(by: signal) }
    }

    /// A progress line for a log: how long, and the counts so far.
    static func progressLine(_ summary: DynamicEntitySession.Summary?, _ doing: String, after seconds: Int) -> String {
        guard let summary else { return "\(doing) for \(seconds) s: no observation yet" }
        let counts = summary.counts
        return "\(doing) for \(seconds) s: \(counts.observationsReceived) observations, \(summary.entitiesKept) entities kept, \(counts.observationsPurged) purged"
    }

    /// Reads a live feed in real time until --for has passed, Ctrl-C, or the feed has failed.
    private func read(_ transport: DynamicEntityStream.Transport, format: DynamicEntityFeedFormat) async throws {
        let stream = try LiveEventStream(recordingTo: events, for: duration?.time)
        let options = DynamicEntityPurgeOptions(maximumObservations: maxObservations, maximumObservationsPerTrack: maxObservationsPerTrack,
                                                maximumDuration: maxDuration.time)
        let input = stream.input
        let feed = DynamicEntityStream(transport: transport, format: format, options: options, filter: try streamFilter()) { time, event in
            input.yield(MapEvent(begin: time, end: time, payload: .dynamicEntity(event)))
        }
        await feed.connect()
        let progress = ReplayProgress(enabled: isatty(STDERR_FILENO) == 1 && !json)
        let latest = Mutex<DynamicEntitySession.Summary?>(nil)
        let ticker = ProgressTicker(enabled: !json) { seconds in Self.progressLine(latest.withLock { $0 }, "reading the feed", after: seconds) }
        defer { ticker.stop() }
        var failure: String?
        for await event in stream.events {
            stream.record(event)
            if case .dynamicEntity(.connectionStatusChanged(.failed, _, _, let error)) = event.payload {
                failure = error ?? "the feed failed"
                break
            }
            let summary = await feed.summary
            progress.show(summary)
            latest.withLock { $0 = summary }
            if let count, summary.counts.observationsReceived >= count { break }
        }
        progress.clear()
        await feed.disconnect()
        try stream.close()
        let summary = await feed.summary
        print(json ? JSONWriter.string(.object(Self.summaryObject(summary, status: await feed.status))) : Self.summaryText(summary))
        if let failure {
            throw ExitStatus.fail(ExitStatus.unavailable, "the feed \(file) failed: \(failure)")
        }
        if let exit = stream.signalExit() { throw exit }
    }

    private func printMalformed(_ line: Int, _ reason: String) {
        if json {
            print(JSONWriter.string(.object(JSONObject([("malformed", .object(JSONObject([("line", .number(Double(line))), ("reason", .string(reason))])))]))))
        } else {
            printError("mapsim: \(file):\(line): skipped: \(reason)")
        }
    }

    static func summaryObject(_ summary: DynamicEntitySession.Summary, status: DynamicEntityConnectionStatus) -> JSONObject {
        func number(_ value: Int) -> JSONValue { .number(Double(value)) }
        return JSONObject([
            ("observations", .object(JSONObject([("received", number(summary.counts.observationsReceived)),
                                                 ("purged", number(summary.counts.observationsPurged)), ("kept", number(summary.observationsKept))]))),
            ("entities", .object(JSONObject([("received", number(summary.counts.entitiesReceived)),
                                             ("purged", number(summary.counts.entitiesPurged)), ("kept", number(summary.entitiesKept))]))),
            ("malformed", number(summary.malformed)), ("filtered-out", number(summary.filteredOut)), ("missed", number(summary.missed)),
            ("status", .string(status.rawValue)), ("peak-memory-bytes", number(PeakMemory.bytes)),
        ])
    }

    static func summaryText(_ summary: DynamicEntitySession.Summary) -> String {
        let counts = summary.counts
        return """
        observations   \(counts.observationsReceived) received, \(counts.observationsPurged) purged, \(summary.observationsKept) kept
        entities       \(counts.entitiesReceived) received, \(counts.entitiesPurged) purged, \(summary.entitiesKept) kept
        malformed      \(summary.malformed) line\(summary.malformed == 1 ? "" : "s") skipped
        filtered out   \(summary.filteredOut)
        peak memory    \(ByteCount.format(PeakMemory.bytes))
        """
    }
}
