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
        var style: String?
        var given = Set<String>()
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("-"), argument != "-" else {
                guard style == nil else { return nil }
                style = argument
                continue
            }
            var name = argument == "-q" ? "--quiet" : argument
            var inline: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let option = Self.plainOptions[name], option.repeatable || given.insert(name).inserted else { return nil }
            let value: String
            if option.takesValue {
                if let inline {
                    value = inline
                } else {
                    guard let next = rest.popFirst(), option.unconditional || !next.hasPrefix("-") else { return nil }
                    value = next
                }
            } else {
                guard inline == nil else { return nil }
                value = ""
            }
            guard option.apply(&run, value) else { return nil }
        }
        guard let style else { return nil }
        run.style = style
        guard (try? run.loading.validate()) != nil, (try? run.validate()) != nil else { return nil }
        self = run
    }

    /// How the plain reader takes one option: whether it takes a value, whether that value may
    /// start with `-` (ArgumentParser's `.unconditional`), whether it may be repeated, and how it
    /// sets it — false when the value does not parse.
    struct PlainOption: Sendable {
        var takesValue = true
        var unconditional = false
        var repeatable = false
        var apply: @Sendable (inout LoadRun, String) -> Bool

        /// A flag: it sets a Boolean to true.
        static func flag(_ set: @escaping @Sendable (inout LoadRun) -> Void) -> PlainOption {
            PlainOption(takesValue: false) { run, _ in
                set(&run)
                return true
            }
        }

        /// An option whose value is read by `T(argument:)`.
        static func value<T: ExpressibleByArgument>(_: T.Type, unconditional: Bool = false, repeatable: Bool = false,
                                                    _ set: @escaping @Sendable (inout LoadRun, T) -> Void) -> PlainOption {
            PlainOption(unconditional: unconditional, repeatable: repeatable) { run, text in
                guard let value = T(argument: text) else { return false }
                set(&run, value)
                return true
            }
        }
    }

    /// Every option of `mapsim load` the plain reader takes, by its long name (and `-q`'s).
    static let plainOptions: [String: PlainOption] = [
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
        "--budget": PlainOption(repeatable: true) { run, text in
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
        // The loading options.
        "--cache": .value(String.self) { $0.loading.cache = $1 },
        "--max-cache-size": .value(ByteSizeArgument.self) { $0.loading.maxCacheSize = $1 },
        "--no-cache": .flag { $0.loading.noCache = true },
        "--offline": .flag { $0.loading.offline = true },
        "--network": .value(String.self) { $0.loading.network = $1 },
        "--mirror": .value(MirrorArgument.self, repeatable: true) { $0.loading.mirror.append($1) },
        "--offline-window": .value(WindowArgument.self, repeatable: true) { $0.loading.offlineWindow.append($1) },
        "--seed": .value(UInt64.self, unconditional: true) { $0.loading.seed = $1 },
        "--max-requests": .value(Int.self, unconditional: true) { $0.loading.maxRequests = $1 },
        "--max-tiles": .value(Int.self, unconditional: true) { $0.loading.maxTiles = $1 },
        "--asset-root": .value(String.self) { $0.loading.assetRoot = $1 },
        "--request-timeout": .value(DurationArgument.self, unconditional: true) { $0.loading.requestTimeout = $1 },
        "--engine": .value(Engine.Name.self) { $0.loading.engine = $1 },
        "--local-ideographs": .value(String.self) { $0.loading.localIdeographs = $1 },
        "--mode": .value(MapMode.self) { $0.loading.mode = $1 },
    ]
}
