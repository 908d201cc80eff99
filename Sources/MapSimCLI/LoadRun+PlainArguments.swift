import ArgumentParser
import MapSimKit

extension LoadRun {
    /// `mapsim load STYLE [OPTIONS]` read without ArgumentParser, or nil when the arguments are
    /// not for `load`, or hold anything this reader does not take as ArgumentParser would: help,
    /// a mistake, a value that does not parse or does not check, an option given twice that is
    /// not repeatable, the live-data options. What it refuses is parsed by ArgumentParser, which
    /// words help and mistakes as it always has; what it takes is the run ArgumentParser would
    /// give (the values go through the same `init?(argument:)` and checks).
    ///
    /// ArgumentParser builds every option of the command by reflection before it parses one: more
    /// than a third of a `load`'s start-up in a release build.
    init?(plainArguments arguments: [String]) {
        guard arguments.first == "load" else { return nil }
        var run = LoadRun(style: "")
        guard let positional = Self.plainCommandLine.read(arguments.dropFirst(), into: &run), positional.count == 1 else { return nil }
        run.style = positional[0]
        guard (try? run.loading.validate()) != nil, (try? run.validate()) != nil else { return nil }
        self = run
    }

    /// Every option of `mapsim load` the plain reader takes, by its long name (and `-q`).
    static let plainCommandLine = PlainCommandLine<LoadRun>(options: plainOptions.merging(LoadingSettings.plainOptions(within: \.loading)) { own, _ in own },
                                                            shortNames: ["-q": "--quiet"])

    private static let plainOptions: [String: PlainCommandLine<LoadRun>.Option] = [
        "--center": .value(LngLatArgument.self, unconditional: true) { $0.center = $1 },
        "--zoom": .value(Double.self, unconditional: true) { $0.zoom = $1 },
        "--bearing": .value(Double.self, unconditional: true) { $0.bearing = $1 },
        "--pitch": .value(Double.self, unconditional: true) { $0.pitch = $1 },
        "--max-pitch": .value(Double.self, unconditional: true) { $0.maxPitch = $1 },
        "--size": .value(SizeArgument.self, unconditional: true) { $0.size = $1 },
        "--pixel-ratio": .value(Double.self, unconditional: true) { $0.pixelRatio = $1 },
        "--until": .value(Map.State.self) { $0.until = $1 },
        "--timeout": .value(DurationArgument.self, unconditional: true) { $0.timeout = $1 },
        "--global-state": .value(GlobalStateArgument.self, repeatable: true) { $0.globalState.append($1) },
        "--config": .value(ConfigArgument.self, repeatable: true) { $0.config.append($1) },
        "--events": .value(String.self) { $0.events = $1 },
        "--trace": .value(String.self) { $0.trace = $1 },
        "--redact": .value(String.self, repeatable: true) { $0.redact.append($1) },
        "--quiet": .flag { $0.quiet = true },
        "--fail-on-error": .flag { $0.failOnError = true },
        "--budget": .init(repeatable: true) { run, text in
            guard let budget = try? LoadBudget(parsing: text) else { return false }
            run.budgets.append(budget)
            return true
        },
        "--junit": .value(String.self) { $0.junit = $1 },
        "--summary": .value(String.self) { $0.summary = $1 },
        "--content": .value(String.self) { $0.content = $1 },
        "--public-key": .value(String.self) { $0.publicKey = $1 },
        "--allow-downgrade": .flag { $0.allowDowngrade = true },
        "--check-content": .flag { $0.checkContent = true },
        "--require-first-online-check": .flag { $0.requireFirstOnlineCheck = true },
        "--access-token": .value(String.self) { $0.accessToken = $1 },
        "--mapbox-api-url": .value(String.self) { $0.mapboxAPIURL = $1 },
    ]
}
