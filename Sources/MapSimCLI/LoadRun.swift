import ArgumentParser
import Foundation
import MapSimKit
import Synchronization

/// What `mapsim load` was asked to do, as plain values, and the load itself: made from the parsed
/// `LoadCommand`, or from the arguments read without ArgumentParser (`init?(plainArguments:)`),
/// sparing a load ArgumentParser's reflection. Its defaults are the command's.
struct LoadRun: Sendable {
    /// What a load given only a style does.
    static let defaults = LoadRun(style: "")

    var style: String
    var center: LngLatArgument?
    var zoom: Double?
    var bearing: Double?
    var pitch: Double?
    var maxPitch: Double?
    var size = SizeArgument(width: 512, height: 512)
    var pixelRatio: Double = 1
    var until = Map.State.mapIdle
    var timeout = DurationArgument(argument: "60")!
    var globalState: [GlobalStateArgument] = []
    var config: [ConfigArgument] = []
    var events: String?
    var trace: String?
    var redact: [String] = []
    var loading = LoadingSettings.defaults
    var accessToken: String?
    var mapboxAPIURL = MapboxOptions.defaultAPIURL
    var quiet = false
    var failOnError = false
    var budgets: [LoadBudget] = []
    var junit: String?
    var summary: String?
    /// The live data fed once the map is idle, if any.
    var live: LivePlan?
    var content: String?
    var publicKey: String?
    var allowDowngrade = false
    var checkContent = false
    var requireFirstOnlineCheck = false

    /// Where live data comes from, into which source, for how long, following which view.
    struct LivePlan: Sendable {
        var source: String
        var feed: LiveFeed
        var duration: SimTime?
        var count: Int?
        var view: LiveViewOptions?

        /// The plan of `arguments`, nil without --live; what is malformed is a usage error.
        init?(_ arguments: LiveArguments) throws {
            guard let (source, feed) = try arguments.feed() else { return nil }
            self.source = source
            self.feed = feed
            duration = arguments.duration?.time
            count = arguments.count
            view = try arguments.view()
        }
    }

    init(style: String) {
        self.style = style
    }

    /// The load `command` parsed; its live data is read (a recording) and checked here.
    init(_ command: LoadCommand) throws {
        style = command.style
        center = command.center
        zoom = command.zoom
        bearing = command.bearing
        pitch = command.pitch
        maxPitch = command.maxPitch
        size = command.size
        pixelRatio = command.pixelRatio
        until = command.until
        timeout = command.timeout
        globalState = command.globalState
        config = command.config
        events = command.events
        trace = command.trace
        redact = command.redact
        loading = command.loading.settings
        accessToken = command.mapbox.accessToken
        mapboxAPIURL = command.mapbox.mapboxAPIURL
        quiet = command.quiet
        failOnError = command.failOnError
        budgets = command.budgets
        junit = command.junit
        summary = command.summary
        // Checked before the recording is read: reading it would leave the style nothing.
        if command.style == "-", command.liveData.live?.hasSuffix("=-") == true {
            throw ValidationError("the style (-) and --live SOURCE=- would both read standard input: give one of them a file")
        }
        live = try LivePlan(command.liveData)
        content = command.content
        publicKey = command.publicKey
        allowDowngrade = command.allowDowngrade
        checkContent = command.checkContent
        requireFirstOnlineCheck = command.requireFirstOnlineCheck
    }

    /// How `mapbox://` URLs are normalized, with the token (--access-token, else $MAPBOX_ACCESS_TOKEN).
    var mapbox: MapboxURL { MapboxOptions.normalizer(accessToken: accessToken, apiURL: mapboxAPIURL) }

    /// The map's steepest pitch: `--max-pitch`, else the engine's.
    var maximumPitch: Double { maxPitch ?? loading.chosenEngine.maximumPitch }

    /// `--max-pitch` when it is not the engine's: the trace header records it, as it changes the cover.
    var raisedMaximumPitch: Double? { maxPitch == loading.chosenEngine.maximumPitch ? nil : maxPitch }

    /// Refuses what `mapsim load` cannot run as asked, as a usage error (the loading settings are
    /// checked on their own, by `LoadingSettings.validate()`).
    func validate() throws {
        try size.check("--size")
        try CameraArguments.validate(center: center?.value, zoom: zoom, pitch: pitch, maximumPitch: maximumPitch)
        guard pixelRatio > 0, pixelRatio <= 8 else { throw ValidationError("--pixel-ratio must be above 0 and at most 8") }
        guard timeout.time > .zero, timeout.time <= .seconds(86_400) else {
            throw ValidationError("--timeout must be above 0 and at most a day (86400 s), not \(timeout.time.shortDescription)")
        }
        try MapboxOptions.requireToken(mapbox, forStyle: style, offline: loading.offline)
        guard (content == nil) == (publicKey == nil) else { throw ValidationError("--content and --public-key go together") }
        if allowDowngrade && content == nil { throw ValidationError("--allow-downgrade goes with --content") }
        if content != nil && loading.noCache { throw ValidationError("--content imports into the cache: it cannot go with --no-cache") }
        if (requireFirstOnlineCheck || checkContent) && loading.noCache {
            throw ValidationError("the data manager keeps the site's content in the cache: --check-content and --require-first-online-check cannot go with --no-cache")
        }
        try DistinctOutputs.require([("--cache", loading.cache), ("--events", events), ("--trace", trace), ("--summary", summary), ("--junit", junit)])
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

    /// Feeds live data into the plan's source until the feed ends, its time is up or a signal stops it: the
    /// failure, if any, and the signal.
    private func runLive(_ plan: LivePlan, on map: Map) async -> (LiveFeedError?, Int32?) {
        let seed = loading.seed
        let live = Task { try await plan.feed.run(on: map, source: plan.source, for: plan.duration, count: plan.count, seed: seed, view: plan.view) }
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

    /// Loads the style, prints and writes what was asked, and throws the exit status when it is not success.
    func run() async throws {
        // A style on standard input is read whole first, as a map is given a style's JSON: its
        // relative URLs resolve against the current folder (it is taken to be a file there named -).
        let styleURL = StyleLocation.url(for: style)
        let standardInput: [UInt8]?
        do {
            standardInput = style == "-" ? try InputFile.read("-", limit: Style.maximumDocumentSize) : nil
        } catch {
            throw ExitStatus.fail(error)
        }
        let environment = try loading.environment(styleURL: styleURL, mapbox: mapbox, budget: timeout.time)
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
        // A style given as JSON has no request of its own to show the paths below.
        var emptySummary = LoadSummary()
        if standardInput != nil { emptySummary.styleURL = styleURL }
        let summary = Mutex(emptySummary)
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
        if let standardInput {
            await map.setStyleJSON(bytes: standardInput, baseURL: styleURL)
        } else {
            await map.setStyleURI(styleURL)
        }
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
        if case .reached = outcome, let live {
            let geoJSONSources = (await map.style?.sources ?? []).filter { $0.kind == .geojson }.map(\.id)
            if geoJSONSources.contains(live.source) {
                (liveFailure, stoppedBy) = await runLive(live, on: map)
            } else {
                unknownSource = "--live: the style has no GeoJSON source \"\(live.source)\" to feed (its GeoJSON sources: "
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
            // With nothing left to load the map stopped at once: no wait for the timeout to blame.
            var reason = nothingPending ? "\(until.rawValue) never reached" : "\(until.rawValue) not reached within the \(timeout.time.shortDescription) --timeout"
            let videos = await map.readout.playingVideos
            let failedImports = await map.readout.blockingImportFailures
            let glyphFailures = await map.readout.glyphFailedGeoJSONSources
            let failedSources = await map.readout.blockingSourceFailures
            let silentTiles = await map.readout.silentlyMissingTileSources
            let silentFailures = await map.readout.silentlyFailedTileSources
            if !failedImports.isEmpty {
                reason += ": the import \(failedImports.joined(separator: ", ")) failed to load, and \(loading.chosenEngine) waits for every import (no style-loaded, no map-idle)"
            } else if !failedSources.isEmpty {
                reason += ": source \(failedSources.joined(separator: ", ")) failed to load, and \(loading.chosenEngine) waits for every source (no style-loaded, no map-idle)"
            } else if !glyphFailures.isEmpty && until == .mapIdle {
                reason += ": a glyph range the text of GeoJSON source \(glyphFailures.joined(separator: ", ")) needs could not be loaded, "
                    + "and \(loading.chosenEngine) fails such tiles, then their parents, and never goes idle"
            } else if !(silentTiles.isEmpty && silentFailures.isEmpty) && until == .mapIdle {
                let tiles = [silentFailures.isEmpty ? nil : "tiles of source \(silentFailures.joined(separator: ", ")) that failed",
                             silentTiles.isEmpty ? nil : "raster or DEM tiles of source \(silentTiles.joined(separator: ", ")) not found (404)"]
                reason += ": the last answers were \(tiles.compactMap { $0 }.joined(separator: " and ")), "
                    + "for which \(loading.chosenEngine) draws no frame, so it never checks for idle"
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
