import ArgumentParser
import Foundation
import MapSimKit
import Synchronization

/// `mapsim serve STYLE`: serve a style and its folder over HTTP to a real map SDK, and record every
/// request as the simulated map's events.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        // Parsed as a root by `mapsim COMMAND` (MapSimCommand.leafCommand): "mapsim" is its super-command.
        _superCommandName: "mapsim",
        abstract: "Serve a style and everything it needs over HTTP to a real map SDK, recording every request.",
        discussion: """
        STYLE is a style file; its folder is served at http://HOST:PORT/ and the style itself at \
        /style.json, with every URL that points into the folder (sprite, glyphs, TileJSON, tiles, \
        GeoJSON data, the tiles of TileJSONs there, imports) rewritten to the address the client used, as \
        tile servers rewrite them. A style an import names in the folder (a relative URL, or \
        mapbox://styles/U/S at styles/v1/U/S) is served with its own URLs rewritten the same way: \
        Mapbox GL JS resolves no URL against the style's, so a relative one would load from beside \
        the page, or not at all. Nothing outside the folder is ever served: a path that climbs out \
        (.., percent-encoded or through a symbolic link) is a 404.

        A source that reads an archive (mbtiles://PATH, pmtiles://PATH or pmtiles://file://PATH; a \
        relative PATH from the style's folder — MapLibre Native and `mapsim load` refuse a relative \
        PATH, as they know no folder to resolve it in, but serve serves that folder) is served as a \
        TileJSON at /_archives/SOURCE.json \
        and tiles at /_archives/SOURCE/{z}/{x}/{y}.FORMAT, inflated (and gzipped again for a \
        client that asks), 204 for a tile the archive lacks — so a client that reads no archive \
        draws it.

        What the style names on other servers (http and https URLs) is served from a cache or its \
        origin when --cache or --proxy is given, below /_remote/SCHEME/HOST/PATH: --cache FILE \
        serves it from a MapLibre offline database (what the map SDKs and `mapsim load --cache` \
        write, `mapsim region download` fills), 404 for what it lacks; --proxy fetches it from its \
        origin, keeping what it fetched (in --cache, or in memory), 502 naming the origin's error. \
        STYLE itself may then be the style's http(s) URL.

        HTTP as real clients expect it: ETag and Last-Modified with 304s, Cache-Control: max-age \
        (--max-age), one byte range (206, 416), gzip for vector tiles and JSON when the client \
        accepts it, CORS for browsers (and OPTIONS preflights), HEAD, keep-alive and pipelining \
        (answers in the order asked). At most --max-connections connections are open at once; a \
        connection idle for 30 s (a client that sends its headers slowly among them) is closed, and \
        headers over 16 KB are refused.

        Every request is a resource-request event — the URL the client asked for, the kind the map \
        would give it (style, sprite-json, sprite-image, glyphs, source, tile), the answer, its size \
        and its time in microseconds since the server started; a refused request is one too, with \
        its 4xx. --events and --trace write them in the formats `mapsim load` writes, so `mapsim \
        diff --relaxed` compares a real client's requests with the simulated map's and `mapsim \
        export --perfetto` shows them on a timeline. The first line printed is the style's URL \
        (with --port 0, the port chosen); each request is printed as it is answered (--quiet: not). \
        A reader that stops reading (a harness that read that first line and no more) never stops \
        the server: up to 1 MB of lines wait for it, then lines are skipped, and one line says how \
        many once it reads again; a stop (Ctrl-C, SIGTERM) waits for it at most a second.

        Its own page is at http://HOST:PORT/_mapsim/ : the style drawn by MapLibre GL JS (5.24.0, \
        carried in the binary; its licence at /_mapsim/maplibre-gl-LICENSE.txt), the conditions in \
        force, and the requests served so far, a waterfall that updates as they come. The page's \
        own requests are not recorded.

        The same conditions as the simulated network, on the wall clock: --network PROFILE delays \
        each answer by the profile's round trip, jitter (from --seed) and bandwidth; --fault \
        PATTERN=EFFECT answers the matching URLs with a status, a dropped connection, half a body \
        or a delay; --offline-window START-END drops every connection in that span of seconds \
        after the server started.

        --scenario FILE serves a scenario's style under the scenario's network instead: its \
        mirrors answer its URLs, its profile, seed, fault rules and offline windows apply, and its \
        offline and online steps happen at the times its advance steps give (a wait takes no time \
        here: the client is the map; starting on the offline profile is offline until the first \
        online). What the client does (load, wait, camera) and live-data, entity and content steps \
        are left out, and said so. --fault adds rules after the scenario's.

        Ctrl-C, SIGTERM or SIGHUP stop the server: the events are written, a summary (requests by \
        kind, errors, bytes) printed, and it exits 0.

        \(ExitStatus.section([(ExitStatus.success, "stopped by Ctrl-C or SIGTERM, the summary printed"), (ExitStatus.unreadableInput, "the style cannot be read (or, with --cache or --proxy, fetched)"), (ExitStatus.usage, "bad arguments"), (ExitStatus.invalidData, "it is not a style (not JSON), or an archive it names is damaged"), (ExitStatus.unavailable, "the address cannot be listened on"), (ExitStatus.cannotWrite, "--events or --trace cannot be written, or --cache cannot be opened")]))

        Examples:
          mapsim serve styles/sample/style.json --port 8080
          mapsim serve styles/sample/style.json --port 0 --quiet \\
              --events requests.jsonl
          mapsim serve styles/live/style.json --host 0.0.0.0 --max-age 0
          mapsim serve styles/sample/style.json --network 3g \\
              --fault '*/tiles/*=503x2' --offline-window 5-10
          mapsim serve https://maps.example/style.json --proxy \\
              --cache offline.db
          mapsim serve https://maps.example/style.json --cache offline.db
          mapsim serve --scenario traces/tiles-429-retry-after.scenario.yaml
        """
    )

    @Argument(help: "The style file, whose folder is served; or a style's http(s) URL, with --cache or --proxy (not with --scenario).")
    var style: String?

    @Option(help: ArgumentHelp("Serve the scenario's style under its network on the wall clock: its mirrors, profile, faults, offline windows and offline/online steps.", valueName: "FILE"))
    var scenario: String?

    @Option(help: ArgumentHelp("Serve what the style names on other servers from this MapLibre offline database (with --proxy, what is fetched is kept in it).", valueName: "FILE"))
    var cache: String?

    @Flag(help: "Fetch what the style names on other servers from its origin, keeping it (in --cache, or in memory).")
    var proxy = false

    @Option(help: "The address to listen on (0.0.0.0 for every interface).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 for any free one (printed).")
    var port = 8080

    @Option(help: ArgumentHelp("The Cache-Control max-age of every answer (1h, 90s; a bare number is seconds; 0 for none).", valueName: "DURATION"))
    var maxAge = DurationArgument(argument: "3600")!

    @Option(help: "The most connections open at once.")
    var maxConnections = 256

    @Option(help: ArgumentHelp("Answer as over this network, in real time: \(NetworkPreset.names.joined(separator: ", ")) (round trip, jitter from --seed, bandwidth).", valueName: "PROFILE"))
    var network: String?

    @Option(parsing: .unconditional, help: "The seed of the network's jitter.")
    var seed: UInt64 = 0

    @Option(help: ArgumentHelp("Misbehave for the URLs matching PATTERN: a status (503), drop, truncate or delay:MS; xTIMES for the first TIMES requests of each URL (repeatable; the first that matches applies).", valueName: "PATTERN=EFFECT[xTIMES]"))
    var fault: [FaultArgument] = []

    @Option(help: ArgumentHelp("No network from START to END after the server started (3-5, 500ms-2s; a bare number is seconds): every connection is dropped (repeatable).", valueName: "START-END"))
    var offlineWindow: [WindowArgument] = []

    @Option(help: ArgumentHelp("Write every request's event to FILE as JSON lines, as it is answered.", valueName: "FILE"))
    var events: String?

    @Option(help: ArgumentHelp("Record a trace: YAML for .yaml/.yml (written when the server stops), else JSON lines with a header.", valueName: "FILE"))
    var trace: String?

    @Flag(name: .shortAndLong, help: "Print only the summary, not each request.")
    var quiet = false

    func validate() throws {
        switch (style, scenario) {
        case (nil, nil): throw ValidationError("name a STYLE to serve, or a --scenario")
        case (.some, .some): throw ValidationError("STYLE and --scenario are two styles: the scenario names its own")
        default: break
        }
        if scenario != nil, network != nil || !offlineWindow.isEmpty || proxy {
            throw ValidationError("--scenario gives the network: --network, --offline-window and --proxy do not go with it")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard maxAge.time <= .seconds(31_536_000) else { throw ValidationError("--max-age must be at most a year (31536000 s)") }
        guard (1...100_000).contains(maxConnections) else { throw ValidationError("--max-connections must be between 1 and 100000") }
        if let network, NetworkPreset(rawValue: network) == nil {
            throw ValidationError("--network must be one of \(NetworkPreset.names.joined(separator: ", "))")
        }
        try DistinctOutputs.require([("--cache", cache), ("--events", events), ("--trace", trace)])
    }

    func run() async throws {
        var served: ServeScenario?
        if let scenario {
            do {
                served = ServeScenario(try Scenario.read(file: scenario), extraFaults: fault.map(\.rule))
            } catch {
                throw ExitStatus.fail(ExitStatus.unreadableInput, "\(error)")
            }
        }
        let style = served?.style ?? self.style ?? ""
        let styleIsURL = ["http", "https"].contains(URLResolver.scheme(of: style)?.lowercased() ?? "")
        if styleIsURL && cache == nil && !proxy && served?.origin == nil {
            throw ExitStatus.fail(ExitStatus.usage, "\(style): a style on another server is served from a cache (--cache FILE) or its origin (--proxy)")
        }
        guard styleIsURL || FileManager.default.isReadableFile(atPath: style) else {
            throw ExitStatus.fail(ExitStatus.unreadableInput, "\(style): no such file, or it cannot be read")
        }
        var database: OfflineDatabase?
        if let cache {
            do {
                database = try LoadingEnvironment.openCache(at: cache, readOnly: !proxy)
            } catch {
                throw ExitStatus.fail(ExitStatus.cannotWrite, "\(error)")
            }
            for warning in database?.warnings ?? [] { printError("mapsim: warning: \(warning)") }
        }
        let origin = proxy ? HTTPResourceLoader() : nil
        let remote = cache != nil || proxy || served?.origin != nil ? RemoteResources(cache: database, origin: origin ?? served?.origin) : nil
        var preamble: [String] = []
        if let served {
            let windows = served.offlineWindows.map { window in
                window.upperBound >= ServeScenario.forever ? "offline from \(window.lowerBound)" : "offline \(window.lowerBound)–\(window.upperBound)"
            }
            preamble.append("scenario \(scenario ?? ""): network \(served.profile), \(served.faultCount) fault rule\(served.faultCount == 1 ? "" : "s")"
                + (windows.isEmpty ? "" : ", " + windows.joined(separator: ", "))
                + (served.leftOut.isEmpty ? "" : "; left to the client or not served: \(served.leftOut.joined(separator: ", "))"))
        }
        do {
            try await serve(style: style, network: served?.profile ?? network ?? "real", conditions: served?.conditions, remote: remote, preamble: preamble)
        } catch {
            await finish(remote, origin: origin, cache: database)
            throw error
        }
        await finish(remote, origin: origin, cache: database)
    }

    /// Writes what the origin gave into the cache, and says what the cache lost (a full disk).
    private func finish(_ remote: RemoteResources?, origin: HTTPResourceLoader?, cache: OfflineDatabase?) async {
        await remote?.flush()
        try? await origin?.shutdown()
        for problem in cache?.problems ?? [] { printError("mapsim: warning: \(problem)") }
    }

    /// Serves until a signal stops the server, then writes what was recorded and prints the summary.
    private func serve(style: String, network networkName: String, conditions scenarioConditions: ServeConditions?, remote: RemoteResources?,
                       preamble: [String]) async throws {
        let header = Trace.Header(scenario: "serve " + style, seed: seed, style: style, network: networkName)
        let streamsTrace = trace.map { !($0.hasSuffix(".yaml") || $0.hasSuffix(".yml")) } ?? false
        let writers: [EventLineWriter]
        do {
            // A file gets its lines in batches, none later than 100 ms after the request (90 ms after they
            // reach the recorder, at most 10 ms after it): one write per request would cost more than the answer.
            let batch = { (path: String) in path == "-" ? nil : Duration.milliseconds(90) }
            writers = try (events.map { [try EventLineWriter(path: $0, batchInterval: batch($0))] } ?? [])
                + (streamsTrace ? trace.map { [try EventLineWriter(path: $0, header: header.json, batchInterval: batch($0))] } ?? [] : [])
        } catch {
            throw ExitStatus.fail(error)
        }
        let recorder = TraceRecorder(header: header, keepsEvents: trace != nil && !streamsTrace, writers: writers)
        // Figures only: a server runs for days, and a span kept for every request would grow without end.
        let summary = Mutex(LoadSummary.figuresOnly)
        // Everything serve prints goes through one printer, which a reader that stops reading never stops.
        let printer = LinePrinter()
        let quiet = self.quiet
        // Recorded, counted and printed off the event loops that answer the requests.
        let handoff = EventHandoff { events in
            for event in events {
                let recorded = recorder.record(event)
                summary.withLock { $0.record(recorded) }
                if !quiet, case .resourceRequest(let request) = recorded.payload { printer.print(Self.line(recorded, request)) }
            }
        }
        let server: StyleServer
        do {
            let conditions = scenarioConditions ?? ServeConditions(profile: network.flatMap(NetworkPreset.init(rawValue:)).map { $0.profile(seed: seed) },
                                                                   profileName: network, faults: fault.map(\.rule), offlineWindows: offlineWindow.map(\.value))
            server = try await StyleServer.start(.init(style: style, host: host, port: port, maxAge: Int(maxAge.time.microseconds / 1_000_000), maximumConnections: maxConnections,
                                                       conditions: conditions, remote: remote)) { event in
                handoff.hand(event)
            }
        } catch {
            handoff.finish()
            try? recorder.close()
            throw ExitStatus.fail(error)
        }
        printer.print("serving \(style) at \(server.baseURL)style.json (Ctrl-C to stop)")
        for line in preamble { printer.print(line) }
        let (stopped, stop) = AsyncStream<Void>.makeStream()
        let signals = StreamStop { stop.yield() }
        for await _ in stopped { break }
        signals.cancel()
        await server.stop()
        handoff.finish()
        var unwritten: (any Error)?
        do {
            try recorder.close()
            if let trace, !streamsTrace { try OutputFile.write(recorder.trace.yaml, to: trace, format: .trace) }
        } catch {
            unwritten = error
        }
        let failure = printer.finish(with: Self.summary(summary.withLock { $0 }))
        if let unwritten { throw ExitStatus.fail(unwritten) }
        if let failure { throw ExitStatus.fail(ExitStatus.cannotWrite, "cannot write to standard output: \(failure)") }
    }

    /// One request as printed: its time, status, kind, URL and size.
    static func line(_ event: MapEvent, _ request: ResourceRequest) -> String {
        // What serve answers without content is a 204.
        let status = request.outcome == .noContent ? "204" : request.status
        let size = ByteCount.format(request.response?.size ?? 0)
        let time = event.end.description
        return "\(time.padding(toLength: max(12, time.count), withPad: " ", startingAt: 0)) \(status.padding(toLength: max(10, status.count), withPad: " ", startingAt: 0)) "
            + "\(request.request.kind.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)) \(request.request.url) \(size)"
    }

    /// The closing summary: requests and bytes by kind, errors.
    static func summary(_ summary: LoadSummary) -> [String] {
        let total = summary.total
        var lines = ["", "requests       \(total.requests) (\(ByteCount.format(total.bytes)))" + (total.failures > 0 ? ", \(total.failures) refused" : "")]
        for (kind, traffic) in summary.traffic {
            let count = String(traffic.requests)
            lines.append("  \(kind.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)) \(count.padding(toLength: max(4, count.count), withPad: " ", startingAt: 0)) "
                + ByteCount.format(traffic.bytes) + (traffic.failures > 0 ? " (\(traffic.failures) refused)" : ""))
        }
        if summary.notModified > 0 { lines.append("not modified   \(summary.notModified)") }
        return lines
    }
}
