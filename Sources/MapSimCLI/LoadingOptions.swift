import ArgumentParser
import Foundation
import MapSimKit

/// How a command loads resources: cache, network (real or simulated), offline. Shared by every
/// command that loads a style.
struct LoadingOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The cache: a MapLibre Native offline database, an app's included (default: \(CacheLocation.defaultDescription), its folder made if need be; another file goes in a folder that exists, as every file mapsim writes does).", valueName: "PATH"))
    var cache: String?

    @Option(help: ArgumentHelp("Evict the least recently used ambient entries past this size (KB, MB: 1000s; KiB, MiB, or K, M: 1024s; MapLibre's default).", valueName: "SIZE"))
    var maxCacheSize = LoadingSettings.defaults.maxCacheSize

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
    var seed = LoadingSettings.defaults.seed

    @Option(parsing: .unconditional, help: "The most network requests in flight at once (default: the engine's, 20 for MapLibre Native and Mapbox, 256 for GL JS).")
    var maxRequests: Int?

    @Option(parsing: .unconditional, help: "The most tiles one source may need for one view; a larger cover is refused with a source error.")
    var maxTiles = LoadingSettings.defaults.maxTiles

    @Option(help: ArgumentHelp("The folder asset:// URLs resolve under (default: the style's folder).", valueName: "DIR"))
    var assetRoot: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Fail a network attempt that has no answer after this long (500ms, 2s; a bare number is seconds), naming its URL; it is retried as a lost connection is.", valueName: "DURATION"))
    var requestTimeout: DurationArgument?

    @Option(help: ArgumentHelp("The map to simulate: maplibre-native (the default), mapbox (the Mapbox Maps SDK), or maplibre-gl-js or mapbox-gl-js (in a browser; each checks a style by its spec as it loads, and loads nothing of one with an error).", valueName: "ENGINE"))
    var engine: Engine.Name?

    @Option(help: ArgumentHelp("Draw CJK ideographs, Hangul and kana with this local font instead of loading their glyph ranges (GL JS's localIdeographFontFamily, sans-serif by default), or none to load every range.", valueName: "FAMILY|none"))
    var localIdeographs: String?

    @Option(help: ArgumentHelp("continuous (an interactive map, the default) or still (one image: no fades, and a glyph range, tile, sprite or source (its TileJSON or GeoJSON) that fails stops the load, as MapLibre's still mode).", valueName: "MODE"))
    var mode = LoadingSettings.defaults.mode

    /// These options as plain values.
    var settings: LoadingSettings {
        LoadingSettings(cache: cache, maxCacheSize: maxCacheSize, noCache: noCache, offline: offline, network: network, mirror: mirror,
                        offlineWindow: offlineWindow, seed: seed, maxRequests: maxRequests, maxTiles: maxTiles, assetRoot: assetRoot,
                        requestTimeout: requestTimeout, engine: engine, localIdeographs: localIdeographs, mode: mode)
    }

    func validate() throws {
        try settings.validate()
    }
}

extension MapMode: ExpressibleByArgument {}

extension Engine.Name: ExpressibleByArgument {}
