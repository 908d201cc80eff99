import ArgumentParser
import Foundation
import MapSimKit

/// How a command loads resources, as plain values: what `LoadingOptions` parses, and what a
/// command parsed without ArgumentParser (`mapsim load`'s quick path) fills in. Its defaults are
/// the options' defaults.
struct LoadingSettings: Sendable {
    /// The settings of a command given none of the loading options.
    static let defaults = LoadingSettings()

    var cache: String?
    var maxCacheSize = ByteSizeArgument(bytes: OfflineDatabase.Options.defaultMaximumAmbientCacheSize)
    var noCache = false
    var offline = false
    var network: String?
    var mirror: [MirrorArgument] = []
    var offlineWindow: [WindowArgument] = []
    var seed: UInt64 = 0
    var maxRequests: Int?
    var maxTiles = Map.Options.defaultMaximumTilesPerSource
    var assetRoot: String?
    var requestTimeout: DurationArgument?
    var engine: Engine.Name?
    var localIdeographs: String?
    var mode = MapMode.continuous

    /// Refuses what contradicts itself or cannot work: an unknown profile, a mirror without one, a
    /// folder that does not exist, limits out of range.
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
        if let localIdeographs, localIdeographs.allSatisfy(\.isWhitespace) {
            throw ValidationError("--local-ideographs takes a font family, or none")
        }
        guard (1...10_000_000).contains(maxTiles) else { throw ValidationError("--max-tiles must be between 1 and 10000000") }
        if let requestTimeout, requestTimeout.time < .milliseconds(1) { throw ValidationError("--request-timeout must be 1ms or more") }
    }

    /// The network as a trace header names it: the simulated profile, `offline`, or `real`.
    var networkName: String {
        network ?? (offline ? "offline" : "real")
    }

    /// The engine these settings choose, with its local ideographs as --local-ideographs says.
    var chosenEngine: Engine {
        let base = Engine.named(engine ?? .maplibreNative)
        guard let localIdeographs else { return base }
        return base.localIdeographs(localIdeographs == "none" ? nil : localIdeographs)
    }

    /// The loading environment these settings make, for a style at `styleURL`, its warnings
    /// printed; a --cache that cannot be opened (a folder that does not exist, a folder given as
    /// the file) ends the command with exit status 74, as an --events file that cannot be written
    /// does. `budget` is the command's own limit on the wall clock (`load --timeout`): the real
    /// network's client waits no longer for a connection or an answer, so no hidden limit of its
    /// own cuts a request short of what the user allowed.
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

extension LoadingSettings {
    /// The loading options as a command read without ArgumentParser takes them (`PlainCommandLine`),
    /// setting the settings at `part` of its run.
    static func plainOptions<Run>(within part: WritableKeyPath<Run, LoadingSettings> & Sendable) -> [String: PlainCommandLine<Run>.Option] {
        plainOptions.mapValues { $0.within(part) }
    }

    private static let plainOptions: [String: PlainCommandLine<LoadingSettings>.Option] = [
        "--cache": .value(String.self) { $0.cache = $1 },
        "--max-cache-size": .value(ByteSizeArgument.self) { $0.maxCacheSize = $1 },
        "--no-cache": .flag { $0.noCache = true },
        "--offline": .flag { $0.offline = true },
        "--network": .value(String.self) { $0.network = $1 },
        "--mirror": .value(MirrorArgument.self, repeatable: true) { $0.mirror.append($1) },
        "--offline-window": .value(WindowArgument.self, repeatable: true) { $0.offlineWindow.append($1) },
        "--seed": .value(UInt64.self, unconditional: true) { $0.seed = $1 },
        "--max-requests": .value(Int.self, unconditional: true) { $0.maxRequests = $1 },
        "--max-tiles": .value(Int.self, unconditional: true) { $0.maxTiles = $1 },
        "--asset-root": .value(String.self) { $0.assetRoot = $1 },
        "--request-timeout": .value(DurationArgument.self, unconditional: true) { $0.requestTimeout = $1 },
        "--engine": .value(Engine.Name.self) { $0.engine = $1 },
        "--local-ideographs": .value(String.self) { $0.localIdeographs = $1 },
        "--mode": .value(MapMode.self) { $0.mode = $1 },
    ]
}
