import ArgumentParser

/// `mapsim live`: live data over MQTT.
struct LiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Listen to and publish live data (MapsIndoors-style topics) over MQTT 3.1.1.",
        discussion: """
        Topics have seven levels: dataset/venue/building/floor/room/location/domainType. Criteria \
        are topics with + for any value at a level, or ending in # for everything below \
        (acme/#, acme/hq/+/+/+/+/occupancy). An update's payload is a JSON object: \
        {"id": "room-12", "timestamp": "2026-11-24T09:00:00Z", "properties": {"state": "busy"}} — \
        id defaults to the topic's location level, timestamp is ISO 8601 with a time zone, \
        properties are strings.

        Examples:
          mapsim live listen mqtt://127.0.0.1:1883 --criteria 'acme/#' --for 30s
          mapsim live publish mqtt://127.0.0.1:1883 \\
              acme/hq/main/1/r101/room-101/occupancy --property state=busy
          mapsim load styles/live/style.json --live rooms=mqtt://127.0.0.1:1883 \\
              --criteria 'acme/#' --for 1m
        """,
        subcommands: [LiveListenCommand.self, LivePublishCommand.self, LiveReplayCommand.self]
    )
}
