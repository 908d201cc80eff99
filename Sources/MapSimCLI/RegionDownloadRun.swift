import ArgumentParser
import Foundation
import MapSimKit
import Synchronization

/// What `mapsim region download` was asked to do, as plain values, and the download itself: made
/// from the parsed `RegionDownloadCommand`, or from the arguments read without ArgumentParser
/// (`init?(plainArguments:)`), sparing a download ArgumentParser's reflection. Its defaults are
/// the command's.
struct RegionDownloadRun: Sendable {
    var style: String
    var bounds: BoundsArgument?
    var geometry: String?
    var minZoom: Double?
    var maxZoom: Double?
    var pixelRatio: Double = 1
    var includeIdeographs = false
    var description: String?
    var glyphs = RegionDownloader.GlyphChoice.all
    var new = false
    var retries = 3
    var timeout: DurationArgument?
    var mapboxTileLimit = OfflineDatabase.Options.defaultMapboxTileCountLimit
    var events: String?
    var json = false
    var quiet = false
    var loading = LoadingSettings.defaults
    var accessToken: String?
    var mapboxAPIURL = MapboxOptions.defaultAPIURL

    init(style: String) {
        self.style = style
    }

    /// The download `command` parsed.
    init(_ command: RegionDownloadCommand) {
        style = command.style
        bounds = command.bounds
        geometry = command.geometry
        minZoom = command.minZoom
        maxZoom = command.maxZoom
        pixelRatio = command.pixelRatio
        includeIdeographs = command.includeIdeographs
        description = command.description
        glyphs = command.glyphs
        new = command.new
        retries = command.retries
        timeout = command.timeout
        mapboxTileLimit = command.mapboxTileLimit
        events = command.events
        json = command.json
        quiet = command.quiet
        loading = command.loading.settings
        accessToken = command.mapbox.accessToken
        mapboxAPIURL = command.mapbox.mapboxAPIURL
    }

    /// How `mapbox://` URLs are normalized, with the token (--access-token, else $MAPBOX_ACCESS_TOKEN).
    var mapbox: MapboxURL { MapboxOptions.normalizer(accessToken: accessToken, apiURL: mapboxAPIURL) }

    /// The ID of the region to resume, when the argument is one.
    private var resumedID: Int64? {
        Int64(style)
    }

    /// Refuses what `mapsim region download` cannot run as asked, as a usage error (the loading
    /// settings are checked on their own, by `LoadingSettings.validate()`).
    func validate() throws {
        if style == "-" {
            throw ValidationError("a region keeps its style's URL, from which the SDKs load the style again: it cannot come from standard input (-); give its file or URL")
        }
        if loading.noCache || loading.offline { throw ValidationError("a region is downloaded into the database, from the network: drop --no-cache and --offline") }
        try MapboxOptions.requireToken(mapbox, forStyle: style, offline: false)
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
        try DistinctOutputs.require([("--cache", loading.cache), ("--events", events)])
        if resumedID != nil {
            if bounds != nil || geometry != nil || minZoom != nil || maxZoom != nil {
                throw ValidationError("a region ID resumes that region: its area and zooms are its own (drop --bounds, --geometry, --min-zoom, --max-zoom)")
            }
            return
        }
        guard (bounds == nil) != (geometry == nil) else { throw ValidationError("give the area: --bounds W,S,E,N or --geometry FILE (one of them)") }
        try bounds?.check("--bounds")
        guard let minZoom, let maxZoom else { throw ValidationError("give the zooms: --min-zoom and --max-zoom (inf for every zoom the sources have)") }
        guard minZoom >= 0, minZoom <= 25.5, maxZoom >= minZoom else { throw ValidationError("--min-zoom must be in 0...25.5 and --max-zoom at least --min-zoom") }
    }

    /// Downloads the region, printing progress and the result; throws the exit status.
    func run() async throws {
        let environment = try loading.environment(styleURL: resumedID == nil ? StyleLocation.url(for: style) : "", mapbox: mapbox,
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
        let problems = await environment.shutdown()
        let failure: String? = if case .failure(let error) = outcome { "\(error)" } else { nil }
        // What the error says already is not said again as a warning.
        for problem in problems where !(failure?.contains(problem) ?? false) { printError("mapsim: warning: \(problem)") }
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
