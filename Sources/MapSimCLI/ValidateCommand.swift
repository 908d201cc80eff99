import ArgumentParser
import Foundation
import CHeapGrowth
import MapSimKit
import Synchronization

/// `mapsim validate FILE...`: check styles against the style spec, as gl-style-validate does.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        // Parsed as a root by `mapsim COMMAND` (MapSimCommand.leafCommand): "mapsim" is its super-command.
        _superCommandName: "mapsim",
        abstract: "Check styles against the style spec v8, with gl-style-validate's messages.",
        discussion: """
        Prints FILE:LINE: message for each problem and nothing for a valid style; --json prints \
        [{"message": ..., "line": ...}] as gl-style-validate --json does. "-" reads standard input. \
        A style may be given by URL: an http(s) URL, or mapbox://styles/USER/ID on the Mapbox API \
        (with a token: --access-token or MAPBOX_ACCESS_TOKEN), read over the network (10 s to \
        connect, 30 s of silence, or --timeout) and named by its URL:

            mapsim validate --deep http://127.0.0.1:8080/style.json

        Checked: root properties, sources, layers, every property's type, enum, range and \
        color, legacy functions and filters, and expressions, type-checked as the reference \
        does (operators, argument types, where zoom and feature data may appear). A JSON \
        syntax error is reported as gl-style-validate's reader reports it.

        --engine picks whose specification: maplibre-native and maplibre-gl-js (the default) \
        check MapLibre's, with MapLibre's gl-style-validate's messages, and note that MapLibre \
        ignores a style's "imports"; mapbox checks Mapbox's current specification (the Maps SDK \
        v11's: imports, schema and config, slots, lights, fog, snow, rain, color-theme, camera, \
        models, iconsets, featuresets, the model, sky, slot, clip, building and raster-particle \
        layers, raster-array sources, Mapbox's expressions) and mapbox-gl-js Mapbox GL JS \
        3.0.1's, each with Mapbox's validateStyle messages. For example:

            mapsim validate --engine mapbox styles/standard-like.json

        --deep then reports every value the map's loader refuses (a source's maxzoom of \
        1000000, a tileSize of 0: `mapsim load` would not load the style), and loads each style \
        through the pipeline, with the same options as mapsim load (cache, network, offline), at \
        the style's own camera, and reports every sprite, glyph range, TileJSON or tile that does \
        not resolve, with its URL, and every symbol layer whose icon-image the sprite lacks (a \
        style on standard input is loaded as mapsim load - loads it: its relative URLs resolve in \
        the current folder). It \
        loads it as each engine would — MapLibre Native, MapLibre GL JS, Mapbox; --engine for one \
        — with each engine's strictness: a glyph without its width and height fails GL JS's tiles, \
        a sprite image outside its sheet is dropped by MapLibre Native, a PNG that does not decode \
        fails every engine. A problem only some engines have is prefixed with their names. Each \
        resource is tried once (--retries N for more), many at once under --max-requests, and \
        each one that fails is reported once. Each engine's load has --timeout (60 s) to go idle: \
        one still waiting for answers then is an error naming them, and a load that takes a while \
        says how far it is on standard error every 10 s:

            mapsim validate --deep --engine maplibre-native --timeout 5s style.json

        A Mapbox engine (mapbox, mapbox-gl-js) follows the style's imports: each imported style \
        is fetched and read, and its sources, sprites, glyphs, models and layers checked, each \
        problem named by its chain of imports (import basemap → landmarks: ...); point mapbox:// \
        URLs at a server with --mapbox-api-url. For MapLibre's \
        engines a style with imports gets one warning that MapLibre ignores them. Without --deep \
        the output is gl-style-validate's, byte for byte.

        \(ExitStatus.section([(ExitStatus.success, "every style is valid"), (ExitStatus.failure, "a style is not valid"),
                             (ExitStatus.unreadableInput, "a file cannot be read, or a URL's server answers no style")]))
        """
    )

    @Argument(help: "Style files, or their http(s) or mapbox:// URLs; - for standard input.")
    var files: [String]

    @Flag(help: "Print the problems as JSON, as gl-style-validate --json does (one array per file).")
    var json = false

    @Option(help: ArgumentHelp("jsonl: one JSON object per file, {\"file\", \"diagnostics\": [{\"message\", \"line\"}]} (or \"error\" when it cannot be read), for scripts.", valueName: "FORMAT"))
    var format: ValidateFormat?

    @Flag(help: "Also load the style and report what does not resolve.")
    var deep = false

    @Option(parsing: .unconditional, help: "With --deep: retry a failed resource this many times, on the SDK's schedule (default: no retry).")
    var retries: Int = 0

    @Option(parsing: .unconditional, help: ArgumentHelp("With --deep: how long each engine's load may take to reach map-idle, and a server to answer (500ms, 2s; a bare number is seconds; default 60 s, and 30 s of a server's silence). A load still waiting for answers then is an error naming them. For a style given by URL, also how long its server may take to answer.", valueName: "DURATION"))
    var timeout: DurationArgument?

    @OptionGroup(title: "Loading (with --deep)")
    var loading: LoadingOptions

    @OptionGroup(title: "mapbox:// URLs (with --deep)")
    var mapbox: MapboxOptions

    @Option(name: .customLong("config"), help: ArgumentHelp("With --deep and a Mapbox engine: set config NAME of the import IMPORT (NAME=JSON alone for the root style) before loading, as load --config does (repeatable).", valueName: "IMPORT.NAME=JSON"))
    var config: [ConfigArgument] = []

    func run() async throws {
        // An option that would do nothing is refused.
        guard deep || config.isEmpty else { throw ValidationError("--config sets config values for the load --deep makes: add --deep") }
        let urls = files.filter(StyleURLInput.isURL)
        guard deep || timeout == nil || !urls.isEmpty else { throw ValidationError("--timeout limits the load --deep makes, or the reading of a style URL: add --deep") }
        if let limit = timeout?.time, limit <= .zero || limit > .seconds(86_400) {
            throw ValidationError("--timeout must be above 0 and at most a day (86400 s), not \(limit.shortDescription)")
        }
        let format = format ?? (json ? .json : .text)
        let flavor = loading.engine.flatMap { StyleSpecFlavor(engine: $0.rawValue) } ?? .maplibre
        if !urls.isEmpty && loading.offline { throw ValidationError("--offline sends nothing to the network, and \(urls[0]) is read from it: give the style's file") }
        for url in urls { try MapboxOptions.requireToken(mapbox.normalizer, forStyle: url, offline: false) }
        // Styles given by URL are read first, each once: the checks then read them as they read files.
        var fetched: [String: Result<[UInt8], InputFileError>] = [:]
        for url in urls where fetched[url] == nil {
            do throws(InputFileError) {
                fetched[url] = .success(try await StyleURLInput.read(url, mapbox: mapbox.normalizer, timeout: timeout?.time))
            } catch {
                fetched[url] = .failure(error)
            }
        }
        let status = deep ? await Self.validate(files, format: format, deepLoading: loading.settings, mapbox: mapbox.normalizer, retries: retries, config: config,
                                                timeout: timeout?.time, fetched: fetched)
            : Self.validate(files, format: format, flavor: flavor, fetched: fetched)
        if status != ExitStatus.success { throw status }
    }

    /// A plain `mapsim validate [--json] FILE...`, recognized before the argument parser runs so
    /// that the most common validation starts as light as the reference tool.
    struct PlainRequest {
        let files: [String]
        let json: Bool

        init?(_ arguments: [String]) {
            guard arguments.first == "validate" else { return nil }
            let rest = arguments.dropFirst()
            let files = rest.filter { $0 != "--json" }
            // A style URL is read over the network, with the options of the full command.
            guard !files.isEmpty, files.allSatisfy({ $0 == "-" || !$0.hasPrefix("-") && !StyleURLInput.isURL($0) }) else { return nil }
            self.files = files
            json = rest.contains("--json")
        }
    }

    /// Validates `files` without loading them, on the calling thread — a plain run stays on the main
    /// thread: a hop to a worker thread would cost it a second allocator arena (1.4 MB). The exit
    /// status: success when valid, failure when invalid, unreadable input when a file cannot be read.
    /// `flavor` is whose specification and messages: MapLibre's (the default) or Mapbox's. A style
    /// given by URL is read from `fetched`.
    static func validate(_ files: [String], format: ValidateFormat, flavor: StyleSpecFlavor = .maplibre,
                         fetched: [String: Result<[UInt8], InputFileError>] = [:]) -> ExitCode {
        // A large style's layers are checked on threads whose allocations grow heaps of their own:
        // grown 1 MiB at a time rather than 128 KiB, a thread's heap takes a few system calls, not
        // 60 to 100 on the check's critical path (Mapbox Streets: 0.25 ms of 9, peak memory the same).
        _ = mapsim_heap_grow_in_steps_of(heapGrowthStep)
        var outcome = Outcome()
        for file in files {
            guard let (_, diagnostics) = check(file, format: format, flavor: flavor, fetched: fetched, outcome: &outcome) else { continue }
            outcome.record(diagnostics, file: file, format: format)
        }
        return outcome.status
    }

    /// How much more than an allocation needs the allocator grows a heap by, while validating.
    private static let heapGrowthStep = 1 << 20

    /// What the loader refuses of the style `bytes` by the spec of each of `engines`, in their order:
    /// nothing when one of them refuses nothing, else the first one's refusals.
    private static func loaderRefusals(_ bytes: [UInt8], engines: [Engine.Name]) -> [StyleError] {
        var flavors: [StyleSpecFlavor] = []
        for engine in engines {
            let flavor = StyleSpecFlavor(engine: engine.rawValue) ?? .maplibre
            if !flavors.contains(flavor) { flavors.append(flavor) }
        }
        var first: [StyleError]?
        for flavor in flavors {
            let refusals = Style.refusals(bytes, flavor: flavor)
            if refusals.isEmpty { return [] }
            first = first ?? refusals
        }
        return first ?? []
    }

    /// Validates `files`, and loads each one that is JSON as `deepLoading` says, `mapbox://` URLs
    /// normalized by `mapbox`, each engine's load given `timeout` to go idle and the network as
    /// long to answer (without one: 60 s, and the network's own limits: 30 s of silence); the exit
    /// status as `validate(_:format:)` gives it. A load that takes a while says how far it is on
    /// standard error every 10 s (`MAPSIM_PROGRESS_INTERVAL`).
    static func validate(_ files: [String], format: ValidateFormat, deepLoading: LoadingSettings, mapbox: MapboxURL, retries: Int,
                         config: [ConfigArgument] = [], timeout: SimTime? = nil, fetched: [String: Result<[UInt8], InputFileError>] = [:]) async -> ExitCode {
        let settings = config.map { (importID: $0.importID, name: $0.name, value: $0.value == .null ? nil : Optional($0.value)) }
        var outcome = Outcome()
        let flavor = deepLoading.engine.flatMap { StyleSpecFlavor(engine: $0.rawValue) } ?? .maplibre
        for file in files {
            guard case (let bytes, var diagnostics)? = check(file, format: format, flavor: flavor, fetched: fetched, outcome: &outcome) else { continue }
            if (try? JSONParser.parse(bytes)) != nil {
                let styleURL = StyleLocation.url(for: file)
                // A style the loader refuses by the spec of every engine checked loads in none: what
                // it refuses (by the first engine's spec) is the whole report. One that only some
                // refuse — a Mapbox layer type, for MapLibre — is reported by their loads.
                let engines = deepLoading.engine.map { [$0] } ?? Engine.Name.allCases
                let refusals = loaderRefusals(bytes, engines: engines)
                guard refusals.isEmpty else {
                    let lines = JSONLineIndex(scanning: bytes)
                    diagnostics += refusals.map { StyleDiagnostic(message: "the loader refuses \($0)", line: lines.line($0.path)) }
                    outcome.record(diagnostics, file: file, format: format)
                    continue
                }
                var byEngine: [(engine: Engine.Name, diagnostics: [StyleDiagnostic])] = []
                for engine in engines {
                    var options = deepLoading
                    options.engine = engine
                    guard let environment = try? options.environment(styleURL: styleURL, mapbox: mapbox, maximumRetries: retries, budget: timeout) else {
                        return ExitStatus.cannotWrite
                    }
                    let summary = Mutex(LoadSummary())
                    let ticker = ProgressTicker(enabled: true, onTerminal: true) { seconds in
                        "validate --deep: \(file) as \(engine.rawValue): " + LoadRun.progress(summary.withLock { $0 }, after: seconds)
                    }
                    // MapLibre's static check has said that the imports are ignored: once is enough.
                    let found = await DeepValidator.validate(styleURL: styleURL, bytes: bytes, givenAsJSON: file == "-", environment: environment, config: settings,
                                                            timeout: timeout ?? .seconds(60), warnsOfIgnoredImports: flavor != .maplibre) { event in
                        summary.withLock { $0.record(event) }
                    }
                    ticker.stop()
                    byEngine.append((engine, found))
                    await environment.shutdown()
                }
                diagnostics += Self.merged(byEngine)
            }
            outcome.record(diagnostics, file: file, format: format)
        }
        return outcome.status
    }

    /// The diagnostics of each engine's load, each once: one every engine has as it is, one that
    /// only some have prefixed with their names (`maplibre-gl-js: ...`).
    static func merged(_ byEngine: [(engine: Engine.Name, diagnostics: [StyleDiagnostic])]) -> [StyleDiagnostic] {
        var merged: [StyleDiagnostic] = []
        var seen = Set<String>()
        for (_, diagnostics) in byEngine {
            for diagnostic in diagnostics where seen.insert(diagnostic.message).inserted {
                let engines = byEngine.filter { $0.diagnostics.contains { $0.message == diagnostic.message } }.map(\.engine)
                var shown = diagnostic
                if engines.count < byEngine.count { shown.message = engines.map(\.rawValue).joined(separator: ", ") + ": " + diagnostic.message }
                merged.append(shown)
            }
        }
        return merged
    }

    /// What a run of the validator found so far.
    private struct Outcome {
        var invalid = false
        var unreadable = false

        var status: ExitCode { unreadable ? ExitStatus.unreadableInput : invalid ? ExitStatus.failure : ExitStatus.success }

        mutating func record(_ diagnostics: [StyleDiagnostic], file: String, format: ValidateFormat) {
            invalid = invalid || diagnostics.contains { !$0.isWarning }
            printDiagnostics(diagnostics, file: file, format: format)
        }
    }

    /// Reads `file` (a URL's bytes from `fetched`) and checks it against `flavor`'s style spec; nil
    /// (reported) when it cannot be read.
    private static func check(_ file: String, format: ValidateFormat, flavor: StyleSpecFlavor, fetched: [String: Result<[UInt8], InputFileError>],
                              outcome: inout Outcome) -> (bytes: [UInt8], diagnostics: [StyleDiagnostic])? {
        let bytes: [UInt8]
        do {
            bytes = try fetched[file]?.get() ?? InputFile.read(file, limit: Style.maximumDocumentSize)
        } catch {
            printError("mapsim: \(error)")
            if format == .jsonl {
                print(JSONWriter.string(.object(JSONObject([("file", .string(file)), ("error", .string("\(error)"))]))))
            }
            outcome.unreadable = true
            return nil
        }
        return (bytes, StyleValidator.validate(bytes, flavor: flavor))
    }

    private static func printDiagnostics(_ diagnostics: [StyleDiagnostic], file: String, format: ValidateFormat) {
        switch format {
        case .json:
            print(StyleDiagnostic.jsonText(diagnostics))
        case .jsonl:
            // Each diagnostic as in --json.
            print(JSONWriter.string(.object(JSONObject([("file", .string(file)), ("diagnostics", .array(diagnostics.map(\.json)))]))))
        case .text:
            for diagnostic in diagnostics {
                print("\(file):\(diagnostic.line.map { "\($0):" } ?? "") \(diagnostic.isWarning ? "warning: " : "")\(diagnostic.message)")
            }
        }
    }
}

/// How `mapsim validate` prints.
enum ValidateFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, jsonl
}
