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
        flight and what came in its last 40 ms, and the database stays one MapLibre Native opens. \
        Rows are compressed as MapLibre Native compresses them (zlib, kept when smaller); a tile the \
        server sent gzipped is checked and stored in the server's own compression, rewrapped as \
        zlib, rather than compressed again.

        Complete means what `region status` says, MapLibre Native's OfflineRegionStatus worked out \
        from the database: every required resource stored. What the server does not have (a 404: \
        MapLibre skips it) is still required, and named once in the last lines — "128 glyph ranges \
        of Noto Sans Regular the server does not have" — with what is not downloaded yet. Exit \
        status: 0 exactly when the region is complete; 1 when it is not (what is missing is \
        listed), the style failed or the mapbox:// tile limit was reached; 2 when --timeout passed \
        first; 74 when the database cannot be written — a full disk stops the download at the \
        first writes it loses, keeping what was stored, and the same command resumes once there \
        is room (MapLibre Native logs the error and goes on requesting what it cannot keep); 130, \
        143 or 129 when stopped by Ctrl-C, SIGTERM or SIGHUP (what was downloaded is kept).

        A download never waits in silence: without a terminal a progress line every 10 s says how \
        far it is, how long nothing has arrived, and the last failed attempt it tries again and \
        when ("http://… timed out (attempt 2 of 4; trying again in 2 s)", "HTTP 429 … (attempt 1 \
        of 4; trying again in 59 min 58 s, as its Retry-After asks)"); on a terminal the bar \
        counts the retries. Each request waits at most --request-timeout (else 10 s to connect and 30 s of \
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

    @Argument(help: "The style (a file path, or a file://, http(s):// or mapbox:// URL; not -, as the region keeps its URL), or the ID of a region to resume.")
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

    func validate() throws {
        try RegionDownloadRun(self).validate()
    }

    func run() async throws {
        try await RegionDownloadRun(self).run()
    }
}

extension RegionDownloader.GlyphChoice: ExpressibleByArgument {}
