import ArgumentParser
import MapSim
import MapSimKit

/// `mapsim content check STYLE [--force]`: the data manager's version check, once.
struct ContentCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check whether a site published newer content, and download only what changed.",
        discussion: """
        When the last completed check of the site is 15 minutes old or more (--max-age), or with \
        --force, makes one conditional request for manifest.json next to STYLE. Only when the \
        server's version is higher are the items whose SHA-256 changed downloaded, checked, \
        and stored as the site's content, pinned in the cache; the previous version is unpinned \
        only then, so a download that fails leaves it whole (and the next check tries again).

        Exit status: 0 checked, skipped or updated; 1 an item failed to download (listed); 69 \
        the manifest cannot be had (offline, unreachable, an HTTP error, not a manifest); \
        74 the cache cannot be opened or written.

        Examples:
          mapsim content check https://maps.test/style.json
          mapsim content check https://maps.test/style.json --force
        """
    )

    @Argument(help: "The style whose site content to check.")
    var style: String

    @Flag(help: "Check whatever the age of the last check.")
    var force = false

    @Option(help: ArgumentHelp("How old the last check may be, in seconds.", valueName: "S"))
    var maxAge = 900

    @OptionGroup(title: "Loading")
    var loading: LoadingOptions

    func run() async throws {
        guard maxAge >= 0 else { throw ValidationError("--max-age must be 0 or more seconds") }
        let styleURL = StyleLocation.url(for: style)
        let environment = loading.environment(styleURL: styleURL, mapbox: MapboxURL())
        guard let cache = environment.cache else {
            await environment.shutdown()
            printError("mapsim: a content check needs a cache, and none could be opened: \(environment.warnings.joined(separator: "; "))")
            throw ExitCode(74)
        }
        let map = await environment.makeMap()
        let session = await ContentSession(map: map, cache: cache, styleURL: styleURL, configuration: .init(maximumAge: Int64(maxAge)))
        let outcome = await session.loadData(force: force)
        await environment.shutdown()
        let site = await session.site
        let version = outcome.version.map(String.init) ?? "none"
        if outcome.skipped {
            print("\(site): version \(version): checked less than \(maxAge) s ago; nothing requested (--force to check now)")
        } else if !outcome.changed.isEmpty {
            let bytes = outcome.changed.reduce(0) { $0 + $1.size }
            print("\(site): version \(outcome.previousVersion.map(String.init) ?? "none") → \(version): \(outcome.changed.count) item\(outcome.changed.count == 1 ? "" : "s") downloaded (\(ByteCount.format(bytes)))")
            for item in outcome.changed { print("  \(item.kind.rawValue) \(item.url)") }
        } else if outcome.errors.isEmpty {
            print("\(site): version \(version) is the newest")
        }
        for (key, message) in outcome.errors.sorted(by: { $0.key < $1.key }) {
            printError("mapsim: \(key == "manifest" || key == "cache" ? key : "item \(key)"): \(message)")
        }
        if outcome.errors["cache"] != nil { throw ExitCode(74) }
        if outcome.errors["manifest"] != nil { throw ExitCode(69) }
        if !outcome.errors.isEmpty {
            printError("mapsim: the previous version is kept whole")
            throw ExitCode(1)
        }
    }
}
