import ArgumentParser
import Foundation
import MapSim
import MapSimKit
import MapSimCache
import MapSimHTTP

/// How a command loads resources: cache, network (real or simulated), offline. Shared by every
/// command that loads a style.
struct LoadingOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The cache file (default: \(CacheLocation.defaultPath)).", valueName: "PATH"))
    var cache: String?

    @Flag(help: "Use no cache: every request goes to the network.")
    var noCache = false

    @Flag(help: "Start offline: nothing goes to the network; the cache answers what it can.")
    var offline = false

    @Option(help: ArgumentHelp("Simulate the network with a profile: \(NetworkProfile.names.joined(separator: ", ")). Without it, http(s) URLs use the real network.", valueName: "PROFILE"))
    var network: String?

    @Option(help: ArgumentHelp("With --network: serve URLs starting with URLPREFIX from DIR (repeatable).", valueName: "URLPREFIX=DIR"))
    var mirror: [MirrorArgument] = []

    @Option(help: ArgumentHelp("With --network: no network from START to END seconds of virtual time (repeatable).", valueName: "START-END"))
    var offlineWindow: [WindowArgument] = []

    @Option(help: "The seed of the simulated network's jitter.")
    var seed: UInt64 = 0

    @Option(help: "The most network requests in flight at once.")
    var maxRequests: Int = 20

    @Option(help: ArgumentHelp("The folder asset:// URLs resolve under (default: the style's folder).", valueName: "DIR"))
    var assetRoot: String?

    func validate() throws {
        if let network, NetworkProfile.named(network) == nil {
            throw ValidationError("unknown --network profile \"\(network)\"; use one of \(NetworkProfile.names.joined(separator: ", "))")
        }
        if !mirror.isEmpty && network == nil { throw ValidationError("--mirror needs --network PROFILE (it feeds the simulated network)") }
        if !offlineWindow.isEmpty && network == nil { throw ValidationError("--offline-window needs --network PROFILE") }
        if noCache && cache != nil { throw ValidationError("--cache and --no-cache contradict each other") }
        guard (1...1000).contains(maxRequests) else { throw ValidationError("--max-requests must be between 1 and 1000") }
    }

    /// The backends, delivery model and whether to start offline, for a style at `styleURL`.
    func makeLoading(styleURL: String) -> Loading {
        let root = assetRoot ?? StyleLocation.folder(of: styleURL) ?? FileManager.default.currentDirectoryPath
        var warnings: [String] = []
        var sqlite: SQLiteCache?
        if !noCache {
            let path = cache ?? CacheLocation.defaultPath
            do {
                sqlite = try SQLiteCache(path: path)
                warnings += sqlite?.warnings ?? []
            } catch {
                warnings.append("running without a cache: \(error)")
            }
        }
        let file = FileResourceLoader(assetRoot: root)
        if let network, var profile = NetworkProfile.named(network, seed: seed) {
            profile.offlineWindows = offlineWindow.map(\.value)
            let simulated = SimulatedNetwork(mirrors: mirror.map(\.value))
            return Loading(backends: ResourceBackends(file: file, cache: sqlite, network: simulated), timing: profile,
                           startsOffline: offline || network == "offline", cache: sqlite, http: nil, warnings: warnings)
        }
        let http = HTTPResourceLoader()
        return Loading(backends: ResourceBackends(file: file, cache: sqlite, network: http), timing: MeasuredDelivery(),
                       startsOffline: offline, cache: sqlite, http: http, warnings: warnings)
    }
}

/// What `LoadingOptions` composed.
struct Loading {
    var backends: ResourceBackends
    var timing: any DeliveryTiming
    var startsOffline: Bool
    /// The cache, when one could be opened.
    var cache: SQLiteCache?
    /// The real network client, to shut down when done.
    var http: HTTPResourceLoader?
    var warnings: [String]

    func shutdown() async {
        try? await http?.shutdown()
    }
}

/// `URLPREFIX=DIR` on the command line.
struct MirrorArgument: ExpressibleByArgument {
    var value: SimulatedNetwork.Mirror

    init?(argument: String) {
        guard let equals = argument.range(of: "=", options: .backwards) else { return nil }
        let prefix = String(argument[..<equals.lowerBound])
        let directory = String(argument[equals.upperBound...])
        guard URLResolver.scheme(of: prefix) != nil, !directory.isEmpty else { return nil }
        value = SimulatedNetwork.Mirror(prefix: prefix, directory: URL(fileURLWithPath: directory).standardizedFileURL.path)
    }
}

/// `START-END` in seconds of virtual time on the command line.
struct WindowArgument: ExpressibleByArgument {
    var value: Range<SimTime>

    init?(argument: String) {
        let parts = argument.split(separator: "-").compactMap { Double($0) }
        guard parts.count == 2, parts[0] >= 0, parts[0] < parts[1] else { return nil }
        value = SimTime.seconds(parts[0])..<SimTime.seconds(parts[1])
    }
}

/// Where the per-user cache lives.
enum CacheLocation {
    /// `$XDG_CACHE_HOME/mapsim/cache.db`, else `~/.cache/mapsim/cache.db` (`~/Library/Caches` on macOS).
    static var defaultPath: String {
        let environment = ProcessInfo.processInfo.environment
        #if os(macOS)
        let base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("Library/Caches").path
        #else
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache").path
        #endif
        return base + "/mapsim/cache.db"
    }
}
