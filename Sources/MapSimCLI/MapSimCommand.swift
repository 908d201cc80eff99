import ArgumentParser
import Foundation
import MapSimKit

/// The `mapsim` command: a headless simulator of a Mapbox/MapLibre map's loading pipeline.
@main
struct MapSimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mapsim",
        abstract: "Simulate how a Mapbox/MapLibre map loads a style, headless and deterministic.",
        discussion: """
        mapsim runs the load sequence of a vector map — style, sprite, source TileJSON, tiles, \
        render frames, map-loaded, map-idle — on a virtual clock, and reports each step as a \
        Mapbox map event (style-data-loaded, source-data-loaded, resource-request, ...).

        Examples:
          mapsim load styles/sample/style.json
          mapsim load styles/sample/style.json --zoom 11 --size 1920x1080 \\
              --events run.jsonl
          mapsim load https://maps.test/style.json --network 3g \\
              --mirror https://maps.test/=styles/sample
          mapsim run traces/*.scenario.yaml
          mapsim validate styles/sample/style.json --deep
          mapsim tiles --center -122.5,37.8 --zoom 10 --size 512x512
          mapsim eval '["get", "name"]' --properties '{"name": "Oslo"}'
          mapsim live listen mqtt://127.0.0.1:1883 --criteria 'acme/#' --for 30s
          mapsim live replay styles/entities/vessels.jsonl --track-id-field MMSI
          mapsim content verify city.mapsimpkg --public-key site-key.pub
        """,
        version: MapSimInfo.version,
        subcommands: [LoadCommand.self, TilesCommand.self, CacheCommand.self, RunCommand.self, DiffCommand.self, ExportCommand.self, ValidateCommand.self, EvalCommand.self, LiveCommand.self, ContentCommand.self]
    )

    /// Runs the command; exits 74 when standard output could not be written, whatever else happened.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let request = ValidateCommand.PlainRequest(arguments) {
            StandardOutput.exit(await ValidateCommand.validate(request.files, format: request.json ? .json : .text).rawValue)
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            StandardOutput.exit(ExitStatus.success.rawValue)
        } catch {
            let status = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                if status.isSuccess { print(message) } else { printError(message) }
            }
            StandardOutput.exit(status.rawValue)
        }
    }
}
