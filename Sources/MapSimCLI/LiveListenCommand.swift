import ArgumentParser
import Foundation
import MapSimKit

/// `mapsim live listen mqtt://HOST:PORT --criteria TOPIC`: subscribe and print what comes.
struct LiveListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        // Parsed as a root by `mapsim live listen` (MapSimCommand.leafCommand): "mapsim live" is its super-command.
        _superCommandName: "mapsim live",
        abstract: "Subscribe to live-data criteria on an MQTT broker and print what comes.",
        discussion: """
        Prints each state change, subscription and update as it comes, with the time since the \
        start: live-state-changed, live-subscribed, live-subscription-error (the broker refused \
        the criteria; never retried), live-error (a lost connection, retried with back-off from \
        1 s to 10 s, every criteria subscribed again), live-update. --json prints the same JSON \
        lines that --events writes: {"type", "begin", "end", "data"}, times in microseconds.

        Runs until --for has passed, --count messages came, or until interrupted (Ctrl-C, SIGTERM, \
        SIGHUP); what came is written first.

        \(ExitStatus.section([(ExitStatus.success, "--for ended, --count messages came, or Ctrl-C"), (ExitStatus.usage, "bad arguments (a malformed topic among them)"), (ExitStatus.unavailable, "the broker cannot be reached at all, or refused every criteria"), (ExitStatus.cannotWrite, "--events cannot be written"), (ExitStatus.terminated, "SIGTERM"), (ExitStatus.hungUp, "SIGHUP")]))

        Examples:
          mapsim live listen mqtt://127.0.0.1:1883 --criteria 'acme/#'
          mapsim live listen mqtt://127.0.0.1:1883 --criteria 'acme/#' \\
              --count 1 --for 30s
          mapsim live listen mqtt://broker.local \\
              --criteria 'acme/hq/+/+/+/+/occupancy' \\
              --criteria 'acme/hq/+/+/+/+/position' --for 10m --events live.jsonl
          mapsim live listen mqtt://broker.local:1884 --criteria 'acme/#' \\
              --username ops --password-file ~/.mqtt-password --json
        """
    )

    @Argument(help: ArgumentHelp("The broker.", valueName: "mqtt://HOST[:PORT]"))
    var broker: BrokerArgument

    @Option(help: ArgumentHelp("Criteria to subscribe to (repeatable).", valueName: "TOPIC"))
    var criteria: [String] = []

    @OptionGroup(title: "Login")
    var login: BrokerLogin

    @Option(name: .customLong("for"), parsing: .unconditional, help: ArgumentHelp("Stop after this long: 30s, 500ms, 10m, 1h.", valueName: "DURATION"))
    var duration: DurationArgument?

    @Option(help: ArgumentHelp("Stop once N messages came, each a live-update or a live-error when it is no valid update (as mosquitto_sub -C).", valueName: "N"))
    var count: Int?

    @Option(help: ArgumentHelp("Also write every event to FILE as JSON lines.", valueName: "FILE"))
    var events: String?

    @Flag(help: "Print JSON lines instead of text.")
    var json = false

    func validate() throws {
        guard !criteria.isEmpty else { throw ValidationError("give at least one --criteria") }
        if let count, count < 1 { throw ValidationError("--count: \(count) is not a number of messages (1 or more)") }
        for text in criteria {
            do {
                _ = try TopicCriteria(parsing: text)
            } catch {
                throw ValidationError("--criteria: \(error)")
            }
        }
    }

    func run() async throws {
        let parsed = try criteria.map { try TopicCriteria(parsing: $0) }
        let endpoint = try login.endpoint(broker)
        let stream = try LiveEventStream(recordingTo: events, for: duration?.time)
        let input = stream.input
        let session = MQTTLiveSession(endpoint: endpoint) { time, event in
            input.yield(MapEvent(begin: time, end: time, payload: .live(event)))
        }
        for criteria in parsed { await session.subscribe(criteria) }
        let printer = EventPrinter(terminal: .standardOutput())
        var unreachable: String?
        let wanted = Set(parsed.map(\.mqttFilter))
        var refused: [String: String] = [:]
        for await event in stream.events {
            // Recorded first: who sees the line printed finds it in --events too.
            stream.record(event)
            print(json ? event.jsonLine : printer.line(for: event))
            if case .live(.error(let message)) = event.payload, await !session.hasConnected {
                unreachable = message
                break
            }
            // The session counts a message as it hands its event over: the loop stops at the event
            // itself (a live-update, or a live-error for a message that is no update), never at an
            // earlier one, or the last message's line would be lost.
            if let count, event.isLiveMessage, await session.messagesDelivered >= count { break }
            // A refused subscription is never retried: when all were refused, nothing can come.
            if case .live(.subscriptionError(let criteria, let message)) = event.payload {
                refused[criteria] = message
                if wanted.isSubset(of: refused.keys) { break }
            }
        }
        await session.close()
        try stream.close()
        if let unreachable {
            throw ExitStatus.fail(ExitStatus.unavailable, "could not connect to the broker at mqtt://\(broker.host):\(broker.port): \(unreachable)")
        }
        if wanted.isSubset(of: refused.keys) {
            let refusals = refused.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
            throw ExitStatus.fail(ExitStatus.unavailable, "the broker at mqtt://\(broker.host):\(broker.port) refused every criteria, so nothing can come: \(refusals)")
        }
        if let exit = stream.signalExit() { throw exit }
    }
}

private extension MapEvent {
    /// An event a broker's message gives: its live-update, or the live-error of a message that is no update.
    var isLiveMessage: Bool {
        switch payload {
        case .live(.update), .live(.error): true
        default: false
        }
    }
}
