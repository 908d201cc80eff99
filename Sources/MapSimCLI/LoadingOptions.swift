import ArgumentParser
import Foundation
import MapSimKit

/// How a command loads resources: cache, network (real or simulated), offline. Shared by every
/// command that loads a style.
struct LoadingOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The cache: a MapLibre Native offline database, an app's included (default: \(CacheLocation.defaultDescription), its folder made if need be; another file goes in a folder that exists, as every file mapsim writes does).", valueName: "PATH"))
    var cache: String?

    @Option(help: ArgumentHelp("Evict the least recently used ambient entries past this size (KB, MB: 1000s; KiB, MiB, or K, M: 1024s; MapLibre's default).", valueName: "SIZE"))
    var maxCacheSize = ByteSizeArgument(bytes: OfflineDatabase.Options.defaultMaximumAmbientCacheSize)

    @Flag(help: "Use no cache: every request goes to the network.")
    var noCache = false

    @Flag(help: "Start offline: nothing goes to the network; the cache answers what it can.")
    var offline = false

    @Option(help: ArgumentHelp("Simulate the network with a profile: \(NetworkPreset.names.joined(separator: ", ")). Without it, http(s) URLs use the real network.", valueName: "PROFILE"))
    var network: String?

    @Option(help: ArgumentHelp("With --network: serve URLs starting with URLPREFIX from DIR (repeatable).", valueName: "URLPREFIX=DIR"))
    var mirror: [MirrorArgument] = []

    @Option(help: ArgumentHelp("With --network: no network from START to END of virtual time (3-5, 500ms-2s; a bare number is seconds; repeatable).", valueName: "START-END"))
    var offlineWindow: [WindowArgument] = []

    @Option(parsing: .unconditional, help: "The seed of the simulated network's jitter: a whole number, 0 or more.")
    var seed: UInt64 = 0

    @Option(parsing: .unconditional, help: "The most network requests in flight at once (default: the engine's, 20 for MapLibre Native and Mapbox, 256 for GL JS).")
    var maxRequests: Int?

    @Option(parsing: .unconditional, help: "The most tiles one source may need for one view; a larger cover is refused with a source error.")
    var maxTiles: Int = Map.Options.defaultMaximumTilesPerSource

    @Option(help: ArgumentHelp("The folder asset:// URLs resolve under (default: the style's folder).", valueName: "DIR"))
    var assetRoot: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Fail a network attempt that has no answer after this long (500ms, 2s; a bare number is seconds), naming its URL; it is retried as a lost connection is.", valueName: "DURATION"))
    var requestTimeout: DurationArgument?

    @Option(help: ArgumentHelp("The map to simulate: maplibre-native (the default), maplibre-gl-js (in a browser) or mapbox (the Mapbox Maps SDK).", valueName: "ENGINE"))
    var engine: Engine.Name?

    @Option(help: ArgumentHelp("Draw CJK ideographs, Hangul and kana with this local font instead of loading their glyph ranges (GL JS's localIdeographFontFamily, sans-serif by default), or none to load every range.", valueName: "FAMILY|none"))
    var localIdeographs: String?

    @Option(help: ArgumentHelp("continuous (an interactive map, the default) or still (one image: no fades, and a glyph range, tile or sprite that fails stops the load, as MapLibre's still mode).", valueName: "MODE"))
    var mode: MapMode = .continuous

    func validate() throws {
        if let network, NetworkPreset(rawValue: network) == nil {
            throw ValidationError("unknown --network profile \"\(network)\"; use one of \(NetworkPreset.names.joined(separator: ", "))")
        }
        if !mirror.isEmpty && network == nil { throw ValidationError("--mirror needs --network PROFILE (it feeds the simulated network)") }
        for mirror in mirror.map(\.value) {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: mirror.directory, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("--mirror \(mirror.prefix)=…: the folder \(mirror.directory) does not exist (every URL under \(mirror.prefix) would be a 404)")
            }
        }
        if !offlineWindow.isEmpty && network == nil { throw ValidationError("--offline-window needs --network PROFILE") }
        if noCache && cache != nil { throw ValidationError("--cache and --no-cache contradict each other") }
        if let maxRequests, !(1...1000).contains(maxRequests) { throw ValidationError("--max-requests must be between 1 and 1000") }
        if let localIdeographs, localIdeographs.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--local-ideographs takes a font family, or none")
        }
        guard (1...10_000_000).contains(maxTiles) else { throw ValidationError("--max-tiles must be between 1 and 10000000") }
        if let requestTimeout, requestTimeout.time < .milliseconds(1) { throw ValidationError("--request-timeout must be 1ms or more") }
    }

    /// The network as a trace header names it: the simulated profile, `offline`, or `real`.
    var networkName: String {
        network ?? (offline ? "offline" : "real")
    }

    /// The engine these options choose, with its local ideographs as --local-ideographs says.
    var chosenEngine: Engine {
        let base = Engine.named(engine ?? .maplibreNative)
        guard let localIdeographs else { return base }
        return base.localIdeographs(localIdeographs == "none" ? nil : localIdeographs)
    }

    /// The loading environment these options describe, for a style at `styleURL`; its warnings are
    /// printed.
    /// The environment these options make; a --cache that cannot be opened (a folder that does
    /// not exist, a folder given as the file) ends the command with exit status 74, as an --events
    /// file that cannot be written does.
    /// `budget` is the command's own limit on the wall clock (`load --timeout`): the real network's
    /// client waits no longer for a connection or an answer, so no hidden limit of its own cuts a
    /// request short of what the user allowed.
    func environment(styleURL: String, mapbox: MapboxURL = MapboxURL(), maximumRetries: Int? = nil,
                     mapboxTileCountLimit: Int = OfflineDatabase.Options.defaultMapboxTileCountLimit, budget: SimTime? = nil) throws -> LoadingEnvironment {
        let network: LoadingEnvironment.NetworkChoice = if let preset = self.network.flatMap(NetworkPreset.init(rawValue:)) {
            .simulated(.init(preset: preset, seed: seed, mirrors: mirror.map(\.value), offlineWindows: offlineWindow.map(\.value)))
        } else {
            .real(HTTPResourceLoader.Options(waitingAtMost: budget))
        }
        var options = LoadingEnvironment.Options(assetRoot: assetRoot, cache: noCache ? .none : cache.map { .file($0) } ?? .perUser,
                                                 network: network, startsOffline: offline, maximumCacheSize: maxCacheSize.bytes,
                                                 map: Map.Options(mapbox: mapbox, maximumTilesPerSource: maxTiles, mode: mode,
                                                                  loading: .init(maximumConcurrentRequests: maxRequests ?? chosenEngine.requests.maximumConcurrentRequests,
                                                                                 maximumRetries: maximumRetries, requestTimeout: requestTimeout?.time),
                                                                  engine: chosenEngine))
        options.mapboxTileCountLimit = mapboxTileCountLimit
        let environment = LoadingEnvironment(options, styleURL: styleURL)
        if let error = environment.cacheError { throw ExitStatus.fail(error) }
        for warning in environment.warnings { printError("mapsim: warning: \(warning)") }
        return environment
    }
}

extension MapMode: ExpressibleByArgument {}

extension Engine.Name: ExpressibleByArgument {}
