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
        URLs resolve under --asset-root (default: the style's folder) and may not leave it. - reads \
        the style's JSON from standard input, as an app hands a map a style's JSON (setStyleJSON: \
        no style request); its relative URLs resolve in the current folder.

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
        idle when tiles fail, so mapsim does; this says that is not good enough — except that \
        MapLibre GL JS draws no frame for a tile that failed, and neither GL JS for a raster tile \
        not found, so a map whose last answers are such never goes idle, and --engine maplibre-gl-js \
        or mapbox-gl-js exits 2 naming the source), and --budget \
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
          mapsim load - --fail-on-error < style.json
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

    @Argument(help: "The style: a file path, or an http(s)://, file://, asset:// or mapbox:// URL; - reads its JSON from standard input (its relative URLs resolve in the current folder).")
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
    var size = LoadRun.defaults.size

    @Option(parsing: .unconditional, help: "Device pixels per logical pixel, above 0 and at most 8; above 1 loads @2x sprites and {ratio} tiles.")
    var pixelRatio = LoadRun.defaults.pixelRatio

    @Option(help: "The state to run until: style-loaded, map-loaded or map-idle.")
    var until = LoadRun.defaults.until

    @Option(parsing: .unconditional, help: ArgumentHelp("Give up after this long (90s, 2min; a bare number is seconds; default 60s): the whole budget of the load and of every request in it, retries included. Requests still unanswered then are named.", valueName: "DURATION"))
    var timeout = LoadRun.defaults.timeout

    @Option(name: .customLong("global-state"), help: ArgumentHelp("Set global state NAME (what [\"global-state\", NAME] reads) to a JSON value over the style's default, before the style loads (repeatable; a VALUE that is not JSON is a string).", valueName: "NAME=JSON"))
    var globalState: [GlobalStateArgument] = []

    @Option(name: .customLong("config"), help: ArgumentHelp("Set config NAME of the import IMPORT of a Mapbox style (what [\"config\", NAME] reads in that import's layers; NAME=JSON alone for the root style) before the style loads, as setConfigProperty (repeatable; a VALUE that is not JSON is a string; a NAME the import's schema lacks, or a VALUE of another type than its default, is a warning).", valueName: "IMPORT.NAME=JSON"))
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

    func validate() throws {
        try LoadRun(self).validate()
    }

    func run() async throws {
        try await LoadRun(self).run()
    }
}
