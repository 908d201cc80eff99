import ArgumentParser
import Foundation
import MapSimKit

/// `mapsim live publish mqtt://HOST:PORT TOPIC`: publish one live update, for tests and demos.
struct LivePublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        // Parsed as a root by `mapsim live publish` (MapSimCommand.leafCommand): "mapsim live" is its super-command.
        _superCommandName: "mapsim live",
        abstract: "Publish a live update on an MQTT broker, for tests and demos.",
        discussion: """
        Sends {"id", "timestamp", "properties"} on TOPIC (seven levels). The id defaults to the \
        topic's location level and the timestamp to now; --payload sends any bytes instead, to \
        see how listeners take a malformed update.

        \(ExitStatus.section([(ExitStatus.success, "the broker took it (at QoS 1: acknowledged)"), (ExitStatus.usage, "bad arguments"), (ExitStatus.unavailable, "the broker cannot be reached")]))

        Examples:
          mapsim live publish mqtt://127.0.0.1:1883 \\
              acme/hq/main/1/r101/room-101/occupancy \\
              --property state=busy --property count=4
          mapsim live publish mqtt://127.0.0.1 \\
              acme/hq/main/0/yard/van-1/position \\
              --property longitude=12.5684 --property latitude=55.6761 \\
              --timestamp 2026-11-24T09:00:00Z --qos 1
          mapsim live publish mqtt://127.0.0.1 \\
              acme/hq/main/1/r101/room-101/occupancy --payload 'not json'
        """
    )

    @Argument(help: ArgumentHelp("The broker.", valueName: "mqtt://HOST[:PORT]"))
    var broker: BrokerArgument

    @Argument(help: "The topic: dataset/venue/building/floor/room/location/domainType.")
    var topic: String

    @Option(help: ArgumentHelp("A property of the update (repeatable).", valueName: "NAME=VALUE"))
    var property: [String] = []

    @Option(help: "The item id (default: the topic's location level).")
    var id: String?

    @Option(help: ArgumentHelp("When the state was true, ISO 8601 with a time zone (default: now).", valueName: "TIME"))
    var timestamp: String?

    @Option(help: ArgumentHelp("Send these bytes as the payload instead of an update.", valueName: "TEXT"))
    var payload: String?

    @Option(help: "The MQTT quality of service: 0 or 1.")
    var qos: UInt8 = 0

    @Flag(help: "Ask the broker to retain the message for later subscribers.")
    var retain = false

    @OptionGroup(title: "Login")
    var login: BrokerLogin

    func validate() throws {
        do {
            _ = try LiveTopic(parsing: topic)
        } catch {
            throw ValidationError("\(error)")
        }
        guard qos <= 1 else { throw ValidationError("--qos must be 0 or 1") }
        if let timestamp, ISO8601Timestamp.microseconds(timestamp) == nil {
            throw ValidationError("--timestamp \(timestamp) is not an ISO 8601 date and time with a time zone (2026-11-24T09:00:00Z)")
        }
        for pair in property where !pair.contains("=") { throw ValidationError("--property \(pair): expected NAME=VALUE") }
        if payload != nil && (!property.isEmpty || id != nil || timestamp != nil) {
            throw ValidationError("--payload sends its text as it is: it cannot go with --property, --id or --timestamp")
        }
    }

    func run() async throws {
        let liveTopic = try LiveTopic(parsing: topic)
        let bytes: [UInt8]
        if let payload {
            bytes = Array(payload.utf8)
        } else {
            var properties: [String: String] = [:]
            for pair in property {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                properties[String(parts[0])] = String(parts[1])
            }
            let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
            let time = timestamp.flatMap(ISO8601Timestamp.microseconds) ?? now
            bytes = LiveUpdate(topic: liveTopic, id: id ?? liveTopic.location, timestamp: time, properties: properties).payload
        }
        let endpoint = try login.endpoint(broker)
        let client: MQTTClient
        do {
            client = try await MQTTClient.connect(host: endpoint.host, port: endpoint.port, options: .init(
                clientID: endpoint.clientID, username: endpoint.username, password: endpoint.password.map { Array($0.utf8) }), timeout: .seconds(10))
        } catch {
            throw ExitStatus.fail(ExitStatus.unavailable, "could not connect to the broker at mqtt://\(broker.host):\(broker.port): \(error)")
        }
        do {
            try await client.publish(topic, payload: bytes, qos: qos, retain: retain)
        } catch {
            await client.disconnect()
            throw ExitStatus.fail(ExitStatus.unavailable, "the broker did not take the update: \(error)")
        }
        await client.disconnect()
    }
}
