import ArgumentParser
import Foundation
import MapSimKit

/// The `mapsim` command: a headless simulator of a Mapbox/MapLibre map's loading pipeline.
///
/// The executable (MapSimMain) calls ``main()``; the tests reach the rest through `@testable`.
public struct MapSimCommand: ParsableCommand {
    /// The root command's name, help, version and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "mapsim",
        abstract: "Simulate how a Mapbox/MapLibre map loads a style, headless and deterministic.",
        discussion: """
        mapsim runs the load sequence of a vector map — style, sprite, source TileJSON, tiles, \
        render frames, map-loaded, map-idle — on a virtual clock, and reports each step as a \
        Mapbox map event (style-data-loaded, source-data-loaded, resource-request, ...).

        Shell completion: mapsim --generate-completion-script bash (or zsh, or fish) prints a \
        script for the shell; `mapsim help COMMAND` or `mapsim COMMAND --help` shows each \
        command's options, examples and exit statuses.

        \(ExitStatus.tableSection)

        Examples:
          mapsim load styles/sample/style.json
          mapsim load styles/sample/style.json --zoom 11 --size 1920x1080 \\
              --events run.jsonl
          mapsim load https://maps.test/style.json --network 3g \\
              --mirror https://maps.test/=styles/sample
          mapsim run traces/*.scenario.yaml --report scenario-report
          mapsim load styles/sample/style.json --trace run.trace.yaml --quiet
          mapsim report run.trace.yaml -o run.html
          mapsim validate styles/sample/style.json --deep
          mapsim tiles --center -122.5,37.8 --zoom 10 --size 512x512
          mapsim eval '["get", "name"]' --properties '{"name": "Oslo"}'
          mapsim live listen mqtt://127.0.0.1:1883 --criteria 'acme/#' --for 30s
          mapsim live replay styles/entities/vessels.jsonl --track-id-field MMSI
          mapsim content verify city.mapsimpkg --public-key site-key.pub
        """,
        version: MapSimInfo.version,
        subcommands: commands
    )

    /// The root command, which holds no options of its own.
    public init() {}

    /// The commands, in the order help lists them.
    static let commands: [any ParsableCommand.Type] = [LoadCommand.self, TilesCommand.self, CacheCommand.self, RegionCommand.self, RunCommand.self, DiffCommand.self,
                                                       ReportCommand.self, ExportCommand.self, ValidateCommand.self, EvalCommand.self, LiveCommand.self,
                                                       ContentCommand.self, ServeCommand.self]

    /// The command without subcommands of its own named `name`, found without building any
    /// command's configuration (the root's help, with its table of exit statuses, cost a tenth of a
    /// `load`'s start-up) or any collection of command types.
    static func leafCommandType(named name: String) -> (any ParsableCommand.Type)? {
        switch name {
        case "load": LoadCommand.self
        case "tiles": TilesCommand.self
        case "run": RunCommand.self
        case "diff": DiffCommand.self
        case "report": ReportCommand.self
        case "export": ExportCommand.self
        case "validate": ValidateCommand.self
        case "eval": EvalCommand.self
        case "serve": ServeCommand.self
        default: nil
        }
    }

    /// The subcommand `name` of the group of commands `group` (`region` and `download`), found as
    /// `leafCommandType(named:)` finds a command.
    static func leafCommandType(named name: String, in group: String) -> (any ParsableCommand.Type)? {
        switch (group, name) {
        case ("region", "download"): RegionDownloadCommand.self
        case ("region", "list"): RegionListCommand.self
        case ("region", "status"): RegionStatusCommand.self
        case ("region", "check"): RegionCheckCommand.self
        case ("region", "invalidate"): RegionInvalidateCommand.self
        case ("region", "delete"): RegionDeleteCommand.self
        case ("region", "merge"): RegionMergeCommand.self
        case ("region", "export"): RegionExportCommand.self
        case ("cache", "stats"): CacheCommand.Stats.self
        case ("cache", "clear"): CacheCommand.Clear.self
        case ("cache", "invalidate"): CacheCommand.Invalidate.self
        case ("cache", "reset"): CacheCommand.Reset.self
        case ("cache", "pack"): CacheCommand.Pack.self
        case ("live", "listen"): LiveListenCommand.self
        case ("live", "publish"): LivePublishCommand.self
        case ("live", "replay"): LiveReplayCommand.self
        case ("content", "keygen"): ContentKeygenCommand.self
        case ("content", "pack"): ContentPackCommand.self
        case ("content", "verify"): ContentVerifyCommand.self
        case ("content", "check"): ContentCheckCommand.self
        default: nil
        }
    }

    /// Runs the command, and exits: with `cannotWrite` when standard output could not be written,
    /// whatever else happened.
    ///
    /// The main thread parses and runs synchronous commands itself; an asynchronous command runs on
    /// the concurrency pool while the main thread waits, and the process exits from there. An async
    /// `main` would park the main thread in `dispatch_main`, whose `pthread_exit` unwinds the main
    /// thread's stack — in a static binary that first sorts every frame description of the
    /// executable, tens of milliseconds that the command's answer would wait for.
    public static func main() {
        StandardOutput.endAtAClosedPipe()
        // A write past the file size limit (`ulimit -f`) fails with EFBIG, said as any failed write
        // is, rather than killing the process half-way through a file.
        signal(SIGXFSZ, SIG_IGN)
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let version = plainVersion(arguments) {
            print(version)
            StandardOutput.exit(ExitStatus.success.rawValue)
        }
        if let request = ValidateCommand.PlainRequest(arguments) {
            StandardOutput.exit(ValidateCommand.validate(request.files, format: request.json ? .json : .text).rawValue)
        }
        if let load = LoadRun(plainArguments: arguments) {
            runAndExit { try await load.run() }
        }
        if let download = RegionDownloadRun(plainArguments: arguments) {
            runAndExit { try await download.run() }
        }
        let command: any ParsableCommand
        do {
            if let leaf = leafCommand(arguments) {
                command = leaf
            } else {
                command = try parseAsRoot(arguments)
            }
        } catch {
            exit(reporting: error)
        }
        guard var asynchronous = command as? any AsyncParsableCommand else {
            var synchronous = command
            do {
                try synchronous.run()
            } catch {
                exit(reporting: error)
            }
            StandardOutput.exit(ExitStatus.success.rawValue)
        }
        runAndExit { try await asynchronous.run() }
    }

    /// What `mapsim --version` prints, when that is all that is asked: the same line as the argument
    /// parser's, without the parser's reading of every command's options (which took most of the
    /// 2.5 ms the process took, twice what a `validate` of a small style takes).
    static func plainVersion(_ arguments: [String]) -> String? {
        arguments == ["--version"] ? MapSimInfo.version : nil
    }

    /// Runs `work` on the concurrency pool while the main thread waits, and exits from there: with
    /// success, or the status of what it threw.
    private static func runAndExit(_ work: sending @escaping () async throws -> Void) -> Never {
        Task.detached {
            do {
                try await work()
            } catch {
                exit(reporting: error)
            }
            StandardOutput.exit(ExitStatus.success.rawValue)
        }
        while true { pause() }
    }

    /// A command without subcommands of its own (`load`, `report`, `region download`…) parsed
    /// straight from the arguments after its name, or nil. Parsed from the root, ArgumentParser
    /// first builds the command's whole set of options once more, to look for pass-through
    /// arguments, before it parses them (a fifth of a `load`'s start-up; of a `region download`'s,
    /// the root's tree and a look for a completion-script request too). What this refuses — help, a
    /// mistake — is parsed again from the root, which words it as it always has.
    private static func leafCommand(_ arguments: [String]) -> sending (any ParsableCommand)? {
        guard let name = arguments.first else { return nil }
        if let leaf = leafCommandType(named: name) { return try? leaf.parse(Array(arguments.dropFirst())) }
        guard arguments.count > 1, let leaf = leafCommandType(named: arguments[1], in: name) else { return nil }
        return try? leaf.parse(Array(arguments.dropFirst(2)))
    }

    /// Reports `error` as ArgumentParser words it (usage, help, a status) and exits with its status.
    private static func exit(reporting error: any Error) -> Never {
        let status = exitCode(for: error)
        let message = fullMessage(for: error)
        if !message.isEmpty {
            if status.isSuccess { print(message) } else { printError(message) }
        }
        StandardOutput.exit(status.rawValue)
    }
}
