import ArgumentParser
import Foundation
import MapSimKit
import Synchronization

/// `mapsim load STYLE`: load a style as a map would, print each event and a summary.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        // Parsed as a root by `mapsim COMMAND` (MapSimCommand.leafCommand): "mapsim" is its super-command.
        _superCommandName: "mapsim",
        abstract: "Load a style as a Mapbox/MapLibre map would, and report every event.",
        discussion: """
        STYLE is a file path, or a file://, asset://, http(s):// or mapbox:// URL. Relative URLs in \
        the style (sprite, glyphs, sources, tiles) resolve against the style's own URL; asset:// \
        URLs resolve under --asset-root (default: the style's folder) and may not leave it.

        Remote resources go through a cache that survives between runs (--cache, --no-cache): a \
        cached copy is used at once and revalidated with the server, as the SDKs do. http(s) URLs \
        use the real network unless --network PROFILE simulates one, serving --mirror folders. \
        --offline sends nothing to the network: the map loads what the cache has and still goes idle.

        Every file mapsim writes (--events, --trace, --summary, --junit, --cache) goes in a folder \
        that exists: a mistyped folder is an error (exit 74), never made; only the default cache's \
        own folder is made.

        Time is virtual: loading is as fast as the machine allows, and two runs of the same load \
        give byte-identical events. The camera defaults to the style's own center, zoom, bearing \
        and pitch; any flag given overrides that field only.

        --engine says whose map it is. maplibre-native (the default) is MapLibre Native in an app: \
        tiles covered scan line by scan line, the view four zooms below prefetched, 20 requests at \
        once, failures retried. maplibre-gl-js is MapLibre GL JS in a browser: tiles in the \
        camera's frustum, no prefetch, six connections per host, no retries, the browser's HTTP \
        cache, CJK drawn with a local font, and glyphs GL JS cannot draw failing their tiles. \
        mapbox is the Mapbox Maps SDK: as MapLibre Native, prefetching at multiples of four zooms. \
        GL JS and MapLibre Native's still mode are checked against the real engines' requests; \
        Native's continuous-mode prefetch is modelled from its source (no oracle runs it here) and \
        Mapbox's defaults from its documentation. The trace header names the engine. GL JS \
        covers a style's globe (`"projection": {"type": "globe"}`, below zoom 12) and its 3D \
        terrain (the terrain source's DEM tiles, their heights read from the PNGs) as GL JS \
        5.24.0 does; mapbox-gl-js covers a Mapbox globe (`"projection": {"name": "globe"}`, \
        below zoom 6), a steep view's fog and 3D terrain (its DEM two zooms coarser than the \
        view, the camera raised on the centre's height) as Mapbox GL JS 3.0.1 does; MapLibre \
        Native and Mapbox draw them flat and say so once (style-feature-ignored).

        --pitch goes up to the engine's default maxPitch — 60 degrees for MapLibre Native and \
        MapLibre GL JS, 85 for the Mapbox SDK and Mapbox GL JS —; --max-pitch changes that \
        limit, up to 85 (GL JS's steepest views, past which the ground is mostly sky). A \
        --pitch above the limit is refused, naming both.

        Output: one line per event with its virtual time, then a summary (milestone times, \
        requests and bytes by kind, the critical path — the chain of requests whose arrivals \
        decided when map-idle came —, errors). --events writes every event as a JSON line as it \
        happens:
          {"type": "<event>", "begin": <µs>, "end": <µs>, "data": {<Mapbox payload>}}
        --summary FILE writes the summary as JSON. When standard output is no terminal (a CI log), \
        a progress line goes to standard error every 10 s of a long load (-q: none).

        A load as a CI gate: --fail-on-error makes any map-loading-error fail it (a map goes \
        idle when tiles fail, so mapsim does; this says that is not good enough), and --budget \
        NAME=LIMIT, repeatable, sets a limit as Lighthouse budgets do: style-loaded, map-loaded, \
        map-idle (a duration on the load's clock: 800ms, 2s; a bare number is seconds), requests and requests.KIND, bytes \
        and bytes.KIND (500KB, 5MB; KB and MB are 1000s, KiB and MiB 1024s; KIND as the summary \
        names it: style, source, tile, glyphs, sprite-json, sprite-image, image), errors. Each \
        budget is listed as met or exceeded; an exceeded one is also a line on standard error \
        (budget map-idle: 333.3 ms > 100 ms). --junit FILE writes one test case for the load, \
        one for errors and one per budget. --request-timeout fails a network request with no \
        answer by then, naming its URL, instead of waiting for the server. --timeout (60 s unless \
        given) is the whole budget: the load and every request in it, retries included, end by \
        then, on the real network as on a simulated one; what is still unanswered is named in the \
        summary (timed out) and the events (a cancelled resource-request saying why), and the \
        load exits 2.

        Files mapsim writes never replace one of yours: an output path that holds a file is \
        replaced only when that file is one mapsim wrote (an events file, a trace, a summary, a \
        JUnit report), or empty; anything else is refused (exit 74) and left as it is. --cache opens \
        only a cache (MapLibre's offline database); a damaged one of its own is moved aside, any \
        other file refused, untouched. mapbox:// URLs need --access-token or MAPBOX_ACCESS_TOKEN: \
        without one a mapbox:// style is refused at once (exit 64).

        --live SOURCE=FEED then feeds live data into the style's GeoJSON source SOURCE: from an \
        MQTT broker in real time (subscribed to --criteria, for --for; the map's clock then \
        follows the wall clock), or from a recording of `mapsim live listen --events`, replayed on \
        the virtual clock; --count N stops once N messages came. An update's item id is the \
        feature id; a position update's longitude and latitude move the feature; every property \
        is set as live.DOMAIN.NAME (live.occupancy.state) for data-driven layers to read.

        --live-domain DOMAIN makes the live data follow the view, as MapsIndoors' \
        enableLiveData: the source's features with dataset, venue, building and floor properties \
        (other names with --location-fields) are locations; for each floor shown (--floor, else \
        the lowest) the whole floor is one criteria when more than half of its locations are in \
        view, else each location in view is one; each location with a live state is drawn with the \
        icon live-DOMAIN-STATE (or live-DOMAIN) from the sprite, and live-locations-updated lists \
        the locations each change touched. --criteria may add subscriptions of your own.

        \(ExitStatus.section([(ExitStatus.success, "the --until state was reached (with --fail-on-error, without an error; every --budget met)"), (ExitStatus.failure, "the style failed to load or parse, a budget was exceeded, an error happened under --fail-on-error, or a --live update could not be read or applied"), (ExitStatus.notReached, "the timeout passed first (for example when a TileJSON fails, so the map never loads)"), (ExitStatus.usage, "bad arguments (a --live SOURCE that is not a GeoJSON source of the style, a --live-domain that is not one topic level, a mapbox:// style without a token, a --mirror folder that does not exist)"), (ExitStatus.invalidData, "the --content package is not valid, or older than the installed version (nothing is imported)"), (ExitStatus.unavailable, "the --live broker cannot be reached, or --require-first-online-check failed"), (ExitStatus.cannotWrite, "--events, --trace, --junit or --summary cannot be written (or would replace a file that is not mapsim's), or --cache cannot be opened or is not a cache"), (ExitStatus.interrupted, "Ctrl-C (what was recorded is written first)"), (ExitStatus.terminated, "SIGTERM (likewise)"), (ExitStatus.hungUp, "SIGHUP (likewise)")]))

        --content PKG --public-key KEY imports a signed content package (`mapsim content pack`) into \
        the cache first, pinned, so that a first run loads with no network (--offline); the package \
        is checked entirely — signature, every item — before anything is written, and a version \
        lower than the one installed is refused unless --allow-downgrade (anti-rollback). Then the \
        site's content is checked as `mapsim content check` does, before the style loads \
        (content-ready, content-start and content-complete-all are in the events); \
        --check-content runs that check without a package. With --require-first-online-check, \
        a cache in which no check ever completed refuses to load (exit 69).

        Examples:
          mapsim load styles/sample/style.json
          mapsim load styles/sample/style.json --center -122.42,37.78 \\
              --zoom 11 --pitch 45
          mapsim load styles/sample/style.json --until map-loaded \\
              --events load.jsonl --quiet
          mapsim load http://127.0.0.1:8080/style.json --fail-on-error \\
              --budget map-idle=2s --budget bytes=5MB --junit load.xml
          mapsim load http://127.0.0.1:8080/style.json --request-timeout 1s
          mapsim load styles/sample/style.json --engine maplibre-gl-js --fail-on-error
          mapsim load styles/features/terrain/style.json --engine maplibre-gl-js \\
              --center 8.54,47.37 --zoom 11.5 --pitch 80 --max-pitch 85
          mapsim load http://127.0.0.1:8080/style.json
          mapsim load https://maps.test/style.json --network 3g \\
              --mirror https://maps.test/=styles/sample
          mapsim load https://maps.test/style.json --offline
          mapsim load styles/live/style.json \\
              --live rooms=mqtt://127.0.0.1:1883 --criteria 'acme/#' --for 30s
          mapsim load styles/live/style.json --live rooms=recorded.jsonl
          mapsim load styles/live/style.json --live rooms=mqtt://127.0.0.1:1883 \\
              --live-domain occupancy --floor 2 --for 30s
          mapsim load styles/live/style.json --live rooms=mqtt://127.0.0.1:1883 \\
              --criteria 'acme/#' --count 1 --for 1m
          mapsim load https://maps.test/style.json --offline \\
              --content city.mapsimpkg --public-key site-key.pub
        """
    )

    @Argument(help: "The style: a file path, or an http(s)://, file://, asset:// or mapbox:// URL.")
    var style: String

    @Option(parsing: .unconditional, help: ArgumentHelp("The centre of the view (default: the style's).", valueName: "LON,LAT"))
    var center: LngLatArgument?

    @Option(parsing: .unconditional, help: "The camera zoom, 0–25.5 (default: the style's).")
    var zoom: Double?

    @Option(parsing: .unconditional, help: "Degrees clockwise from north; negative counter-clockwise (default: the style's).")
    var bearing: Double?

    @Option(parsing: .unconditional, help: "Degrees of tilt, 0 to --max-pitch (default: the style's).")
    var pitch: Double?

    @Option(parsing: .unconditional, help: "The steepest pitch the map takes (its maxPitch), 0–85 (default: the engine's, 60 or 85); a style's own pitch above it is clamped to it.")
    var maxPitch: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("The view size in logical pixels, each side 1 to 16384.", valueName: "WxH"))
    var size: SizeArgument = SizeArgument(width: 512, height: 512)

    @Option(parsing: .unconditional, help: "Device pixels per logical pixel, above 0 and at most 8; above 1 loads @2x sprites and {ratio} tiles.")
    var pixelRatio: Double = 1

    @Option(help: "The state to run until: style-loaded, map-loaded or map-idle.")
    var until: Map.State = .mapIdle

    @Option(parsing: .unconditional, help: ArgumentHelp("Give up after this long (90s, 2min; a bare number is seconds; default 60s): the whole budget of the load and of every request in it, retries included. Requests still unanswered then are named.", valueName: "DURATION"))
    var timeout = DurationArgument(argument: "60")!

    @Option(name: .customLong("global-state"), help: ArgumentHelp("Set global state NAME (what [\"global-state\", NAME] reads) to a JSON value over the style's default, before the style loads (repeatable; a VALUE that is not JSON is a string).", valueName: "NAME=JSON"))
    var globalState: [GlobalStateArgument] = []

    @Option(name: .customLong("config"), help: ArgumentHelp("Set config NAME of the import IMPORT of a Mapbox style (what [\"config\", NAME] reads in that import's layers; NAME=JSON alone for the root style) before the style loads, as setConfigProperty (repeatable; a VALUE that is not JSON is a string).", valueName: "IMPORT.NAME=JSON"))
    var config: [ConfigArgument] = []

    @Option(help: ArgumentHelp("Write every event to FILE as JSON lines.", valueName: "FILE"))
    var events: String?

    @Option(help: ArgumentHelp("Record a trace: YAML for .yaml/.yml (golden-trace form), else JSON lines with a header.", valueName: "FILE"))
    var trace: String?

    @Option(help: ArgumentHelp("Also redact this query parameter in every output (repeatable; access_token, key, token and others always are).", valueName: "NAME"))
    var redact: [String] = []

    @OptionGroup(title: "Loading")
    var loading: LoadingOptions

    @OptionGroup(title: "mapbox:// URLs")
    var mapbox: MapboxOptions

    @Flag(name: .shortAndLong, help: "Print only the summary, not each event (and no progress lines).")
    var quiet = false

    @Flag(help: "Exit 1 when any map-loading-error happens, though the map went idle.")
    var failOnError = false

    @Option(name: .customLong("budget"), help: ArgumentHelp("A limit the load must keep (repeatable): map-idle=2s, requests.tile=40, bytes=5MB, errors=0.", valueName: "NAME=LIMIT"),
            transform: { text in try LoadBudget(parsing: text) })
    var budgets: [LoadBudget] = []

    @Option(help: ArgumentHelp("Write a JUnit XML report: the load, its errors and each budget as a test case.", valueName: "FILE"))
    var junit: String?

    @Option(help: ArgumentHelp("Write the summary as JSON: milestones, traffic, critical path, errors, budgets.", valueName: "FILE"))
    var summary: String?

    @OptionGroup(title: "Live data")
    var liveData: LiveArguments

    @Option(help: ArgumentHelp("Import this signed content package into the cache before loading (a first run offline).", valueName: "PKG"))
    var content: String?

    @Option(help: ArgumentHelp("With --content: the public key the package must be signed with.", valueName: "KEY"))
    var publicKey: String?

    @Flag(help: "With --content: install the package even when its version is lower than the one installed.")
    var allowDowngrade = false

    @Flag(help: "Check the site's content (manifest.json next to the style) before the style loads, as `mapsim content check` does.")
    var checkContent = false

    @Flag(help: "Refuse to load (exit 69) when this cache has never reached the site's content server, as the SDK refuses on a fresh install.")
    var requireFirstOnlineCheck = false

    /// The map's steepest pitch: `--max-pitch`, else the engine's.
    var maximumPitch: Double { maxPitch ?? loading.chosenEngine.maximumPitch }

    /// `--max-pitch` when it is not the engine's: the trace header records it, as it changes the cover.
    var raisedMaximumPitch: Double? { maxPitch == loading.chosenEngine.maximumPitch ? nil : maxPitch }

    func validate() throws {
        try size.check("--size")
        try CameraArguments.validate(center: center?.value, zoom: zoom, pitch: pitch, maximumPitch: maximumPitch)
        guard pixelRatio > 0, pixelRatio <= 8 else { throw ValidationError("--pixel-ratio must be above 0 and at most 8") }
        guard timeout.time > .zero, timeout.time <= .seconds(86_400) else {
            throw ValidationError("--timeout must be above 0 and at most a day (86400 s), not \(timeout.time.shortDescription)")
        }
        try mapbox.requireToken(forStyle: style, offline: loading.offline)
        _ = try liveData.feed()
        guard (content == nil) == (publicKey == nil) else { throw ValidationError("--content and --public-key go together") }
        if allowDowngrade && content == nil { throw ValidationError("--allow-downgrade goes with --content") }
        if content != nil && loading.noCache { throw ValidationError("--content imports into the cache: it cannot go with --no-cache") }
        if (requireFirstOnlineCheck || checkContent) && loading.noCache {
            throw ValidationError("the data manager keeps the site's content in the cache: --check-content and --require-first-online-check cannot go with --no-cache")
        }
    }

    /// The data manager's part of a load, before the style loads (an update never changes a map
    /// mid-load): import the package, then check online, the events in the map's stream; with
    /// --require-first-online-check, a cache that never completed a check refuses to go on.
    private func prepareContent(styleURL: String, environment: LoadingEnvironment, map: Map) async throws {
        guard content != nil || requireFirstOnlineCheck || checkContent else { return }
        guard let cache = environment.cache else {
            throw ExitStatus.fail(ExitStatus.cannotWrite, "the data manager needs a cache, and none could be opened: \(environment.warnings.joined(separator: "; "))")
        }
        let session = await ContentSession(map: map, cache: cache, styleURL: styleURL,
                                           configuration: .init(requiresFirstOnlineCheck: requireFirstOnlineCheck))
        if let content, let publicKey {
            try await importContent(content, publicKey: publicKey, into: session)
        }
        let outcome = await session.loadData(force: false)
        for (key, message) in outcome.errors.sorted(by: { $0.key < $1.key }) { printError("mapsim: content \(key): \(message)") }
        guard await session.styleLoadStarting() else {
            throw ExitStatus.fail(ExitStatus.unavailable,
                                  "the first online check is mandatory (--require-first-online-check), and none has ever completed from this cache")
        }
    }

    /// Checks the package with the key, then imports it; a package that does not check writes nothing.
    private func importContent(_ path: String, publicKey: String, into session: ContentSession) async throws {
        let bytes: [UInt8]
        let keyText: [UInt8]
        do {
            keyText = try InputFile.read(publicKey, limit: 4096)
            bytes = try InputFile.read(path, limit: 4 << 30)
        } catch {
            throw ExitStatus.fail(error)
        }
        do {
            let package = try ContentPackage(bytes, key: try ContentSigningKey.publicKey(String(decoding: keyText, as: UTF8.self)))
            let summary = try await session.importPackage(package, allowingDowngrade: allowDowngrade)
            printError("mapsim: imported \(summary.site) version \(summary.version) from \(path): \(summary.resources) resources and \(summary.tiles) tiles, pinned in the cache")
        } catch {
            throw ExitStatus.fail(ExitStatus.invalidData, "\(path): \(error); nothing was imported")
        }
    }

    /// Feeds live data into `source` until the feed ends, its time is up or a signal stops it: the
    /// failure, if any, and the signal.
    private func runLive(_ feed: LiveFeed, source: String, on map: Map) async -> (LiveFeedError?, Int32?) {
        let duration = liveData.duration?.time
        let seed = loading.seed
        let view = try? liveData.view()
        let count = liveData.count
        let live = Task { try await feed.run(on: map, source: source, for: duration, count: count, seed: seed, view: view) }
        let stop = StreamStop { live.cancel() }
        defer { stop.cancel() }
        switch await live.result {
        case .success:
            _ = await map.run(until: .mapIdle, timeout: timeout.time)
            return (nil, stop.caughtSignal)
        case .failure(let error):
            return (error as? LiveFeedError ?? LiveFeedError(.unreachable, "\(error)", underlying: error), stop.caughtSignal)
        }
    }

    /// A progress line for a log: how long, what was answered, which milestones came.
    static func progress(_ summary: LoadSummary, after seconds: Int) -> String {
        let total = summary.total
        let milestones = [("style-loaded", summary.styleLoaded), ("map-loaded", summary.mapLoaded), ("map-idle", summary.mapIdle)]
            .map { name, time in time.map { "\(name) at \($0)" } ?? "\(name) not yet" }
        return "loading for \(seconds) s: \(total.requests) request\(total.requests == 1 ? "" : "s") answered (\(ByteCount.format(total.bytes)))"
            + (total.failures > 0 ? ", \(total.failures) failed" : "") + "; " + milestones.joined(separator: ", ")
    }

    /// Fails the load when the gate says so: an error under --fail-on-error, an exceeded budget.
    private func checkGate(_ figures: LoadSummary, verdicts: [BudgetVerdict]) throws {
        let exceeded = verdicts.filter { !$0.isMet }
        for verdict in exceeded { printError("mapsim: \(verdict.line)") }
        if failOnError, let first = figures.errors.first {
            let count = figures.errors.count
            throw ExitStatus.fail(ExitStatus.failure, "\(count) map-loading-error\(count == 1 ? "" : "s") (--fail-on-error); first: \(first.type.rawValue): \(first.message)")
        }
        if !exceeded.isEmpty { throw ExitStatus.failure }
    }

    /// Writes --summary and --junit.
    private func writeReports(_ figures: LoadSummary, verdicts: [BudgetVerdict], outcome: Map.RunOutcome) throws {
        do {
            if let summary { try OutputFile.write(JSONWriter.string(.object(figures.json(budgets: verdicts))) + "\n", to: summary, format: .summary) }
            if let junit { try OutputFile.write(junitReport(figures, verdicts: verdicts, outcome: outcome).xml, to: junit, format: .junit) }
        } catch {
            throw ExitStatus.fail(error)
        }
    }

    /// The load as JUnit test cases: reaching the state, its errors, each budget.
    private func junitReport(_ figures: LoadSummary, verdicts: [BudgetVerdict], outcome: Map.RunOutcome) -> JUnitReport {
        let className = "mapsim.load." + URLRedactor(parameters: URLRedactor.defaultParameters + redact).redact(style)
        var reached: String?
        switch outcome {
        case .reached: reached = nil
        case .styleFailed(let message): reached = "the map failed to load: \(message)"
        case .timedOut: reached = "\(until.rawValue) not reached within the \(timeout.time.shortDescription) --timeout"
        }
        let errorList = figures.errors.map { "\($0.type.rawValue): \($0.message)" }.joined(separator: "\n")
        let errors = figures.errors.isEmpty ? nil : "\(figures.errors.count) map-loading-error\(figures.errors.count == 1 ? "" : "s")\n" + errorList
        var cases = [
            JUnitReport.Case(name: "reaches \(until.rawValue)", className: className, failure: reached),
            JUnitReport.Case(name: "no map-loading-error", className: className, failure: failOnError ? errors : nil,
                             output: failOnError ? nil : errors),
        ]
        cases += verdicts.map { JUnitReport.Case(name: "budget \($0.budget.description)", className: className, failure: $0.isMet ? nil : $0.line) }
        return JUnitReport(name: "mapsim load", cases: cases)
    }

    func run() async throws {
        let styleURL = StyleLocation.url(for: style)
        let environment = try loading.environment(styleURL: styleURL, mapbox: mapbox.normalizer, budget: timeout.time)
        let viewport = Viewport(width: size.width, height: size.height, pixelRatio: pixelRatio)
        let camera = CameraOptions(center: center?.value, zoom: zoom, bearing: bearing, pitch: pitch)
        let map = environment.makeMap(viewport: viewport, maximumPitch: maximumPitch)
        await map.setCamera(camera)
        for setting in globalState { await map.setGlobalStateProperty(setting.name, setting.value == .null ? nil : setting.value) }
        var setState = JSONObject()
        for setting in globalState { setState[setting.name] = setting.value == .null ? nil : setting.value }
        for setting in config { await map.setConfigProperty(setting.importID, setting.name, setting.value == .null ? nil : setting.value) }
        let setConfig = ConfigArgument.object(config)

        let redactor = URLRedactor(parameters: URLRedactor.defaultParameters + redact)
        var header = Trace.Header(scenario: redactor.redact(styleURL), seed: loading.seed, engine: loading.chosenEngine.description,
                                  style: redactor.redact(styleURL), network: loading.networkName, camera: Trace.Header.camera(camera, viewport: viewport))
        header.view = Trace.Header.view(style: nil, globalState: setState, config: setConfig, maximumPitch: raisedMaximumPitch)
        let streamsTrace = trace.map { !($0.hasSuffix(".yaml") || $0.hasSuffix(".yml")) } ?? false
        let writers: [EventLineWriter]
        do {
            writers = try (events.map { [try EventLineWriter(path: $0)] } ?? [])
                + (streamsTrace ? trace.map { [try EventLineWriter(path: $0, header: header.json)] } ?? [] : [])
        } catch {
            await environment.shutdown()
            throw ExitStatus.fail(error)
        }
        let recorder = TraceRecorder(header: header, redactor: redactor, keepsEvents: trace != nil && !streamsTrace, writers: writers)
        let printer = EventPrinter(terminal: .standardOutput())
        let summary = Mutex(LoadSummary())
        let quiet = self.quiet
        let subscription = recorder.record(map) { event in
            summary.withLock { $0.record(event) }
            if !quiet { print(printer.line(for: event)) }
        }

        do {
            try await prepareContent(styleURL: styleURL, environment: environment, map: map)
        } catch {
            subscription.cancel()
            try? recorder.close()
            await environment.shutdown()
            throw error
        }
        await map.setStyleURI(styleURL)
        // A signal during the load itself (a slow network, a long --timeout) ends it as Ctrl-C ends
        // the live data: what was recorded is written, nothing temporary is left, and the exit
        // status is the signal's (130, 143, 129).
        let yamlTrace = streamsTrace ? nil : trace
        let interruption = StreamStop(caught: { signal in
            subscription.cancel()
            try? recorder.close()
            if let yamlTrace { try? OutputFile.write(recorder.trace.yaml, to: yamlTrace, format: .trace) }
            let number = signal ?? SIGINT
            printError("mapsim: stopped by \(number == SIGTERM ? "SIGTERM" : number == SIGHUP ? "SIGHUP" : "SIGINT") while loading; the events so far are written")
            Foundation.exit(ExitStatus.stopped(by: number).rawValue)
        })
        let ticker = ProgressTicker(enabled: !quiet) { seconds in
            Self.progress(summary.withLock { $0 }, after: seconds)
        }
        let outcome = await map.run(until: until, timeout: timeout.time)
        // What the map still waited for when its time was over is named, in the events and the summary.
        if case .timedOut = outcome { await map.giveUp("no answer within the \(timeout.time.shortDescription) --timeout") }
        ticker.stop()
        interruption.cancel()
        var liveFailure: LiveFeedError?
        var stoppedBy: Int32?
        var unknownSource: String?
        if case .reached = outcome, let (source, feed) = try liveData.feed() {
            let geoJSONSources = (await map.style?.sources ?? []).filter { $0.kind == .geojson }.map(\.id)
            if geoJSONSources.contains(source) {
                (liveFailure, stoppedBy) = await runLive(feed, source: source, on: map)
            } else {
                unknownSource = "--live: the style has no GeoJSON source \"\(source)\" to feed (its GeoJSON sources: "
                    + (geoJSONSources.isEmpty ? "none" : geoJSONSources.joined(separator: ", ")) + ")"
            }
        }
        subscription.cancel()
        for warning in await environment.shutdown() { printError("mapsim: warning: \(warning)") }
        do {
            try recorder.close()
            if let trace, !streamsTrace {
                // Written at the end, the header names the style's projection and terrain too.
                var recorded = recorder.trace
                recorded.header.view = Trace.Header.view(style: await map.style, globalState: setState, config: setConfig, maximumPitch: raisedMaximumPitch)
                try OutputFile.write(recorded.yaml, to: trace, format: .trace)
            }
        } catch {
            throw ExitStatus.fail(error)
        }
        for warning in await map.style?.warnings ?? [] { printError("mapsim: warning: the style's \(warning)") }
        let figures = summary.withLock { $0 }
        let verdicts = budgets.map { $0.check(figures) }
        for line in printer.summary(figures, budgets: verdicts) { print(line) }
        try writeReports(figures, verdicts: verdicts, outcome: outcome)

        if let liveFailure {
            throw ExitStatus.fail(liveFailure)
        }
        if let stoppedBy { throw ExitStatus.stopped(by: stoppedBy) }
        if let unknownSource { throw ExitStatus.fail(ExitStatus.usage, unknownSource) }
        if !figures.liveErrors.isEmpty {
            throw ExitStatus.fail(ExitStatus.failure, "\(figures.liveErrors.count) live error\(figures.liveErrors.count == 1 ? "" : "s"); first: \(figures.liveErrors[0])")
        }
        switch outcome {
        case .reached:
            try checkGate(figures, verdicts: verdicts)
        case .styleFailed(let message):
            throw ExitStatus.fail(ExitStatus.failure, "the map failed to load: \(message)")
        case .timedOut(_, let nothingPending):
            var reason = "\(until.rawValue) not reached within the \(timeout.time.shortDescription) --timeout"
            let videos = await map.readout.playingVideos
            let failedImports = await map.readout.blockingImportFailures
            if !failedImports.isEmpty {
                reason += ": the import \(failedImports.joined(separator: ", ")) failed to load, and \(loading.chosenEngine) waits for every import (no style-loaded, no map-idle)"
            } else if !videos.isEmpty && until == .mapIdle {
                reason += ": a video plays (source \(videos.map { "\"\($0)\"" }.joined(separator: ", "))), and a map never goes idle while one plays"
            } else if nothingPending {
                reason += ": nothing left to load"
            }
            if let first = figures.timedOut.first {
                reason += "; \(figures.timedOut.count) request\(figures.timedOut.count == 1 ? "" : "s") had no answer, first: \(URLRedactor(parameters: URLRedactor.defaultParameters + redact).redact(first))"
            }
            if let first = figures.errors.first {
                reason += " (\(figures.errors.count) error\(figures.errors.count == 1 ? "" : "s"); first: \(first.type.rawValue): \(first.message))"
            }
            throw ExitStatus.fail(ExitStatus.notReached, reason)
        }
    }
}
