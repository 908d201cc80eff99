import ArgumentParser
import Foundation
import MapSimKit
import Synchronization

/// `mapsim region download`: MapLibre Native's offline download, into its offline database.
struct RegionDownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        // Parsed as a root by `mapsim region download` (MapSimCommand.leafCommand): "mapsim region" is its super-command.
        _superCommandName: "mapsim region",
        abstract: "Download an offline region into the database, or resume one.",
        discussion: """
        Fetches what MapLibre Native's offline download fetches: the style, its sources' TileJSON, \
        each sprite at ratios 1 and 2, every glyph range of every font stack the style's text uses \
        (the CJK ideograph and Hangul ranges only with --include-ideographs), GeoJSON documents, \
        images, and every tile of every source in the area at every zoom the source serves. What the \
        database holds already is linked without a request, so an interrupted download (Ctrl-C, \
        SIGTERM, a lost network) resumes with only what is missing: run the same command again \
        (the same definition resumes its region), or give the region's ID. With --glyphs needed \
        only the glyph ranges the region's tiles lay out are fetched, and the region requires only \
        those (MapLibre Native would want the others: `region status` says how many, and the bytes \
        saved).

        With --engine mapbox (the Mapbox Maps SDK) a style's Mapbox `imports` are part of the \
        region, as the SDK loads them: each imported style (stored under the URL the map asks for \
        it by, so an offline load finds it), nested up to 5 styles deep counting the root, and \
        each one's sources' TileJSON and tiles, sprites, glyph ranges (its own glyphs URL, or \
        Mapbox's default fonts) and models, each resource once however many styles name it; they \
        count in the progress and the summary as the rest does. An import that cannot be \
        downloaded is named by its chain of imports (import basemap → landmarks). MapLibre Native \
        (the default engine) ignores imports, and so does its download.

        Progress shows on a terminal; --events writes the download's events as JSON lines \
        (offline-region-status-changed after each resource, offline-region-response-error, \
        offline-region-tile-limit-exceeded) as they happen.

        Each resource is committed to the database within 40 ms of its arrival, so even a \
        download killed outright (SIGKILL, a phone's app killer) keeps all but what was in \
        flight and what came in its last 40 ms, and the database stays one MapLibre Native opens.

        Complete means what `region status` says, MapLibre Native's OfflineRegionStatus worked out \
        from the database: every required resource stored. What the server does not have (a 404: \
        MapLibre skips it) is still required, and named once in the last lines — "128 glyph ranges \
        of Noto Sans Regular the server does not have" — with what is not downloaded yet. Exit \
        status: 0 exactly when the region is complete; 1 when it is not (what is missing is \
        listed), the style failed or the mapbox:// tile limit was reached; 2 when --timeout passed \
        first; 74 when the database cannot be written; 130, 143 or 129 when stopped by Ctrl-C, \
        SIGTERM or SIGHUP (what was downloaded is kept).

        A download never waits in silence: without a terminal a progress line every 10 s says how \
        far it is, how long nothing has arrived, and the last failed attempt it tries again \
        ("http://… timed out (attempt 2 of 4; trying again)"); on a terminal the bar counts the \
        retries. Each request waits at most --request-timeout (else 10 s to connect and 30 s of \
        silence) and is tried 1 + --retries times; --timeout bounds the whole download.

        \(ExitStatus.section([(ExitStatus.success, "the region is complete"), (ExitStatus.failure, "it is not complete (what the server lacks is named), or there is no such region"), (ExitStatus.notReached, "--timeout passed first (what came is kept)"), (ExitStatus.usage, "bad arguments"), (ExitStatus.cannotWrite, "the cache or --events cannot be written"), (ExitStatus.interrupted, "Ctrl-C (what came is kept)"), (ExitStatus.terminated, "SIGTERM (likewise)"), (ExitStatus.hungUp, "SIGHUP (likewise)")]))

        Examples:
          mapsim region download https://maps.example/style.json \\
              --bounds -122.52,37.70,-122.35,37.83 --min-zoom 10 --max-zoom 14 \\
              --cache app.db
          mapsim region download styles/sample/style.json \\
              --geometry route.geojson --min-zoom 8 --max-zoom inf \\
              --glyphs needed --cache app.db --events download.jsonl
          mapsim region download mapbox://styles/USER/STYLE --engine mapbox \\
              --access-token pk.… --bounds -122.46,37.76,-122.38,37.82 \\
              --min-zoom 10 --max-zoom 11 --cache app.db
          mapsim region download 3 --cache app.db          # resume region 3
          mapsim region download https://maps.example/style.json \\
              --bounds -122.52,37.70,-122.35,37.83 --min-zoom 10 --max-zoom 12 \\
              --cache app.db --request-timeout 5s --timeout 10min   # in CI
        """
    )

    @Argument(help: "The style (a file path, or a file://, http(s):// or mapbox:// URL), or the ID of a region to resume.")
    var style: String

    @Option(parsing: .unconditional, help: ArgumentHelp("The area: west, south, east, north in degrees.", valueName: "W,S,E,N"))
    var bounds: BoundsArgument?

    @Option(help: ArgumentHelp("The area: a GeoJSON file of one geometry (or a feature): the tiles it touches, not its bounding box.", valueName: "FILE"))
    var geometry: String?

    @Option(parsing: .unconditional, help: "The lowest zoom.")
    var minZoom: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("The highest zoom; inf for every zoom the sources have.", valueName: "ZOOM"))
    var maxZoom: Double?

    @Option(parsing: .unconditional, help: "The pixel ratio of {ratio} tiles.")
    var pixelRatio: Double = 1

    @Flag(help: "Also download the glyph ranges of CJK ideographs and Hangul.")
    var includeIdeographs = false

    @Option(help: ArgumentHelp("Text stored with the region as its description (the app's metadata).", valueName: "TEXT"))
    var description: String?

    @Option(help: ArgumentHelp("all (MapLibre's: every range of every font stack) or needed (only what the region's tiles lay out).", valueName: "CHOICE"))
    var glyphs: RegionDownloader.GlyphChoice = .all

    @Flag(help: "Make a new region even when one with the same definition exists (else that one is resumed).")
    var new = false

    @Option(parsing: .unconditional, help: "How many times a failing resource is retried, on the pipeline's schedule, before it counts as failed.")
    var retries: Int = 3

    @Option(help: ArgumentHelp("Stop the download after this long (250ms, 30s, 2min…), keeping what arrived: the same command resumes it. By default a download ends when its work does, each request bounded by --request-timeout and --retries.", valueName: "DURATION"))
    var timeout: DurationArgument?

    @Option(parsing: .unconditional, help: "The most mapbox:// tiles the database's regions may hold (MapLibre's setOfflineMapboxTileCountLimit).")
    var mapboxTileLimit: Int = OfflineDatabase.Options.defaultMapboxTileCountLimit

    @Option(help: ArgumentHelp("Write the download's events to FILE as JSON lines.", valueName: "FILE"))
    var events: String?

    @Flag(help: "Print the result as JSON.")
    var json = false

    @Flag(name: .shortAndLong, help: "Print no progress: only the result (and errors).")
    var quiet = false

    @OptionGroup(title: "Loading")
    var loading: LoadingOptions

    @OptionGroup(title: "mapbox:// URLs")
    var mapbox: MapboxOptions

    /// The ID of the region to resume, when the argument is one.
    private var resumedID: Int64? {
        Int64(style)
    }

    func validate() throws {
        if loading.noCache || loading.offline { throw ValidationError("a region is downloaded into the database, from the network: drop --no-cache and --offline") }
        try MapboxOptions.requireToken(mapbox.normalizer, forStyle: style, offline: false)
        if let engine = loading.engine, engine == .maplibreGLJS || engine == .mapboxGLJS {
            let name = engine == .maplibreGLJS ? "MapLibre GL JS" : "Mapbox GL JS"
            throw ValidationError("--engine \(engine.rawValue): \(name) downloads no offline regions; a region is downloaded as MapLibre Native (the default) or the Mapbox SDK (--engine mapbox) download it")
        }
        if loading.localIdeographs != nil && glyphs != .needed {
            throw ValidationError("--local-ideographs decides which glyph ranges the tiles need: it goes with --glyphs needed (--glyphs all downloads every range)")
        }
        if loading.mode != .continuous { throw ValidationError("--mode is how a map draws; a download draws nothing: drop it") }
        if loading.maxTiles != Map.Options.defaultMaximumTilesPerSource {
            throw ValidationError("--max-tiles limits one view of a map; a region is as large as its area and zooms make it: drop it")
        }
        guard (0...8).contains(pixelRatio), pixelRatio > 0 else { throw ValidationError("--pixel-ratio must be above 0 and at most 8") }
        guard retries >= 0, mapboxTileLimit >= 0 else { throw ValidationError("--retries and --mapbox-tile-limit cannot be negative") }
        if let timeout, timeout.time < .milliseconds(1) { throw ValidationError("--timeout must be 1ms or more") }
        if resumedID != nil {
            if bounds != nil || geometry != nil || minZoom != nil || maxZoom != nil {
                throw ValidationError("a region ID resumes that region: its area and zooms are its own (drop --bounds, --geometry, --min-zoom, --max-zoom)")
            }
            return
        }
        guard (bounds == nil) != (geometry == nil) else { throw ValidationError("give the area: --bounds W,S,E,N or --geometry FILE (one of them)") }
        guard let minZoom, let maxZoom else { throw ValidationError("give the zooms: --min-zoom and --max-zoom (inf for every zoom the sources have)") }
        guard minZoom >= 0, minZoom <= 25.5, maxZoom >= minZoom else { throw ValidationError("--min-zoom must be in 0...25.5 and --max-zoom at least --min-zoom") }
    }

    func run() async throws {
        let environment = try loading.settings.environment(styleURL: resumedID == nil ? StyleLocation.url(for: style) : "", mapbox: mapbox.normalizer,
                                              mapboxTileCountLimit: mapboxTileLimit)
        guard let cache = environment.cache else {
            await environment.shutdown()
            throw ExitStatus.fail(ExitStatus.cannotWrite, "there is no database to download into")
        }
        let region: OfflineRegion
        do {
            region = try await pickRegion(in: cache)
        } catch {
            await environment.shutdown()
            throw error
        }
        let writer: EventLineWriter?
        do {
            // A file gets its lines in batches, none later than 100 ms after it came: a line per resource is a write per resource.
            writer = try events.map { try EventLineWriter(path: $0, batchInterval: $0 == "-" ? nil : .milliseconds(100)) }
        } catch {
            await environment.shutdown()
            throw ExitStatus.fail(error)
        }
        let bar = ProgressBar(terminal: .standardOutput(), enabled: !quiet)
        let progress = Mutex(DownloadProgress())
        let ticker = ProgressTicker(enabled: !quiet) { seconds in
            progress.withLock { $0.line(after: seconds) }
        }
        let task = Task { [glyphs, retries] in
            try await environment.downloadRegion(region, glyphs: glyphs, retries: retries, observe: { event in
                writer?.write(event)
                guard case .offlineRegion(let payload) = event.payload else { return }
                switch payload {
                case .statusChanged(_, let status):
                    progress.withLock { $0.note(status) }
                    bar.show(status)
                case .responseError(_, _, _, let failure) where failure.reason != .notFound: bar.noteFailure()
                default: break
                }
            }, retrying: { retry in
                guard let status = progress.withLock({ $0.note(retry) }) else { return }
                bar.noteRetry(status)
            })
        }
        let stop = StreamStop(after: timeout?.time) { task.cancel() }
        let outcome = await task.result
        stop.cancel()
        ticker.stop()
        bar.finish()
        for problem in await environment.shutdown() { printError("mapsim: warning: \(problem)") }
        do {
            try writer?.close()
        } catch {
            throw ExitStatus.fail(error)
        }
        var result: RegionDownloader.Result
        switch outcome {
        case .success(let value): result = value
        case .failure(let error): throw ExitStatus.fail(error)
        }
        let timedOut = result.wasInterrupted && stop.caughtSignal == nil
        if timedOut, let timeout { result.stopReason = "the \(timeout.time.shortDescription) --timeout passed" }
        report(result, database: cache.path)
        if timedOut { throw ExitStatus.notReached }
        if result.wasInterrupted { throw ExitStatus.stopped(by: stop.caughtSignal ?? SIGINT) }
        // The exit status says what `region status` says: 0 exactly when the region is complete.
        guard result.completeness.isComplete else { throw ExitStatus.failure }
    }

    /// The region to download: the one whose ID was given, the one with the same definition (to
    /// resume it), or a new one.
    private func pickRegion(in cache: OfflineDatabase) async throws -> OfflineRegion {
        if let id = resumedID { return try RegionCommand.region(id, in: cache) }
        do {
            let definition = try OfflineRegionDefinition(styleURL: StyleLocation.url(for: style), area: try area(), minZoom: minZoom ?? 0,
                                                         maxZoom: maxZoom ?? .infinity, pixelRatio: pixelRatio, includeIdeographs: includeIdeographs)
            let metadata = description.map { Array($0.utf8) }
            if !new, let existing = try cache.regions().first(where: { $0.encodedDefinition == definition.encoded && $0.metadata == metadata }) {
                printError("mapsim: resuming region \(existing.id), which has the same definition (--new makes another)")
                return existing
            }
            return try cache.createRegion(definition, metadata: metadata)
        } catch let error as ExitCode {
            throw error
        } catch {
            throw ExitStatus.fail(error)
        }
    }

    /// The area asked for: the bounds, or the geometry of the GeoJSON file.
    private func area() throws -> OfflineRegionDefinition.Area {
        if let bounds { return .bounds(bounds.value) }
        let path = geometry ?? ""
        let document: JSONValue
        do {
            document = try JSONParser.parse(try InputFile.read(path, limit: 256 << 20))
        } catch {
            throw ExitStatus.fail(ExitStatus.unreadableInput, "cannot read the geometry \(path): \(error)")
        }
        var json = document
        if json["type"]?.stringValue == "FeatureCollection", let features = json["features"]?.arrayValue {
            guard features.count == 1 else {
                throw ExitStatus.fail(ExitStatus.invalidData, "\(path): a region has one geometry; the collection has \(features.count) features (merge them into a Multi* geometry)")
            }
            json = features[0]
        }
        if json["type"]?.stringValue == "Feature", let member = json["geometry"] { json = member }
        do {
            let geometry = try GeoJSONGeometry(json: json)
            if case .geometryCollection = geometry {
                throw ExitStatus.fail(ExitStatus.invalidData, "\(path): MapLibre Native covers no tiles for a GeometryCollection; use a Multi* geometry")
            }
            return .geometry(geometry)
        } catch let error as GeoJSONGeometryError {
            throw ExitStatus.fail(ExitStatus.invalidData, "\(path): \(error)")
        }
    }

    /// How many failures the report names one by one.
    static let failuresShown = 10

    private func report(_ result: RegionDownloader.Result, database: String) {
        let status = result.status
        let completeness = result.completeness
        if json {
            var members = RegionCommand.json(result.region)
            members += [("status", .object(status.json))] + completeness.json.members.map { ($0.key, $0.value) }
            members.append(("failures", .array(result.failures.map(JSONValue.string))))
            if let reason = result.stopReason { members.append(("stopped", .string(reason))) }
            print(JSONWriter.string(.object(JSONObject(members))))
            return
        }
        // A server down fails every resource on it: the first few say why, --json lists them all.
        for failure in result.failures.prefix(Self.failuresShown) { printError("mapsim: failed: \(failure)") }
        if result.failures.count > Self.failuresShown {
            printError("mapsim: … and \(result.failures.count - Self.failuresShown) more failed (--json lists every one)")
        }
        let summary = "\(status.completedResourceCount) of \(status.requiredResourceCount) resources (\(status.completedTileCount) tiles), \(ByteCount.format(status.completedResourceSize)) stored in \(database)"
        if let reason = result.stopReason {
            print("region \(result.region.id) stopped: \(reason); \(summary)")
        } else {
            print("region \(result.region.id) \(completeness.isComplete ? "complete" : "incomplete"): \(summary)")
        }
        // A download stopped for what it was not given: the stop says what to give, and nothing is
        // to be had by running it again as it is.
        guard result.resumes else { return }
        for line in completeness.missingLines { print("  missing: " + line) }
        if !completeness.isComplete && completeness.missingCount > completeness.absent.count {
            print("run the same command again to download what is missing")
        }
    }
}

extension RegionDownloader.GlyphChoice: ExpressibleByArgument {}
